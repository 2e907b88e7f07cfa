/**
 * Reading a registration's JSON as the scheduler's decoder reads it into its API types (Go's
 * encoding/json into `api.Job`): an absent or null field keeps its default, a value of another JSON
 * type is an error (a bool where a `PeriodicConfig` object goes, an array where an `UpdateStrategy`
 * goes, a number with a fraction or out of range where an `int` goes), unknown fields are ignored.
 * Strings are made storable alike by every store: a lone surrogate (`"\ud800"`, which JSON.parse
 * keeps but Go decodes to U+FFFD and PostgreSQL's jsonb refuses) becomes U+FFFD, and a NUL (which
 * PostgreSQL's text cannot hold) is an error. Every error is collected with the field's path, for
 * one `Job validation failed` answer.
 */
import { MAX_INTEGER } from "./job-limits.js";
import { literalAtPath, writtenAsFraction, type Literals } from "./json-literals.js";
import { dict, isObj, type Obj } from "../object.js";

/** A JSON value's type, as an error names it ("not a string"). */
export function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "boolean") return "a boolean";
  return `a ${typeof v}`;
}

/** `s` with every lone surrogate replaced by U+FFFD, as Go's decoder does. */
export const wellFormed = (s: string): string => s.replace(/\p{Cs}/gu, "\uFFFD");

/** UTF-8 bytes of a string. */
export const utf8Bytes = (s: string): number => Buffer.byteLength(s, "utf8");

/** How a string field is checked: its longest length in bytes, and the error of a NUL in it. */
export interface TextRule {
  maxBytes: number;
  /** the message when it holds U+0000 (the scheduler's own wording for the fields it checks) */
  nul?: string;
}

/** Collects the errors of one job definition while its fields are read. */
export class JobReader {
  readonly errors: string[] = [];

  /** `literals`: the number literals of the job as written (json-literals.ts), when its text is known. */
  constructor(private readonly literals?: Literals) {}

  fail(message: string): void {
    this.errors.push(message);
  }

  private wrongType(path: string, what: string, v: unknown): undefined {
    this.fail(`${path} must be ${what}, not ${kindOf(v)}`);
    return undefined;
  }

  /** A stored string: lone surrogates made U+FFFD, a NUL refused, its length bounded. */
  text(s: string, path: string, rule: TextRule): string {
    const text = wellFormed(s);
    if (text.includes("\u0000")) this.fail(rule.nul ?? `${path} contains a null character`);
    const bytes = utf8Bytes(text);
    if (bytes > rule.maxBytes) this.fail(`${path} is ${bytes} bytes long, more than the ${rule.maxBytes} this server accepts`);
    return text;
  }

  /** A Go `string` / `*string`: undefined when absent or null. */
  string(v: unknown, path: string, rule?: TextRule): string | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") return this.wrongType(path, "a string", v);
    return rule === undefined ? v : this.text(v, path, rule);
  }

  /** A Go `int`, `int64` or `time.Duration` (nanoseconds): an integer JSON number within `MAX_INTEGER`, written without a fraction or an exponent. */
  integer(v: unknown, path: string): number | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number") return this.wrongType(path, "an integer", v);
    if (!Number.isInteger(v)) {
      this.fail(`${path} must be an integer, not ${v}`);
      return undefined;
    }
    if (Math.abs(v) > MAX_INTEGER) {
      this.fail(`${path} is out of range: ${v} is not an integer between -${MAX_INTEGER} and ${MAX_INTEGER}`);
      return undefined;
    }
    // `1.0` and `1e2` parse to integers, but Go's decoder refuses a fraction or an exponent for an int.
    const literal = literalAtPath(this.literals, path);
    if (literal !== undefined && writtenAsFraction(literal)) {
      this.fail(`${path} must be an integer, not ${literal}`);
      return undefined;
    }
    return v;
  }

  /** A Go `bool` / `*bool`. */
  boolean(v: unknown, path: string): boolean | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "boolean") return this.wrongType(path, "a boolean", v);
    return v;
  }

  /** A pointer to a Go struct (`what` names it): an object, or undefined when absent or null. */
  object(v: unknown, path: string, what: string): Obj | undefined {
    if (v === undefined || v === null) return undefined;
    if (!isObj(v)) return this.wrongType(path, `an object (${what})`, v);
    return v;
  }

  /** A Go slice: an array of at most `maxItems` elements, or undefined when absent or null. */
  list(v: unknown, path: string, maxItems: number, what: string): unknown[] | undefined {
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) return this.wrongType(path, `a list (${what})`, v);
    if (v.length > maxItems) {
      this.fail(`${path} has ${v.length} elements, more than the ${maxItems} this server accepts`);
      return undefined;
    }
    return v;
  }

  /** A Go `[]string` (a null element is ""); `rule` checks the elements the job stores. */
  strings(v: unknown, path: string, maxItems: number, rule?: TextRule): string[] | undefined {
    const items = this.list(v, path, maxItems, "of strings");
    if (items === undefined) return undefined;
    return items.map((s, i) => this.string(s, `${path}[${i}]`, rule) ?? "");
  }

  /** A Go `map[string]string` (a null value is ""), as a dictionary; keys and values follow `rule`. */
  stringMap(v: unknown, path: string, maxEntries: number, rule: TextRule): Record<string, string> | undefined {
    const o = this.object(v, path, "a map of strings");
    if (o === undefined) return undefined;
    const entries = Object.entries(o);
    if (entries.length > maxEntries) {
      this.fail(`${path} has ${entries.length} entries, more than the ${maxEntries} this server accepts`);
      return undefined;
    }
    const out = dict<string>();
    for (const [key, value] of entries) {
      const name = this.text(key, `${path} key ${JSON.stringify(key.slice(0, 32))}`, rule);
      out[name] = this.string(value, `${path}[${JSON.stringify(name.slice(0, 32))}]`, rule) ?? "";
    }
    return out;
  }
}

/** A string or key a store cannot hold as it is: a NUL, or a lone surrogate. */
const UNHOLDABLE = /[\u0000\ud800-\udfff]/;

/**
 * Makes what `container` (an object or array at `path`, nesting level 1) holds storable alike by every
 * store, as registration does for the strings it stores: a lone surrogate in a string or key becomes
 * U+FFFD, in place (Go's decoder reads it so; jsonb refuses it). Returns the first thing no store can
 * hold, as "path: what": a NUL in a string or key (PostgreSQL's text and jsonb cannot hold one), or
 * objects and arrays nested more than `maxDepth` levels deep (encoding them again would overflow the
 * stack), named at the container's member that holds them. Recursion stops at `maxDepth`: any input
 * is safe.
 */
export function makeStorable(container: Obj | unknown[], path: string, maxDepth: number): string | undefined {
  return storableWithin(container, path, 1, maxDepth, undefined);
}

function storableWithin(container: Obj | unknown[], path: string, depth: number, maxDepth: number, member: string | undefined): string | undefined {
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) {
      const value = container[i];
      if (typeof value === "string") {
        if (!UNHOLDABLE.test(value)) continue;
        if (value.includes("\u0000")) return `${path}[${i}]: contains a null character`;
        container[i] = wellFormed(value);
      } else if (typeof value === "object" && value !== null) {
        const problem = storableValue(value, `${path}[${i}]`, depth + 1, maxDepth, member);
        if (problem !== undefined) return problem;
      }
    }
    return undefined;
  }
  let renamed = false;
  for (const key in container) {
    if (UNHOLDABLE.test(key)) {
      if (key.includes("\u0000")) return `${path}: a key contains a null character`;
      renamed = true;
    }
    const value = container[key];
    if (typeof value === "string") {
      if (!UNHOLDABLE.test(value)) continue;
      if (value.includes("\u0000")) return `${path}.${key}: contains a null character`;
      container[key] = wellFormed(value);
    } else if (typeof value === "object" && value !== null) {
      const problem = storableValue(value, `${path}.${key}`, depth + 1, maxDepth, member);
      if (problem !== undefined) return problem;
    }
  }
  if (renamed) {
    // Every key again, in order (a later key that reads the same wins, as in Go's map): the order stays the file's.
    const entries = Object.entries(container);
    for (const [key] of entries) delete container[key];
    for (const [key, value] of entries) Object.defineProperty(container, wellFormed(key), { value, enumerable: true, writable: true, configurable: true });
  }
  return undefined;
}

/** An object or array at `depth` inside the container `makeStorable` was given (`member`: the container's member holding it, once known). */
function storableValue(value: object, path: string, depth: number, maxDepth: number, member: string | undefined): string | undefined {
  if (depth > maxDepth) return `${member ?? path}: nests objects and arrays more than ${maxDepth} levels deep`;
  return storableWithin(value as Obj | unknown[], path, depth, maxDepth, member ?? path);
}
