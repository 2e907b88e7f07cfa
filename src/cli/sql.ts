/** `--sql postgres|sqlite`: the translation of a valid expression for SQL pushdown (docs/sql.md). */
import { toSQL, type Filter, type SqlDialect, type SqlTranslation } from "../index.js";
import type { Style } from "./style.js";

/** The translation of a compiled filter. */
export function sqlOf(filter: Filter, dialect: SqlDialect): SqlTranslation {
  return toSQL(filter, { dialect });
}

/** The translation as JSON fields. */
export function sqlJson(t: SqlTranslation): Record<string, unknown> {
  return { dialect: t.dialect, where: t.where, params: t.params, exact: t.exact };
}

/** The translation for people: the condition, its bound values, whether rows need a re-check. */
export function sqlText(t: SqlTranslation, style: Style): string {
  const kind = t.exact ? "exact: the selected rows need no re-check" : "narrows: re-check the selected rows with the compiled filter";
  const params = t.params.map((p, i) => `    ${t.dialect === "postgres" ? `$${i + 1}` : `?#${i + 1}`} = ${JSON.stringify(p)}`);
  return [`  ${style.dim(`sql (${t.dialect}, column doc; ${kind}):`)}`, `    WHERE ${t.where}`, ...params].join("\n");
}
