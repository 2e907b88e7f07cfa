/**
 * Go's conversions of a literal's text to the data's type, as the reference applies them at match
 * time: `strconv.ParseBool`, `ParseInt(s, 0, 64)`, `ParseUint(s, 0, 64)` and `ParseFloat(s, 64)`.
 * Each returns the converted value or a failure that says whether the text was malformed ("syntax")
 * or out of range ("range"), since the reference treats the two differently inside JSON lists.
 * `literalValue` keeps a literal's text with its conversions, each computed on first use.
 */
import { hasRawBytes } from "../syntax/strings.js";

/** A failed conversion. */
export interface ConversionFailure {
  readonly failure: "syntax" | "range";
  readonly target: "bool" | "int" | "uint" | "float";
  readonly text: string;
}

export type Converted<T> = T | ConversionFailure;

export function isFailure(v: unknown): v is ConversionFailure {
  return typeof v === "object" && v !== null && "failure" in v;
}

const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** `strconv.ParseBool`. */
export function parseBool(text: string): Converted<boolean> {
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  return { failure: "syntax", target: "bool", text };
}

/** Go's rule for `_` in number literals: only between digits, or after a base prefix. */
function underscoreOK(s: string): boolean {
  let saw = "^";
  let i = 0;
  if (s[0] === "-" || s[0] === "+") s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === "0" && /[bBoOxX]/.test(s[1]!)) {
    i = 2;
    saw = "0";
    hex = s[1] === "x" || s[1] === "X";
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= "0" && c <= "9") || (hex && /[a-fA-F]/.test(c))) {
      saw = "0";
      continue;
    }
    if (c === "_") {
      if (saw !== "0") return false;
      saw = "_";
      continue;
    }
    if (saw === "_") return false;
    saw = "!";
  }
  return saw !== "_";
}

const DIGITS: Readonly<Record<number, RegExp>> = {
  2: /^[01]+$/,
  8: /^[0-7]+$/,
  10: /^[0-9]+$/,
  16: /^[0-9a-fA-F]+$/,
};

/** Unsigned magnitude of a base-0 Go integer literal without sign, or "syntax". */
function parseMagnitude(s: string): bigint | "syntax" {
  if (s.length === 0) return "syntax";
  // Most literals are short decimals: read as a safe integer, without a regular expression or a
  // BigInt parse of a string (which costs twice as much).
  if (s.length <= 15 && s[0] !== "0") {
    let v = 0;
    let i = 0;
    for (; i < s.length; i++) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === s.length) return BigInt(v);
  }
  let base = 10;
  let digits = s;
  if (s[0] === "0" && s.length > 1) {
    const p = s[1]!.toLowerCase();
    if (p === "x") [base, digits] = [16, s.slice(2)];
    else if (p === "b") [base, digits] = [2, s.slice(2)];
    else if (p === "o") [base, digits] = [8, s.slice(2)];
    else [base, digits] = [8, s.slice(1)];
  }
  if (s.includes("_")) {
    if (!underscoreOK(s)) return "syntax";
    digits = digits.replace(/_/g, "");
  }
  if (digits.length === 0 || !DIGITS[base]!.test(digits)) return "syntax";
  const prefix = base === 16 ? "0x" : base === 8 ? "0o" : base === 2 ? "0b" : "";
  return BigInt(prefix + digits);
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const UINT64_MAX = (1n << 64n) - 1n;

/** `strconv.ParseInt(text, 0, 64)`. */
export function parseInt64(text: string): Converted<bigint> {
  let s = text;
  let neg = false;
  if (s[0] === "+" || s[0] === "-") {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  const m = parseMagnitude(s);
  if (m === "syntax") return { failure: "syntax", target: "int", text };
  const v = neg ? -m : m;
  if (v > INT64_MAX || v < INT64_MIN) return { failure: "range", target: "int", text };
  return v;
}

/** `strconv.ParseUint(text, 0, 64)`: no sign is accepted. */
export function parseUint64(text: string): Converted<bigint> {
  const m = parseMagnitude(text);
  if (m === "syntax") return { failure: "syntax", target: "uint", text };
  if (m > UINT64_MAX) return { failure: "range", target: "uint", text };
  return m;
}

const DECIMAL_FLOAT = /^[+-]?(?:[0-9_]+(?:\.[0-9_]*)?|\.[0-9_]+)(?:[eE][+-]?[0-9_]+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]((?:[0-9a-fA-F_]+(?:\.[0-9a-fA-F_]*)?|\.[0-9a-fA-F_]+))[pP]([+-]?[0-9_]+)$/;

/** `strconv.ParseFloat(text, 64)`, including `inf`, `nan`, hex floats and `_` separators. */
export function parseFloat64(text: string): Converted<number> {
  const special = /^([+-]?)(inf|infinity)$/i.exec(text);
  if (special) return special[1] === "-" ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (text.includes("_") && !underscoreOK(text)) return { failure: "syntax", target: "float", text };
  let value: number;
  const hex = HEX_FLOAT.exec(text);
  if (hex) {
    const [, sign, mantissa, exp] = hex;
    const [intPart = "", fracPart = ""] = mantissa!.replace(/_/g, "").split(".");
    if (intPart === "" && fracPart === "") return { failure: "syntax", target: "float", text };
    const digits = intPart + fracPart;
    // Exact: mantissa digits as a big integer, scaled by 2^(exp - 4·fraction digits).
    const m = BigInt(`0x${digits || "0"}`);
    const e = Number(exp!.replace(/_/g, "")) - 4 * fracPart.length;
    value = scaleBinary(m, e);
    if (sign === "-") value = -value;
  } else if (DECIMAL_FLOAT.test(text) && /[0-9]/.test(text)) {
    value = Number(text.replace(/_/g, ""));
  } else {
    return { failure: "syntax", target: "float", text };
  }
  if (!Number.isFinite(value)) return { failure: "range", target: "float", text };
  return value;
}

/**
 * m · 2^e correctly rounded to a double (m ≥ 0), rounding once as Go's `ParseFloat` does: the bits
 * below the double's last place (the 53rd significant bit, or 2^-1074 for subnormals) are rounded
 * half to even on the exact integer, and the rest is scaled exactly.
 */
function scaleBinary(m: bigint, e: number): number {
  if (m === 0n) return 0;
  const bits = m.toString(2).length;
  const top = bits - 1 + e;
  const low = Math.max(top - 52, -1074);
  if (low > e) {
    const shift = BigInt(low - e);
    const rem = m & ((1n << shift) - 1n);
    const half = 1n << (shift - 1n);
    m >>= shift;
    if (rem > half || (rem === half && (m & 1n) === 1n)) m += 1n;
    e = low;
  }
  // m has at most 54 bits: exact as a double; each scaling step below is exact (or overflows).
  let v = Number(m);
  while (e > 0) {
    const s = Math.min(e, 1000);
    v *= 2 ** s;
    e -= s;
  }
  while (e < 0) {
    const s = Math.max(e, -1000);
    v *= 2 ** s;
    e -= s;
  }
  return v;
}

/** `strconv.ParseInt(s, 0, 64)` as the selector walker uses it for list indexes ("" counts as 0). */
export function parseIndex(part: string): number | undefined {
  const v = parseInt64(part === "" ? "0" : part);
  return typeof v === "bigint" ? Number(v) : undefined;
}

/** A literal's text with its conversions to each Go type, computed once. */
export interface LiteralValue {
  readonly text: string;
  /** True when the text holds raw bytes (not valid UTF-8; see syntax/strings.ts). */
  readonly raw: boolean;
  readonly bool: Converted<boolean>;
  readonly int: Converted<bigint>;
  readonly uint: Converted<bigint>;
  readonly float: Converted<number>;
}

/** Conversions are computed on first use and kept: most literals only ever meet one type. */
class LazyLiteral implements LiteralValue {
  private b?: Converted<boolean>;
  private i?: Converted<bigint>;
  private u?: Converted<bigint>;
  private f?: Converted<number>;
  private r?: boolean;
  constructor(readonly text: string) {}
  get raw(): boolean {
    return (this.r ??= hasRawBytes(this.text));
  }
  get bool(): Converted<boolean> {
    return (this.b ??= parseBool(this.text));
  }
  get int(): Converted<bigint> {
    return (this.i ??= parseInt64(this.text));
  }
  get uint(): Converted<bigint> {
    return (this.u ??= parseUint64(this.text));
  }
  get float(): Converted<number> {
    return (this.f ??= parseFloat64(this.text));
  }
}

export function literalValue(text: string): LiteralValue {
  return new LazyLiteral(text);
}
