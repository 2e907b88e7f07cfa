/**
 * Schema files: a record type written as JSON, as `filter-check --schema FILE` and the language server
 * read them.
 *
 * A type is written as:
 *
 * | JSON                                   | type                                        |
 * |----------------------------------------|---------------------------------------------|
 * | `"string"`, `"bool"`                   | string, bool                                |
 * | `"int"` (`"int64"`), `"uint"` (`"uint64"`) | signed / unsigned 64-bit integer        |
 * | `"float"` (`"float64"`)                | 64-bit float                                |
 * | `"any"`                                | any JSON value (`interface{}`)               |
 * | `["T"]` or `{"list": T}`               | list of T (null is the nil list)             |
 * | `{"map": T}`                           | map from string keys to T (null is nil)      |
 * | `{"pointer": T}`                       | T or null                                   |
 * | `{"record": "Name", "fields": {...}}`  | a record; `"record"` (its name) is optional  |
 * | `{"enum": ["a", "b"]}`                 | a string that takes these values (`t.enumString`) |
 *
 * The file itself is a record: `{"record": "Node", "fields": {"ID": "string", ...}}`.
 */
import { t, type Schema, type Type } from "./schema.js";

const PRIMITIVES: Readonly<Record<string, Type>> = {
  string: t.string,
  bool: t.bool,
  int: t.int,
  int64: t.int,
  uint: t.uint,
  uint64: t.uint,
  float: t.float,
  float64: t.float,
  any: t.any,
};

const EXPECTED_TYPE =
  '"string", "int", "uint", "float", "bool", "any", ["T"], {"list": T}, {"map": T}, {"pointer": T}, {"enum": ["value", ...]} or {"record": "Name", "fields": {...}}';

/** An invalid schema file: the message says where in the file and what was expected. */
export class SchemaJsonError extends Error {
  override readonly name = "SchemaJsonError";
}

/** Converts the JSON of a schema file to a record type. Throws `SchemaJsonError` naming `file` and the path in it. */
export function schemaFromJson(json: unknown, file = "schema"): Schema {
  const fail = (path: string, problem: string): never => {
    throw new SchemaJsonError(`${file}: ${path === "" ? "the top level" : path}: ${problem}`);
  };
  const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const describe = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : JSON.stringify(v));

  const record = (v: Record<string, unknown>, path: string, defaultName: string): Schema => {
    for (const key of Object.keys(v)) {
      if (key !== "record" && key !== "fields") fail(path, `unexpected key ${JSON.stringify(key)} in a record (a record has "record" and "fields")`);
    }
    const name = v.record ?? defaultName;
    if (typeof name !== "string" || name === "") fail(join(path, "record"), `the record's name must be a non-empty string, not ${describe(name)}`);
    const fields = v.fields;
    if (!isPlainObject(fields)) return fail(join(path, "fields"), `"fields" must be an object mapping field names to types, not ${describe(fields)}`);
    const out: Record<string, Type> = {};
    for (const [field, fieldType] of Object.entries(fields)) {
      if (field === "") fail(join(path, "fields"), "a field name must not be empty");
      out[field] = type(fieldType, join(join(path, "fields"), field), field);
    }
    return t.record(name as string, out);
  };

  const type = (v: unknown, path: string, fieldName: string): Type => {
    if (typeof v === "string") {
      const p = PRIMITIVES[v];
      if (p === undefined) return fail(path, `unknown type ${JSON.stringify(v)}; expected ${EXPECTED_TYPE}`);
      return p;
    }
    if (Array.isArray(v)) {
      if (v.length !== 1) return fail(path, `a list type is an array of exactly one element type, like ["string"], not ${v.length} elements`);
      return t.list(type(v[0], `${path}[0]`, fieldName));
    }
    if (isPlainObject(v)) {
      const keys = Object.keys(v);
      if ("fields" in v || "record" in v) return record(v, path, fieldName);
      if (keys.length === 1) {
        const key = keys[0]!;
        if (key === "list") return t.list(type(v.list, join(path, "list"), fieldName));
        if (key === "map") return t.map(type(v.map, join(path, "map"), fieldName));
        if (key === "pointer") return t.pointer(type(v.pointer, join(path, "pointer"), fieldName));
        if (key === "enum") return enumString(v.enum, join(path, "enum"));
      }
      return fail(path, `an object type has one key "list", "map", "pointer" or "enum", or is a record with "fields"; found ${keys.length === 0 ? "no keys" : `the keys ${keys.map((k) => JSON.stringify(k)).join(", ")}`}`);
    }
    return fail(path, `expected a type (${EXPECTED_TYPE}), not ${describe(v)}`);
  };

  const enumString = (v: unknown, path: string): Type => {
    if (!Array.isArray(v) || v.length === 0) return fail(path, `"enum" lists the values of a string field: a non-empty array of strings, like ["pending", "running"], not ${describe(v)}`);
    const seen = new Set<string>();
    v.forEach((value: unknown, i) => {
      if (typeof value !== "string") fail(`${path}[${i}]`, `a value of an "enum" is a string, not ${describe(value)}`);
      if (seen.has(value as string)) fail(`${path}[${i}]`, `the value ${JSON.stringify(value)} is listed twice`);
      seen.add(value as string);
    });
    return t.enumString(v as string[]);
  };

  if (!isPlainObject(json) || !("fields" in json)) {
    return fail("", `a schema file is a record: {"record": "Name", "fields": {"Field": "string", ...}}, not ${describe(json)}${isPlainObject(json) ? ' without "fields"' : ""}`);
  }
  return record(json, "", "Record");
}

/** `a.b`, or `a["b c"]` when `b c` is not a plain name. */
function join(path: string, key: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);
  if (path === "") return plain ? key : `[${JSON.stringify(key)}]`;
  return plain ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}
