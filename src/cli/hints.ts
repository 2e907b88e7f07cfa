/**
 * A hint for each error code: what to write instead, in a sentence. The error's message says what is
 * wrong; the hint says how people usually fix it.
 */
import { FilterEvaluationError, FilterSyntaxError, FilterTypeError, type FilterError, type RecordType, type Schema, type Type } from "../index.js";

const SYNTAX: Readonly<Record<string, string>> = {
  "unexpected-input": 'a match is SELECTOR OPERATOR VALUE, e.g. Status == "running"; join matches with and/or, and quote values that are not plain words or numbers',
  "unexpected-end": "the expression stops too early: complete it at the caret",
  "empty-expression": 'write an expression, e.g. Status == "running"',
  "missing-whitespace": "and, or, not, in, contains, matches and is need whitespace around them: write not (...), not not(...)",
  "unterminated-string": 'close the string with the quote it started with (" or `)',
  "invalid-string": 'double-quoted strings use Go escapes (\\n, \\t, \\\\, \\", \\x41, \\u00e9); a `raw string` in backticks has no escapes',
  "invalid-number": 'a number is -?DIGITS[.DIGITS] followed by whitespace, ")" or the end; quote anything else ("1e3", "0x10")',
  "unmatched-parenthesis": 'every "(" needs a matching ")"',
  "invalid-index": 'a step is .Name, .123 (an index) or ["key"] / [`key`]',
  "unclosed-index": 'close the key with "]": ["key"]',
  "invalid-selector": 'a selector is a name (an ASCII letter, then letters, digits, _ and /) followed by .Name, .123 or ["key"]',
  "input-too-long": "shorten the expression",
  "nesting-too-deep": "use fewer nested parentheses",
  "too-many-expressions": "nest fewer parentheses or shorten the expression (the reference's parse budget)",
  "too-many-matches": "use fewer matches in one filter",
};

const TYPE: Readonly<Record<string, string>> = {
  "not-a-record": "that value has no parts: remove the step",
  "invalid-index": "a list is walked by index: to test its elements, use any LIST as x { x.Field == ... }",
  "operator-not-applicable":
    "== and != compare strings, numbers and bools; in and contains test map keys, substrings and list elements; is empty takes strings, lists and maps; is nil takes values that may be null; matches takes strings",
  "invalid-regex": "patterns are RE2 (Go's regexp): no backreferences or lookaround; in double quotes write \\\\ for one backslash, or use a `raw string`",
};

const EVALUATION: Readonly<Record<string, string>> = {
  "missing-key": 'a key missing before the last step is an error: guard it, e.g. "key" in Map and Map.key.Field == 1',
  "unknown-field": "the name is not a field of the record: check its spelling and case",
  "index-out-of-range": "the list is shorter: to test the elements whatever their number, use any/all",
  "invalid-index": "a list is indexed by number: to test the elements, use any S as v { ... }",
  "invalid-path": "the value has no parts (a string, number, bool or null): shorten the selector",
  "invalid-literal": "the value's text does not convert to the type of the data at this item",
  "not-comparable": "== and != need a string, number or bool on the data side",
  "not-a-collection": "any/all need a list or a map",
  "cannot-test-empty": "is empty takes strings, lists and maps",
  "cannot-test-nil": "is nil takes values that may be null: records behind pointers, lists and maps",
  "cannot-contain": "in and contains test map keys, substrings and list elements",
  "cannot-match": "matches takes strings",
  "invalid-regex": TYPE["invalid-regex"]!,
};

const LITERALS: Readonly<Record<string, string>> = {
  "signed integer": "a signed integer is written 42, -7, 0x2a, 0o17 or 1_000",
  "unsigned integer": "an unsigned integer is written 42, 0x2a, 0o17 or 1_000",
  float: "a float is written 1.5, 1e3, .5 or inf",
  bool: "a bool is written true or false (also 1/0, t/f, T/F, TRUE/FALSE, True/False)",
};

/** The hint for an error, using the schema to list a record's fields. */
export function errorHint(e: FilterError, schema: Schema | undefined): string | undefined {
  if (e instanceof FilterSyntaxError) return SYNTAX[e.code];
  if (e instanceof FilterEvaluationError) return EVALUATION[e.code];
  if (e instanceof FilterTypeError) {
    if (e.code === "unknown-field") return unknownFieldHint(e, schema);
    if (e.code === "invalid-literal") {
      const kind = /is not a valid (signed integer|unsigned integer|float|bool) for/.exec(e.summary)?.[1];
      return `the value is converted to the field's type: ${(kind && LITERALS[kind]) ?? "write a value of that type"}`;
    }
    return TYPE[e.code];
  }
  return undefined;
}

function unknownFieldHint(e: FilterTypeError, schema: Schema | undefined): string | undefined {
  const recordName = /is not a field of (\S+?)(?:;|$)/.exec(e.summary)?.[1];
  const record = schema && recordName ? findRecord(schema, recordName) : undefined;
  const fields = record ? Object.keys(record.fields) : [];
  const list = fields.length > 0 ? `the fields of ${record!.name} are ${fields.join(", ")}` : undefined;
  if (e.suggestion !== undefined) return `replace it with ${e.suggestion}${list ? `; ${list}` : ""}`;
  return list ? `field names are exact and case-sensitive; ${list}` : "field names are exact and case-sensitive";
}

/** The record type named `name` anywhere in `type`. */
function findRecord(type: Type, name: string, seen = new Set<Type>()): RecordType | undefined {
  if (seen.has(type)) return undefined;
  seen.add(type);
  switch (type.kind) {
    case "record":
      if (type.name === name) return type;
      for (const f of Object.values(type.fields)) {
        const r = findRecord(f, name, seen);
        if (r) return r;
      }
      return undefined;
    case "list":
      return findRecord(type.elem, name, seen);
    case "map":
      return findRecord(type.value, name, seen);
    case "pointer":
      return findRecord(type.target, name, seen);
    default:
      return undefined;
  }
}
