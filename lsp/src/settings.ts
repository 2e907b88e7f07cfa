/**
 * The server's settings, from `initializationOptions` and `workspace/didChangeConfiguration` (either
 * the object itself or under the section `filterExpr`):
 *
 * - `schema`: `"job"`, `"deployment"`, `"allocation"`, `"node"`, `"evaluation"`, a path to a schema file (docs/cli.md, "Schema files"; relative
 *   to the workspace's root), or absent/null/`"json"` for plain JSON.
 * - `target`: the release to check for (`"nomad@1.10.5"`, as `filter-check --target`); absent: the newest.
 */
import { readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { resolveTarget, schemaFromJson, schemas, type Schema, type Target } from "filter-expr";

/** The settings as the client sends them. */
export interface RawSettings {
  readonly schema?: string | null;
  readonly target?: string | null;
}

/** The settings as the server uses them. */
export interface Settings {
  readonly schema: Schema | undefined;
  readonly target: Target | undefined;
  /** What went wrong while reading them (an unreadable schema file, an unknown release), for the user. */
  readonly problems: readonly string[];
}

export const DEFAULT_SETTINGS: Settings = { schema: undefined, target: undefined, problems: [] };

/** The settings object inside what a client sent: `{ filterExpr: {...} }` or the object itself. */
export function rawSettings(sent: unknown): RawSettings {
  if (typeof sent !== "object" || sent === null) return {};
  const section = Object.hasOwn(sent, "filterExpr") ? (sent as { filterExpr: unknown }).filterExpr : sent;
  if (typeof section !== "object" || section === null) return {};
  const own = (key: string): unknown => (Object.hasOwn(section, key) ? (section as Record<string, unknown>)[key] : undefined);
  const schema = own("schema");
  const target = own("target");
  return { schema: typeof schema === "string" ? schema : null, target: typeof target === "string" ? target : null };
}

/** A built-in schema by its word, or undefined for plain JSON; `null` for a word that names none (a path). */
export function namedSchema(word: string | null | undefined): Schema | undefined | null {
  if (word === undefined || word === null || word === "" || word === "json") return undefined;
  if (word === "job" || word === "deployment" || word === "allocation" || word === "node" || word === "evaluation") return schemas[word];
  return null;
}

/** Reads the settings (a schema file from `root`, the workspace's folder). Never throws: problems are reported. */
export async function loadSettings(raw: RawSettings, root: string): Promise<Settings> {
  const problems: string[] = [];
  let schema = namedSchema(raw.schema);
  if (schema === null) {
    const path = isAbsolute(raw.schema!) ? raw.schema! : resolve(root, raw.schema!);
    try {
      const text = await readFile(path, "utf8");
      schema = schemaFromJson(JSON.parse(text.replace(/^\uFEFF/, "")), raw.schema!);
    } catch (e) {
      problems.push(`filter-expr: the schema ${raw.schema} is not used (plain JSON instead): ${e instanceof Error ? e.message : String(e)}`);
      schema = undefined;
    }
  }
  let target: Target | undefined;
  if (typeof raw.target === "string" && raw.target !== "") {
    try {
      target = resolveTarget(raw.target);
    } catch (e) {
      problems.push(`filter-expr: the target ${raw.target} is not used (the newest release instead): ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { schema, target, problems };
}
