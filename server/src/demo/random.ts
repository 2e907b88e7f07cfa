/** A small seeded PRNG (mulberry32): the same seed gives the same demo data on every machine. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight: [[value, weight], ...]. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [value, weight] of choices) {
      r -= weight;
      if (r < 0) return value;
    }
    return (choices[choices.length - 1] as readonly [T, number])[0];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Distinct items, in the order of the list. */
  subset<T>(items: readonly T[], min: number, max: number): T[] {
    const n = this.int(min, Math.min(max, items.length));
    const chosen = new Set<number>();
    while (chosen.size < n) chosen.add(this.int(0, items.length - 1));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
  }

  hex(digits: number): string {
    let out = "";
    for (let i = 0; i < digits; i++) out += "0123456789abcdef"[this.int(0, 15)];
    return out;
  }

  uuid(): string {
    return `${this.hex(8)}-${this.hex(4)}-${this.hex(4)}-${this.hex(4)}-${this.hex(12)}`;
  }
}
