/** How each release's answers differ from 0.1.16's, as a markdown table (for README.md). */
import { VERSIONS, type Version } from "./oracle.js";

/**
 * One row per release: its answers by kind, how many differ from 0.1.16's, and the differences by
 * kind (`0.1.16's answer → this release's`, most frequent first).
 */
export function summarise(rows: readonly Partial<Record<Version, string>>[]): string {
  const lines = ["| release | answers | true / false / parse-error / eval-error | differ from 0.1.16 | how (0.1.16 → release: cases) |", "|---|---|---|---|---|"];
  for (const v of VERSIONS) {
    const kinds = new Map<string, number>();
    const diff = new Map<string, number>();
    let n = 0;
    let differ = 0;
    for (const r of rows) {
      const a = r[v];
      if (a === undefined) continue;
      n++;
      kinds.set(a, (kinds.get(a) ?? 0) + 1);
      const b = r["0.1.16"];
      if (b !== undefined && a !== b) {
        differ++;
        const k = `${b} → ${a}`;
        diff.set(k, (diff.get(k) ?? 0) + 1);
      }
    }
    const how = [...diff].sort((x, y) => y[1] - x[1]).map(([k, c]) => `${k}: ${c}`).join("; ");
    const byKind = ["true", "false", "parse-error", "eval-error"].map((k) => kinds.get(k) ?? 0).join(" / ");
    lines.push(`| ${v} | ${n} | ${byKind} | ${differ} | ${how || "—"} |`);
  }
  return lines.join("\n");
}
