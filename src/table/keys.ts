/**
 * Keys of composite values (lists and maps reached by a selector): equal for two values exactly when
 * every test must answer them alike. A test reads nothing of a value but its own properties, so plain
 * data with equal contents shares one evaluation. Values that are not plain data (class instances,
 * arrays with holes, non-enumerable properties) or too large get no key.
 */

const hasOwn = Object.prototype.hasOwnProperty;

/** Bounds of a value's key: deeper or larger values are evaluated row by row. */
const MAX_DEPTH = 6;
const MAX_PARTS = 128;

/** The key of a scalar, or undefined for anything else. */
function scalarKey(v: unknown): string | undefined {
  switch (typeof v) {
    case "string":
      return `s${v}`;
    case "number":
      return Object.is(v, -0) ? "d-0" : `d${v}`;
    case "bigint":
      return `b${v}`;
    case "boolean":
      return v ? "t" : "f";
    case "undefined":
      return "u";
    default:
      return v === null ? "n" : undefined;
  }
}

/**
 * The key of a list or map: plain arrays and objects (own enumerable properties only, of
 * `Object.prototype` or none) by their contents, within bounds; undefined otherwise.
 */
export function compositeKey(v: object): string | undefined {
  return composite(v, 0, { parts: MAX_PARTS });
}

function composite(v: unknown, depth: number, budget: { parts: number }): string | undefined {
  if (--budget.parts < 0 || depth > MAX_DEPTH) return undefined;
  const scalar = scalarKey(v);
  if (scalar !== undefined) return JSON.stringify(scalar);
  if (typeof v !== "object" || v === null) return undefined;
  if (Array.isArray(v)) {
    const parts: string[] = [];
    for (let i = 0; i < v.length; i++) {
      if (!hasOwn.call(v, i)) return undefined; // a hole reads differently from a value
      const part = composite(v[i], depth + 1, budget);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return `a[${parts.join(",")}]`;
  }
  const keys = plainKeys(v);
  if (keys === undefined) return undefined;
  const parts: string[] = [];
  for (const k of keys) {
    const part = composite((v as Record<string, unknown>)[k], depth + 1, budget);
    if (part === undefined) return undefined;
    parts.push(`${JSON.stringify(k)}:${part}`);
  }
  return `o{${parts.join(",")}}`;
}

/**
 * The key of a map by its own keys alone, for tests that read nothing else of a map (`in`, `is
 * empty`, `is nil`): plain objects only (see `compositeKey`), within bounds; undefined otherwise.
 */
export function keySetKey(v: object): string | undefined {
  if (Array.isArray(v)) return undefined;
  const keys = plainKeys(v);
  if (keys === undefined || keys.length > MAX_PARTS) return undefined;
  return `k${Object.getPrototypeOf(v) === null ? "0" : "1"}${JSON.stringify(keys.sort())}`;
}

/**
 * The own keys of a plain object (of `Object.prototype` or none), or undefined for anything else. A
 * non-enumerable own property answers `in` but not iteration: such objects are not plain data.
 */
function plainKeys(v: object): string[] | undefined {
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  const keys = Object.keys(v);
  return Object.getOwnPropertyNames(v).length === keys.length ? keys : undefined;
}
