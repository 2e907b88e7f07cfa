/**
 * `--schema`: the built-in records (`job`, `deployment`, `allocation`, `node`, `evaluation`) or a
 * schema file of your own.
 *
 * A schema file is JSON describing one record; its format is the library's `schemaFromJson`
 * (src/semantics/schema-json.ts, docs/cli.md).
 */
import { readFile } from "node:fs/promises";
import { schemaFromJson, SchemaJsonError, schemas, type Schema } from "../index.js";
import { UsageError } from "./args.js";

/** An invalid schema file: says where in the file and what was expected. */
export class SchemaFileError extends UsageError {}

/** The schema named by `--schema`, or undefined for plain JSON. Throws `UsageError`. */
export async function loadSchema(spec: string | undefined): Promise<Schema | undefined> {
  if (spec === undefined) return undefined;
  if (spec === "job" || spec === "deployment" || spec === "allocation" || spec === "node" || spec === "evaluation") return schemas[spec];
  let text: string;
  try {
    text = await readFile(spec, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read the schema file ${spec}: ${fileProblem(e)} (--schema takes job, deployment, allocation, node, evaluation or a file)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw new SchemaFileError(`${spec}: not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return schemaFromJson(json, spec);
  } catch (e) {
    if (e instanceof SchemaJsonError) throw new SchemaFileError(e.message);
    throw e;
  }
}

/** A short reason for a failed file read (`no such file`, `is a directory`, ...). */
export function fileProblem(e: unknown): string {
  const code = (e as { code?: unknown } | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "it is a directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    default:
      return e instanceof Error ? e.message : String(e);
  }
}
