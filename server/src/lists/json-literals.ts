/**
 * The number literals of a JSON text as they were written, where the parsed value cannot tell: Go's
 * decoder refuses `1.0` or `1e2` for an integer field (the literal has a fraction or an exponent) where
 * `JSON.parse` gives 1 and 100, and a literal of 16 digits or more may not be the double it parses to
 * (`9223372036854775807`, int64's largest, is read as 2^63, which is past it). Node 20's `JSON.parse` does not give a value's source text,
 * so the text is scanned once more, by a scan that only runs on a text that may hold such a literal.
 */

/** Such literals of a JSON value by path: a member's key or an element's index, then the literal or the literals within. Sparse. */
export type Literals = ReadonlyMap<string | number, Literals | string>;

/**
 * A text that holds no digit followed by `.`, `e` or `E` holds no literal with a fraction or an
 * exponent: ordinary bodies and data files are not scanned (a regular expression's test, 0.4 µs for
 * a job of 600 bytes). Long literals are looked for only when asked (`force`).
 */
const MAY_HOLD = /[0-9][.eE]/;
const WRITTEN_AS_FRACTION = /[.eE]/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The position past the string that opens at `at` (a quote ends it unless an odd run of backslashes escapes it). */
function stringEnd(text: string, at: number): number {
  let from = at + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
    from = q + 1;
    if (backslashes % 2 === 0) return from;
  }
}

const isNumberChar = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * The literals of `text` (valid JSON: parse it first) written with a fraction or an exponent, or with
 * 16 digits or more (their value may not be the double they parse to), by path; undefined when there
 * is none. Unless `force`, a text without a fraction or an exponent is not scanned (its long literals
 * are not looked for). Keys are decoded (`"\u0043ount"` is `Count`). Where a key repeats, both its
 * values' literals are kept (the later one wins a tie), as Go's decoder reads both (a request body);
 * with `lastOnly`, only the last value's, as `JSON.parse` keeps only that value (a data file).
 * Iterative: any depth is safe.
 */
export function numberLiterals(text: string, force = false, lastOnly = false): Literals | undefined {
  if (!force && !MAY_HOLD.test(text)) return undefined;
  let root: Map<string | number, Literals | string> | undefined;
  const path: (string | number)[] = [];
  const inArray: boolean[] = [];
  let expectKey = false;
  const record = (literal: string): void => {
    root ??= new Map();
    let node = root;
    for (let k = 0; k < path.length - 1; k++) {
      const next = node.get(path[k]!);
      if (next instanceof Map) node = next as Map<string | number, Literals | string>;
      else {
        const made = new Map<string | number, Literals | string>();
        node.set(path[k]!, made);
        node = made;
      }
    }
    node.set(path[path.length - 1]!, literal);
  };
  /** Drops what was recorded under the key just read (an earlier value of a repeated key). */
  const forget = (): void => {
    let node: Literals | string | undefined = root;
    for (let k = 0; k < path.length - 1 && node instanceof Map; k++) node = node.get(path[k]!);
    if (node instanceof Map) (node as Map<string | number, Literals | string>).delete(path[path.length - 1]!);
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const top = path.length - 1;
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        const raw = text.slice(i + 1, end - 1);
        path[top] = raw.includes("\\") ? (JSON.parse(text.slice(i, end)) as string) : raw;
        if (lastOnly && root !== undefined) forget();
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      // `{` opens an object (a key comes next), `[` an array (at index 0).
      inArray.push(c === 0x5b);
      path.push(c === 0x5b ? 0 : "");
      expectKey = c === 0x7b;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      inArray.pop();
      path.pop();
      i++;
    } else if (c === 0x2c) {
      if (inArray[top] === true) path[top] = (path[top] as number) + 1;
      else expectKey = true;
      i++;
    } else if (isDigit(c) || c === 0x2d) {
      const start = i;
      let digits = 0;
      while (i < text.length && isNumberChar(text.charCodeAt(i))) {
        if (isDigit(text.charCodeAt(i))) digits++;
        i++;
      }
      const literal = text.slice(start, i);
      if (path.length > 0 && (digits >= 16 || WRITTEN_AS_FRACTION.test(literal))) record(literal);
    } else i++;
  }
  return root;
}

/** The literals within the member or element `key` of a value whose literals are `literals`. */
export function literalsWithin(literals: Literals | undefined, key: string | number): Literals | undefined {
  const node = literals?.get(key);
  return node instanceof Map ? node : undefined;
}

/** The literal of the member or element `key` itself, when it was recorded. */
export function literalOf(literals: Literals | undefined, key: string | number): string | undefined {
  const node = literals?.get(key);
  return typeof node === "string" ? node : undefined;
}

/** Whether a literal is written with a fraction or an exponent (Go's decoder refuses it for an integer). */
export const writtenAsFraction = (literal: string): boolean => WRITTEN_AS_FRACTION.test(literal);

/**
 * The literal at `path` below `literals`, a path as errors name fields: members by name (no `.`, `[`
 * or `]` in them) joined by `.`, elements as `[i]` (`TaskGroups[0].Count`).
 */
export function literalAtPath(literals: Literals | undefined, path: string): string | undefined {
  const steps = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? m[1]! : Number(m[2])));
  let node: Literals | undefined = literals;
  for (let k = 0; k < steps.length - 1 && node !== undefined; k++) node = literalsWithin(node, steps[k]!);
  return steps.length === 0 ? undefined : literalOf(node, steps[steps.length - 1]!);
}

/** The literals of a text as `numberLiterals` gives them: those with a fraction or an exponent at once, all of them when asked (once). */
export interface TextLiterals {
  readonly written: Literals | undefined;
  all(): Literals | undefined;
}

/** `TextLiterals` of `text` (a data file's, read as `JSON.parse` reads it: a repeated key's last value). */
export function textLiterals(text: string): TextLiterals {
  return new LiteralsOfText(text, numberLiterals(text, false, true));
}

class LiteralsOfText implements TextLiterals {
  private scanned: Literals | undefined;
  private done = false;

  constructor(
    private readonly text: string,
    readonly written: Literals | undefined,
  ) {}

  all(): Literals | undefined {
    if (!this.done) {
      // A scanned text's literals are all there already.
      this.scanned = this.written ?? numberLiterals(this.text, true, true);
      this.done = true;
    }
    return this.scanned;
  }
}

class LiteralsWithin implements TextLiterals {
  readonly written: Literals | undefined;

  constructor(
    private readonly outer: TextLiterals,
    private readonly key: string | number,
  ) {
    this.written = literalsWithin(outer.written, key);
  }

  all(): Literals | undefined {
    return literalsWithin(this.outer.all(), this.key);
  }
}

/** `TextLiterals` of the member or element `key`. */
export function textLiteralsWithin(literals: TextLiterals | undefined, key: string | number): TextLiterals | undefined {
  return literals === undefined ? undefined : new LiteralsWithin(literals, key);
}

const sources = new WeakMap<object, string>();

/** `JSON.parse(text)`, remembering the text of an object or array it gives, for `sourceOf`. */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (typeof value === "object" && value !== null) sources.set(value, text);
  return value;
}

/** The text `parseJson` parsed `value` from, or undefined (a value from elsewhere). */
export function sourceOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? sources.get(value) : undefined;
}
