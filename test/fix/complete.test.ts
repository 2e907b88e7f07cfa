import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, completionsAt, diagnose, schemas, t, typeName, type Completions, type Schema, type Type } from "../../src/index.js";
import { runs } from "../support/runs.js";

const job = { schema: schemas.job };

/** The completions at the end of `text`. */
function at(text: string, options: { schema?: Schema } = job): Completions {
  return completionsAt(text, text.length, options);
}

function labels(text: string, options: { schema?: Schema } = job): string[] {
  return at(text, options).items.map((i) => i.label);
}

describe("completionsAt", () => {
  it("offers the root's fields with their types, then not, any, all, at an expression's start", () => {
    const r = at("");
    expect(r).toMatchObject({ from: 0, to: 0 });
    expect(r.items.slice(0, 2)).toEqual([
      { label: "ID", kind: "field", detail: "string", insert: "ID" },
      { label: "ParentID", kind: "field", detail: "string", insert: "ParentID" },
    ]);
    expect(r.items.find((i) => i.label === "Datacenters")).toMatchObject({ detail: "list of string" });
    expect(r.items.slice(-3).map((i) => [i.label, i.kind])).toEqual([["not", "keyword"], ["any", "keyword"], ["all", "keyword"]]);
    for (const before of ['Name == "a" and ', "(", "not ", 'Stop == true or (']) expect(labels(before)).toContain("Status");
  });

  it("replaces the word being typed", () => {
    expect(at("Sta")).toMatchObject({ from: 0, to: 3 });
    expect(at('Name == "a" and Sta')).toMatchObject({ from: 16, to: 19 });
    expect(at("JobSummary.Ch")).toMatchObject({ from: 11, to: 13 });
    // In the middle of a text: what precedes the position counts.
    const text = 'JobSummary.Ch == "x"';
    expect(completionsAt(text, 13, job)).toMatchObject({ from: 11, to: 13 });
  });

  it("offers the fields of a record after a dot, through pointers and map values", () => {
    expect(labels("JobSummary.")).toEqual(["JobID", "Namespace", "Children", "Summary", "CreateIndex", "ModifyIndex"]);
    expect(at("JobSummary.").items.find((i) => i.label === "Summary")).toMatchObject({ detail: "map of record TaskGroupSummary" });
    expect(labels("JobSummary.Children.")).toEqual(["Pending", "Running", "Dead"]);
    expect(labels('JobSummary.Summary.web.')).toContain("Running");
    expect(labels('JobSummary.Summary["web"].')).toContain("Running");
    expect(labels("TaskGroups.x.", { schema: schemas.deployment })).toContain("HealthyAllocs");
    expect(labels("Status.")).toEqual([]);
    expect(labels("Nope.")).toEqual([]);
  });

  it("offers the names any/all bind, typed, and the fields of a bound record", () => {
    const inside = at("any JobSummary.Summary as k, v { ");
    expect(inside.items.slice(0, 2)).toEqual([
      { label: "k", kind: "variable", detail: "string", insert: "k" },
      { label: "v", kind: "variable", detail: "record TaskGroupSummary", insert: "v" },
    ]);
    expect(labels("any JobSummary.Summary as k, v { v.")).toEqual(["Queued", "Complete", "Failed", "Running", "Starting", "Lost"]);
    expect(labels("any Datacenters as d { d ")).toContain("contains");
    expect(labels("any TaskGroups as _, s { any s.PlacedCanaries as c { ", { schema: schemas.deployment }).slice(0, 2)).toEqual(["c", "s"]);
    // Out of scope after the closing brace.
    expect(labels("any Datacenters as d { d == \"x\" } and ")).not.toContain("d");
  });

  it("offers operators after a selector, the rest of is and not, junctions after a match", () => {
    expect(labels("Name ")).toEqual(["==", "!=", "contains", "not contains", "matches", "not matches", "in", "not in", "is empty", "is not empty", "is nil", "is not nil"]);
    expect(at("Name ").items[0]).toEqual({ label: "==", kind: "operator", insert: "==" });
    expect(labels("Name is ")).toEqual(["empty", "not empty", "nil", "not nil"]);
    expect(labels("Name is not ")).toEqual(["empty", "nil"]);
    expect(labels("Name not ")).toEqual(["contains", "matches", "in"]);
    expect(labels('Name == "x" ')).toEqual(["and", "or"]);
    expect(labels("Name is empty ")).toEqual(["and", "or"]);
    expect(labels('"dc1" ')).toEqual(["in", "not in"]);
    expect(labels('"dc1" in ')).toContain("Datacenters");
    expect(labels("any Datacenters ")).toEqual(["as"]);
    expect(labels('Name == ')).toEqual([]);
  });

  it("without a schema offers no fields, only words and bound names", () => {
    expect(labels("", {})).toEqual(["not", "any", "all"]);
    expect(at("any a as x { ", {}).items[0]).toEqual({ label: "x", kind: "variable", detail: "any JSON value", insert: "x" });
  });

  it("writes a field whose name is not a plain name as a key step that replaces the dot", () => {
    const schema = t.record("R", { A: t.record("S", { "a b": t.string, c: t.int }) });
    const r = at("A.", { schema });
    expect(r.items).toEqual([
      { label: "a b", kind: "field", detail: "string", insert: '["a b"]', from: 1 },
      { label: "c", kind: "field", detail: "signed integer", insert: "c" },
    ]);
  });

  it("offers the values the schema lists for the field compared, quoted, also inside an open quote", () => {
    const status = schemas.job.fields["Status"];
    const listed = status?.kind === "string" ? (status.values ?? []) : [];
    expect(listed.length).toBeGreaterThan(0);
    expect(at("Status == ").items).toEqual(listed.map((v) => ({ label: JSON.stringify(v), kind: "value", detail: "string", insert: JSON.stringify(v) })));
    expect(labels('Type != "')).toEqual(['"service"', '"batch"', '"system"', '"sysbatch"']);
    expect(at('Status == "ru')).toMatchObject({ from: 10, to: 13 });
    expect(labels('Status not contains ')).toContain('"running"');
    expect(labels('Name == "a" and Status == ')).toContain('"dead"');
    expect(labels("Status == ", { schema: schemas.deployment })).toContain('"successful"');
    // A field without listed values, plain JSON, and a closed literal: no values.
    expect(labels("Name == ")).toEqual([]);
    expect(labels("Status == ", {})).toEqual([]);
    expect(labels('Status == "running" ')).not.toContain('"dead"');
  });

  it("law: a value it offers, inserted, leaves no unknown-value warning and compiles", () => {
    const fields = Object.entries(schemas.job.fields).filter(([, type]) => type.kind === "string" && type.values !== undefined).map(([name]) => name);
    expect(fields.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.constantFrom("==", "!="), fc.constantFrom("", '"', '"x'), (field, op, typed) => {
        const text = `${field} ${op} ${typed}`;
        const r = at(text);
        expect(r.items.length).toBeGreaterThan(0);
        for (const item of r.items) {
          const done = text.slice(0, r.from) + item.insert;
          expect(diagnose(done, job).filter((d) => d.code === "unknown-value")).toEqual([]);
          expect(() => compile(done, job)).not.toThrow();
        }
      }),
      { numRuns: runs(50) },
    );
  });

  it("offers nothing where it cannot follow the text", () => {
    expect(labels("Name == == ")).toEqual([]);
    expect(labels("&& ")).toEqual([]);
  });

  it("law: in a selector path of the schema, the step being typed is offered, with the step's type", () => {
    fc.assert(
      fc.property(pathArb(schemas.job), fc.constantFrom("", 'Stop == true and ', "not (", "any JobSummary.Summary as k, v { v.Running == 1 or "), fc.nat(), (path, before, cut) => {
        const last = path[path.length - 1]!;
        const text = before + path.map((p) => p.name).join(".");
        const keep = cut % (last.name.length + 1);
        const offset = text.length - last.name.length + keep;
        const r = completionsAt(text, offset, job);
        expect(r.from).toBe(text.length - last.name.length);
        const item = r.items.find((i) => i.label === last.name);
        expect(item).toMatchObject({ kind: "field", detail: typeName(last.type) });
      }),
      { numRuns: runs(200) },
    );
  });

  it("law: on any text and at any position it answers, with from <= to and inserts that are never empty", () => {
    const word = fc.constantFrom("Name", "JobSummary", ".", "Summary", "any", "all", "as", "not", "is", "empty", "==", '"x"', "1", "{", "}", "(", ")", "and", "or", " ", "k", ",", "_", "[", "]", "ü", "\u{1F600}");
    fc.assert(
      fc.property(fc.array(word, { maxLength: 20 }), fc.nat(), (parts, n) => {
        const text = parts.join("");
        const offset = n % (text.length + 1);
        const r = completionsAt(text, offset, job);
        expect(0 <= r.from && r.from <= r.to && r.to === offset).toBe(true);
        for (const i of r.items) expect(i.insert.length).toBeGreaterThan(0);
      }),
      { numRuns: runs(300) },
    );
  });
});

/** A path of field names through the schema's records (pointers and map values stepped through by a key). */
function pathArb(schema: Schema): fc.Arbitrary<{ name: string; type: Type }[]> {
  const steps = (record: Schema, depth: number): fc.Arbitrary<{ name: string; type: Type }[]> =>
    fc.constantFrom(...Object.entries(record.fields)).chain(([name, type]) => {
      let inner = type;
      while (inner.kind === "pointer") inner = inner.target;
      const head = [{ name, type }];
      if (depth > 0 && inner.kind === "record") return fc.oneof(fc.constant(head), steps(inner, depth - 1).map((rest) => [...head, ...rest]));
      if (depth > 0 && inner.kind === "map") {
        let value = inner.value;
        while (value.kind === "pointer") value = value.target;
        if (value.kind === "record") {
          const record = value;
          return fc.oneof(fc.constant(head), steps(record, depth - 1).map((rest) => [...head, { name: "web", type: inner.value }, ...rest]));
        }
      }
      return fc.constant(head);
    });
  return steps(schema, 3);
}
