/** Data that is not plain JSON: the same values as class instances, null-prototype objects, arrays with holes, bigints, -0. */
export type Shape = "plain" | "class" | "null-prototype" | "holes" | "bigint" | "negative-zero";

class Record_ {
  constructor(fields: Record<string, unknown>) {
    Object.assign(this, fields);
  }
}

/** `value` (plain JSON) reshaped: its objects, lists and numbers in the given shape. */
export function reshape(value: unknown, shape: Shape): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => reshape(v, shape));
    if (shape !== "holes") return items;
    const holed = new Array<unknown>(items.length + 1);
    items.forEach((v, i) => (holed[i] = v)); // the last index is a hole
    return holed;
  }
  if (typeof value === "number" && shape === "bigint" && Number.isSafeInteger(value)) return BigInt(value);
  if (value === 0 && shape === "negative-zero") return -0;
  if (typeof value !== "object" || value === null || typeof value === "bigint") return value;
  const fields = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reshape(v, shape)]));
  if (shape === "class") return new Record_(fields);
  if (shape === "null-prototype") return Object.assign(Object.create(null) as object, fields);
  return fields;
}
