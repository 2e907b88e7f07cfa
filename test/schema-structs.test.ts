/**
 * The allocation, node and evaluation schemas against the Go structs the oracle harness types their
 * corpus with (scripts/oracles/harness/main.go, the declarations of the scheduler's nomad/structs):
 * the same records, the same exported fields in the same order, the same Go kinds. Read from the
 * harness's text, so no Go is needed here.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { schemas, type Type } from "../src/index.js";

const HARNESS = readFileSync(fileURLToPath(new URL("../scripts/oracles/harness/main.go", import.meta.url)), "utf8");

/** Named non-struct types of the harness, by what they stand for. */
const NAMED: Record<string, string> = {
  Networks: "[]*NetworkResource",
  AllocatedPorts: "[]AllocatedPortMapping",
  SLIT: "[][]Cost",
  Cost: "uint8",
  CoreGrade: "bool",
  TaskScheduleState: "string",
  RescheduleTrackerAnnotation: "string",
  NodeNetworkAF: "string",
  DrainStatus: "string",
  "time.Duration": "int64",
};

/** A Go type as the schema's kinds spell it (`*[]R:Port`, `mapuint`, …). */
function goKind(t: string): string {
  if (NAMED[t]) return goKind(NAMED[t]!);
  if (t.startsWith("*")) return `*${goKind(t.slice(1))}`;
  if (t.startsWith("[]")) return `[]${goKind(t.slice(2))}`;
  if (t.startsWith("map[string]")) return `map${goKind(t.slice(11))}`;
  if (t === "time.Time") return "R:Time";
  if (/^int(8|16|32|64)?$/.test(t)) return "int";
  if (/^uint(8|16|32|64)?$/.test(t)) return "uint";
  if (/^float(32|64)$/.test(t)) return "float";
  if (t === "string" || t === "bool") return t;
  return `R:${t}`;
}

/** The exported fields of a struct of the harness, with their kinds, in order. */
function goFields(name: string): [string, string][] {
  const m = new RegExp(`^type ${name} struct \\{([\\s\\S]*?)^\\}`, "m").exec(HARNESS) ?? new RegExp(`^type ${name} struct\\{(.*?)\\}$`, "m").exec(HARNESS);
  if (!m) throw new Error(`the harness has no struct ${name}`);
  const out: [string, string][] = [];
  for (const line of m[1]!.split(/\n|;/)) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 2) continue;
    const type = parts[parts.length - 1]!;
    for (const n of parts.slice(0, -1).map((p) => p.replace(/,$/, ""))) if (/^[A-Z]/.test(n)) out.push([n, goKind(type)]);
  }
  return out;
}

const show = (t: Type): string =>
  t.kind === "pointer" ? `*${show(t.target)}` : t.kind === "list" ? `[]${show(t.elem)}` : t.kind === "map" ? `map${show(t.value)}` : t.kind === "record" ? `R:${t.name}` : t.kind;

describe("the allocation, node and evaluation schemas are the harness's Go structs", () => {
  it("record for record, field for field, Go kind for Go kind", () => {
    const records = new Map<string, [string, string][]>();
    const visit = (t: Type): void => {
      if (t.kind === "record") {
        if (records.has(t.name)) return;
        records.set(t.name, Object.entries(t.fields).map(([k, v]) => [k, show(v)]));
        for (const f of Object.values(t.fields)) visit(f);
      } else if (t.kind === "pointer") visit(t.target);
      else if (t.kind === "list") visit(t.elem);
      else if (t.kind === "map") visit(t.value);
    };
    for (const schema of [schemas.allocation, schemas.node, schemas.evaluation]) visit(schema);
    expect(records.size).toBe(53);
    expect(records.get("Time")).toEqual([]); // time.Time: no exported field
    records.delete("Time");
    for (const [name, fields] of records) expect(fields, name).toEqual(goFields(name));
  });

  it("the harness decodes each kind into its top-level struct", () => {
    for (const [kind, struct] of [["allocation", "AllocListStub"], ["node", "NodeListStub"], ["evaluation", "Evaluation"]]) {
      expect(HARNESS).toMatch(new RegExp(`case "${kind}":\\n\\t\\tvar \\w+ ${struct}\\n`));
    }
  });
});
