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

  /** A Go `int`, `int64` or `time.Duration` (nanoseconds): an integer JSON number within `MAX_INTEGER`. */
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
