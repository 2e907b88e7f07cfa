import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, run } from "./helpers.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "filter-check-schema-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const schemaFile = (name: string, json: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof json === "string" ? json : JSON.stringify(json));
  return path;
};

const NODE = {
  record: "Node",
  fields: {
    ID: "string",
    Drain: "bool",
    Priority: "int64",
    Index: "uint",
    Load: "float",
    Datacenters: ["string"],
    Meta: { map: "string" },
    Resources: { pointer: { record: "Resources", fields: { CPU: "int", Devices: { list: { fields: { Name: "string" } } } } } },
    Attributes: "any",
  },
};

describe("filter-check --schema allocation|node|evaluation", () => {
  it("checks against the scheduler's allocation, node and evaluation records", async () => {
    const alloc = await run(["--schema", "allocation", 'ClientStatus == "running"', "ClientStatuss == running"]);
    expect(alloc.code).toBe(1);
    expect(alloc.stdout).toContain("expression 1: valid");
    expect(alloc.stdout).toContain('"ClientStatuss" is not a field of AllocListStub; did you mean "ClientStatus"?');
    const node = await run(["--schema", "node", "--count", "--data", "-", 'Status == "ready"'], { input: '[{"Status": "ready"}, {"Status": "down"}, {}]' });
    expect(node).toMatchObject({ code: 0, stdout: "1\n" });
    const evaluation = await run(["--schema", "evaluation", "WaitUntil is nil"]);
    expect(evaluation.code).toBe(0);
  });
});

describe("filter-check --schema FILE", () => {
  it("checks against a record of your own: fields, types, did-you-mean, nested records", async () => {
    const path = schemaFile("node.json", NODE);
    const r = await run(["--format", "json", "--schema", path], {
      input: [
        'ID == "n1" and Drain == false and "dc1" in Datacenters and Meta.rack == r1',
        "Resources.CPU > 1",
        "Resources.CPU == lots",
        "Resurces.CPU == 1",
        "Resources.Memory == 1",
        "Index == -1",
        "Attributes.os.name == linux",
        'any Resources.Devices as d { d.Name == "gpu" }',
      ].join("\n"),
    });
    const reports = jsonLines(r.stdout) as { valid: boolean; errors: { code: string; message: string }[] }[];
    expect(r.code).toBe(1);
    expect(reports.map((x) => x.valid)).toEqual([true, false, false, false, false, false, true, true]);
    expect(reports[1]!.errors[0]!.code).toBe("unexpected-input");
    expect(reports[2]!.errors[0]).toMatchObject({ code: "invalid-literal", message: expect.stringContaining('"lots" is not a valid signed integer for Resources.CPU') });
    expect(reports[3]!.errors[0]).toMatchObject({ code: "unknown-field", message: expect.stringContaining('"Resurces" is not a field of Node; did you mean "Resources"?') });
    expect(reports[4]!.errors[0]).toMatchObject({ code: "unknown-field", message: expect.stringContaining("is not a field of Resources") });
    expect(reports[5]!.errors[0]).toMatchObject({ code: "invalid-literal", message: expect.stringContaining("unsigned integer") });
  });

  it("lists the fields of the nested record in the hint", async () => {
    const path = schemaFile("node2.json", NODE);
    const r = await run(["--schema", path, "Resources.Memory == 1"]);
    expect(r.stdout).toContain("hint: field names are exact and case-sensitive; the fields of Resources are CPU, Devices");
  });

  it("reads a string's known values from {\"enum\": [...]}: a text not listed is the unknown-value warning, with its fix", async () => {
    const path = schemaFile("enum.json", { record: "Node", fields: { Status: { enum: ["ready", "down"] }, Roles: ["string"], Links: [{ fields: { State: { enum: ["up"] } } }] } });
    const r = await run(["--format", "json", "--schema", path], {
      input: ['Status == "ready"', "Status == Ready", '"web" in Roles', 'any Links as l { l.State != "UP" }', 'Status == "gone"'].join("\n"),
    });
    expect(r.code).toBe(0);
    const reports = jsonLines(r.stdout) as { valid: boolean; warnings: { code: string; message: string; fixes: { edits: { insert: string }[] }[] }[] }[];
    expect(reports.map((x) => x.valid)).toEqual([true, true, true, true, true]);
    expect(reports.map((x) => x.warnings.map((w) => w.code))).toEqual([[], ["unknown-value"], [], ["unknown-value"], ["unknown-value"]]);
    expect(reports[1]!.warnings[0]!.fixes[0]!.edits[0]!.insert).toBe("ready");
    expect(reports[3]!.warnings[0]!.fixes[0]!.edits[0]!.insert).toBe('"up"');
    expect(reports[4]!.warnings[0]!.message).toContain('"gone" is not one of the values Status takes ("ready", "down")');
    expect(reports[4]!.warnings[0]!.fixes).toEqual([]);
  });

  it("rejects an invalid schema file with exit 2 and says where and what is expected", async () => {
    const cases: [unknown, RegExp][] = [
      ["{not json", /not valid JSON/],
      [["string"], /the top level: a schema file is a record: \{"record": "Name", "fields": \{"Field": "string", \.\.\.\}\}, not an array/],
      [{ fields: { A: "integer" } }, /fields\.A: unknown type "integer"; expected "string", "int", "uint", "float", "bool", "any"/],
      [{ fields: { A: ["string", "int"] } }, /fields\.A: a list type is an array of exactly one element type/],
      [{ fields: { A: { map: "string", pointer: "int" } } }, /fields\.A: an object type has one key "list", "map", "pointer" or "enum".*found the keys "map", "pointer"/],
      [{ fields: { A: { pointer: { fields: { "B c": 3 } } } } }, /fields\.A\.pointer\.fields\["B c"\]: expected a type .* not 3/],
      [{ record: "X", fields: {}, extra: 1 }, /the top level: unexpected key "extra" in a record/],
      [{ record: "", fields: {} }, /record: the record's name must be a non-empty string/],
      [{ fields: { A: { enum: [] } } }, /fields\.A\.enum: "enum" lists the values of a string field: a non-empty array of strings/],
      [{ fields: { A: { enum: "up" } } }, /fields\.A\.enum: "enum" lists the values .* not "up"/],
      [{ fields: { A: { enum: ["up", 1] } } }, /fields\.A\.enum\[1\]: a value of an "enum" is a string, not 1/],
      [{ fields: { A: { enum: ["up", "up"] } } }, /fields\.A\.enum\[1\]: the value "up" is listed twice/],
    ];
    const results = await Promise.all(cases.map(([json], i) => run(["--schema", schemaFile(`bad${i}.json`, json), "A == 1"])));
    results.forEach((r, i) => {
      expect(r.code, JSON.stringify(cases[i]![0])).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(cases[i]![1]);
    });
  });
});
