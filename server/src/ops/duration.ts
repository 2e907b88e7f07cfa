/**
 * Go's time.ParseDuration: a possibly signed sequence of decimal numbers, each with an optional
 * fraction and a unit (ns, us, µs, ms, s, m, h), e.g. "300ms", "-1.5h", "2h45m". "0" alone is allowed.
 * Returns milliseconds, or undefined when the text is not a duration.
 */
const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  "µs": 1e-3,
  "μs": 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

export function parseDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith("-") || rest.startsWith("+")) {
    sign = rest.startsWith("-") ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === "0") return 0;
  if (rest === "") return undefined;
  let total = 0;
  const part = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== "") {
    const m = part.exec(rest);
    if (m === null) return undefined;
    const [whole, num, unit] = m;
    total += Number(num) * (UNITS[unit as string] ?? Number.NaN);
    rest = rest.slice(whole.length);
  }
  return Number.isFinite(total) ? sign * total : undefined;
}

/** Human form for logs and docs: 90000 → "1m30s". */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const parts: string[] = [];
  let rest = ms;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  if (h > 0) parts.push(`${h}h`);
  if (m > 0) parts.push(`${m}m`);
  if (rest > 0) parts.push(`${rest / 1000}s`);
  return parts.join("");
}
