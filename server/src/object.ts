/** A JSON object as the server reads it from a request body, a file or its store. */
export type Obj = Record<string, unknown>;

/** True for an object that is neither an array nor null. */
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
