/**
 * A data file's allocations, nodes and evaluations (`snapshotFromData`): each record is read against the
 * library's schema of it (the scheduler's struct, Go kind for kind). Laws over random partial records:
 * the record read holds every field of the schema with a value of its kind, it keeps every value the
 * file gave (an empty namespace is "default"), and reading it again changes nothing. The file's mistakes are errors that name where they
 * are. A data directory seeded with them gives them back.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { schemas, type RecordType, type Type } from "filter-expr";
import { describe, expect, it } from "vitest";
import { DataFileError, snapshotFromData } from "../src/lists/load.js";
import { LevelPersistence } from "../src/store/memory/persist.js";
import { withZeros } from "../src/lists/records.js";
import { runs } from "../../test/support/runs.js";

const LISTS = { allocations: schemas.allocation, nodes: schemas.node, evaluations: schemas.evaluation } as const;
type List = keyof typeof LISTS;

const isTime = (type: Type): boolean => type.kind === "record" && Object.keys(type.fields).length === 0;

/** A value of `type` as a file may write it: often absent or null, records partial, nesting bounded. */
function valueOf(type: Type, depth: number): fc.Arbitrary<unknown> {
  const absent = fc.constantFrom(undefined, null);
  const maybe = (a: fc.Arbitrary<unknown>) => fc.oneof({ weight: 1, arbitrary: absent }, { weight: 3, arbitrary: a });
  if (isTime(type)) return maybe(fc.constantFrom("2024-05-01T10:00:00Z", "2024-05-01T10:00:00.5+02:00"));
  switch (type.kind) {
    case "string":
      return maybe(fc.string({ maxLength: 6 }));
    case "int":
      return maybe(fc.integer({ min: -1e9, max: 1e9 }));
    case "uint":
      return maybe(fc.nat());
    case "float":
      return maybe(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }));
    case "bool":
      return maybe(fc.boolean());
    case "any":
      return maybe(fc.jsonValue({ maxDepth: 1 }));
    case "pointer":
      return depth > 3 ? absent : maybe(valueOf(type.target, depth));
    case "list":
      return depth > 3 ? absent : maybe(fc.array(valueOf(type.elem, depth + 1), { maxLength: 2 }));
    case "map":
      return depth > 3 ? absent : maybe(fc.dictionary(fc.constantFrom("a", "web", "__proto__"), valueOf(type.value, depth + 1), { maxKeys: 2 }));
    case "record":
      return depth > 3 ? absent : maybe(recordOf(type, depth + 1));
  }
}

/** A record with some of `type`'s fields (absent ones left out). */
function recordOf(type: RecordType, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(Object.entries(type.fields).map(([name, field]) => [name, valueOf(field, depth)]));
  return fc.record(fields, { requiredKeys: [] }).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
}

/** Whether `v` is a value of `type` as the server holds it: every field of a record there, of its kind. */
function conforms(type: Type, v: unknown): boolean {
  if (isTime(type)) return typeof v === "string" || v === null;
  switch (type.kind) {
    case "string":
      return typeof v === "string";
    case "int":
      return Number.isInteger(v);
    case "uint":
      return Number.isInteger(v) && (v as number) >= 0;
    case "float":
      return typeof v === "number";
    case "bool":
      return typeof v === "boolean";
    case "any":
      return v !== undefined;
    case "pointer":
      return v === null || conforms(type.target, v);
    case "list":
      return v === null || (Array.isArray(v) && v.every((e) => conforms(type.elem, e)));
    case "map":
      return v === null || (typeof v === "object" && !Array.isArray(v) && Object.values(v as object).every((e) => conforms(type.value, e)));
    case "record":
      return typeof v === "object" && v !== null && Object.entries(type.fields).every(([name, field]) => Object.hasOwn(v, name) && conforms(field, (v as Record<string, unknown>)[name]));
  }
}

/** The scalar leaves the file gave (not null), by path. */
function leaves(v: unknown, path: string[] = []): [string[], unknown][] {
  if (v === null || v === undefined) return [];
  if (typeof v !== "object") return [[path, v]];
  return Object.entries(v as object).flatMap(([k, e]) => leaves(e, [...path, k]));
}

const at = (v: unknown, path: readonly string[]): unknown => path.reduce<unknown>((o, k) => (o !== null && typeof o === "object" && Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined), v);

/** Records of `list` with distinct IDs, as a file of that list alone. */
const fileOf = (list: List) =>
  fc.array(recordOf(LISTS[list], 0), { minLength: 1, maxLength: 4 }).map((records) => ({ [list]: records.map((r, i) => ({ ...r, ID: `id-${i}`, CreateIndex: i + 1, ModifyIndex: i + 1 })) }));

describe("a data file's allocations, nodes and evaluations", () => {
  it.each(Object.keys(LISTS) as List[])("%s: every field of the schema, of its kind; every value given kept; read again the same", (list) => {
    fc.assert(
      fc.property(fileOf(list), (file) => {
        const read = snapshotFromData(JSON.parse(JSON.stringify(file)))[list] as unknown[];
        const given = JSON.parse(JSON.stringify(file))[list] as unknown[];
        expect(read.length).toBe(given.length);
        read.forEach((record, i) => {
          expect(conforms(LISTS[list], record), JSON.stringify(record)).toBe(true);
          for (const [path, value] of leaves(given[i])) {
            // The one value read otherwise: an empty namespace is "default", as a job's.
            const expected = path.length === 1 && path[0] === "Namespace" && value === "" ? "default" : value;
            expect(at(record, path), path.join(".")).toStrictEqual(expected);
          }
        });
        const again = snapshotFromData(JSON.parse(JSON.stringify({ [list]: read })))[list];
        expect(JSON.stringify(again)).toBe(JSON.stringify(read));
      }),
      { numRuns: runs(60) },
    );
  });

  it.each(Object.keys(LISTS) as List[])("%s made by the server (withZeros) are what a data file of the same fields reads", (list) => {
    fc.assert(
      fc.property(fileOf(list), (file) => {
        const read = snapshotFromData(JSON.parse(JSON.stringify(file)))[list] as unknown as Record<string, unknown>[];
        for (const record of read) expect(JSON.stringify(withZeros(LISTS[list], record))).toBe(JSON.stringify(record));
        const made = withZeros<Record<string, unknown>>(LISTS[list], { ID: "x", Namespace: "default" });
        expect(conforms(LISTS[list], made)).toBe(true);
        expect(JSON.stringify(snapshotFromData({ [list]: [{ ID: "x" }] })[list][0])).toBe(JSON.stringify(list === "nodes" ? withZeros(LISTS[list], { ID: "x" }) : made));
      }),
      { numRuns: runs(20) },
    );
  });

  it("takes zero values for what is absent, keeps fields the schema does not name, and an absent namespace is default", () => {
    const { allocations, nodes } = snapshotFromData({ allocations: [{ ID: "a1", Extra: { x: 1 } }], nodes: [{ ID: "n1" }] });
    expect(allocations[0]).toMatchObject({ ID: "a1", Namespace: "default", ClientStatus: "", TaskStates: null, DesiredTransition: { Migrate: null }, CreateTime: 0, Extra: { x: 1 } });
    expect(nodes[0]).toMatchObject({ ID: "n1", Drain: false, Drivers: null, LastDrain: null });
    expect(Object.hasOwn(nodes[0]!, "Namespace")).toBe(false);
  });

  it.each([
    [{ allocations: [{ ID: "a", TaskStates: { web: { Restarts: "3" } } }] }, "allocations[0].TaskStates.web.Restarts: expected an unsigned integer"],
    [{ allocations: [{ ID: "a", TaskStates: { web: { Restarts: 1.5 } } }] }, "allocations[0].TaskStates.web.Restarts: expected an unsigned integer, not 1.5"],
    [{ nodes: [{ ID: "n", Drain: "yes" }] }, "nodes[0].Drain: expected a boolean"],
    [{ evaluations: [{ ID: "e", QueuedAllocations: [1] }] }, "evaluations[0].QueuedAllocations: expected an object"],
    [{ evaluations: [{ ID: "e", WaitUntil: 5 }] }, "evaluations[0].WaitUntil: expected a time (RFC 3339 text)"],
    [{ evaluations: [{ ID: "e", WaitUntil: "yesterday" }] }, 'evaluations[0].WaitUntil: expected a time (RFC 3339 text), not "yesterday"'],
    [{ evaluations: [{ ID: "e", WaitUntil: "2023-11-14 22:13:20" }] }, "evaluations[0].WaitUntil: expected a time (RFC 3339 text)"],
    [{ evaluations: [{ ID: "e", WaitUntil: "2023-02-29T22:13:20Z" }] }, "evaluations[0].WaitUntil: expected a time (RFC 3339 text)"],
    [{ allocations: [{ ID: "a", CreateTime: 9223372036854775807 }] }, "allocations[0].CreateTime: expected an integer between -9223372036854775808 and 9223372036854775807, not 9223372036854776000"],
    [{ nodes: [{ Name: "no id" }] }, "nodes[0].ID: expected a non-empty string"],
    [{ evaluations: [{ ID: "e" }, { ID: "e" }] }, "evaluations: duplicate ID e"],
    [{ allocations: {} }, "allocations: expected an array"],
    [{ allocations: [{ ID: "a", JobID: "j".repeat(300) }] }, "allocations[0].JobID: expected a string of at most 256 bytes, not 300"],
    [{ nodes: [{ ID: "n", Name: "a\u0000b" }] }, /^nodes\[0\]\.Name: contains a null character/],
  ])("refuses %j: %s", (file, message) => {
    expect(() => snapshotFromData(file)).toThrow(DataFileError);
    expect(() => snapshotFromData(file)).toThrow(message);
  });

  it("takes RFC 3339 times as Go reads them: a fraction of up to 9 digits, Z or an offset, a leap day in a leap year", () => {
    for (const time of ["2024-02-29T23:59:59Z", "2023-11-14T22:13:20.123456789+02:00", "0001-01-01T00:00:00Z"]) {
      expect(snapshotFromData({ evaluations: [{ ID: "e", WaitUntil: time }] }).evaluations[0]!.WaitUntil).toBe(time);
    }
  });

  it("a data directory seeded with them gives them back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-server-records-"));
    try {
      const snapshot = snapshotFromData({ allocations: [{ ID: "a1", Namespace: "dev", CreateIndex: 3, ModifyIndex: 4 }], nodes: [{ ID: "n1", Status: "ready" }], evaluations: [{ ID: "e1", Status: "blocked" }] });
      const first = await LevelPersistence.open(dir);
      await first.seed(snapshot);
      await first.close();
      const second = await LevelPersistence.open(dir);
      try {
        expect(await second.load()).toEqual(snapshot);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
