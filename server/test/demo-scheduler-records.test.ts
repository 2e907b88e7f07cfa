import { describe, expect, it } from "vitest";
import { compile, schemas, type Type } from "filter-expr";
import { generateDemo } from "../src/demo/generate.js";
import { demoAllocations, demoEvaluations, demoNodes } from "../src/demo/scheduler-records.js";

/** The paths where a value's record keys differ from its schema's fields (every level). */
function mismatches(value: unknown, type: Type, at: string, out: string[] = []): string[] {
  if (value === null || value === undefined) return out;
  if (type.kind === "pointer") return mismatches(value, type.target, at, out);
  if (type.kind === "list") (value as unknown[]).forEach((v, i) => mismatches(v, type.elem, `${at}.${i}`, out));
  else if (type.kind === "map") for (const [k, v] of Object.entries(value as object)) mismatches(v, type.value, `${at}.${k}`, out);
  else if (type.kind === "record" && typeof value === "object") {
    const keys = Object.keys(value as object).sort().join(",");
    if (keys !== Object.keys(type.fields).sort().join(",")) out.push(at);
    for (const [k, v] of Object.entries(value as object)) if (type.fields[k]) mismatches(v, type.fields[k]!, `${at}.${k}`, out);
  }
  return out;
}

describe("demo allocations, nodes and evaluations", () => {
  const snapshot = generateDemo();
  const nodes = demoNodes();
  const allocations = demoAllocations(snapshot, nodes);
  const evaluations = demoEvaluations(snapshot);

  it("are a handful each, the same on every run", () => {
    for (const list of [nodes, allocations, evaluations]) expect(list.length).toBeGreaterThanOrEqual(5);
    expect(demoAllocations(generateDemo(), demoNodes())).toEqual(allocations);
    expect(demoEvaluations(generateDemo())).toEqual(evaluations);
  });

  it("have every field of their schemas, and no other, at every level", () => {
    for (const n of nodes) expect(mismatches(n, schemas.node, n.Name)).toEqual([]);
    for (const a of allocations) expect(mismatches(a, schemas.allocation, a.Name)).toEqual([]);
    for (const e of evaluations) expect(mismatches(e, schemas.evaluation, e.ID)).toEqual([]);
  });

  it("belong to the demo jobs and nodes", () => {
    const jobs = new Set(snapshot.jobs.map((j) => `${j.entry.Namespace}/${j.entry.ID}`));
    const nodeIds = new Set(nodes.map((n) => n.ID));
    for (const a of allocations) expect(jobs.has(`${a.Namespace}/${a.JobID}`) && nodeIds.has(a.NodeID), a.Name).toBe(true);
    for (const e of evaluations) expect(e.Type === "_core" || jobs.has(`${e.Namespace}/${e.JobID}`), e.ID).toBe(true);
    expect(new Set(allocations.map((a) => a.EvalID)).size).toBeLessThanOrEqual(evaluations.length);
  });

  it("answer the filters users write most", () => {
    const count = <T,>(text: string, schema: typeof schemas.node, items: readonly T[]) => compile<T>(text, { schema }).filter(items).length;
    expect(count('ClientStatus == "running"', schemas.allocation, allocations)).toBeGreaterThan(0);
    expect(count('ClientStatus == "failed" and RescheduleTracker is not nil', schemas.allocation, allocations)).toBeGreaterThan(0);
    expect(count('any TaskStates as _, s { s.Failed == true }', schemas.allocation, allocations)).toBeGreaterThan(0);
    expect(count('Status == "ready" and SchedulingEligibility == "eligible"', schemas.node, nodes)).toBeGreaterThan(0);
    expect(count('Drain == true and LastDrain.Status == "draining"', schemas.node, nodes)).toBe(1);
    expect(count('Attributes["kernel.name"] == linux', schemas.node, nodes)).toBe(nodes.length);
    expect(count('Status == "blocked" and FailedTGAllocs is not empty', schemas.evaluation, evaluations)).toBe(1);
    expect(count('Type == "_core"', schemas.evaluation, evaluations)).toBe(1);
  });

  it("a request without a namespace (the default one) finds running, failed and complete allocations and a blocked evaluation; others are elsewhere", () => {
    const inDefault = allocations.filter((a) => a.Namespace === "default");
    for (const status of ["running", "failed", "complete"]) expect(inDefault.some((a) => a.ClientStatus === status), status).toBe(true);
    expect(evaluations.some((e) => e.Namespace === "default" && e.Status === "blocked")).toBe(true);
    expect(new Set(allocations.map((a) => a.Namespace)).size).toBeGreaterThan(2);
  });
});
