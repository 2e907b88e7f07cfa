/**
 * The --data file read job by job (`loadDataFile`) gives exactly what reading it whole gives
 * (`JSON.parse`, then `snapshotFromData`): the same state, the same rest of the file, or the same error.
 * Documents are written with random spacing, escaped keys, repeated keys, strings that look like
 * structure, and random damage, so that both the scan's ordinary path and its fallbacks are exercised.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadDataFile, otherServicesData, snapshotFromData } from "../src/lists/load.js";
import { runs } from "../../test/support/runs.js";

/** What a read gives: its result, or its error's class and message, as text. */
function outcome(read: () => unknown): string {
  try {
    return JSON.stringify({ ok: read() });
  } catch (e) {
    return JSON.stringify({ error: (e as Error).constructor.name, message: (e as Error).message });
  }
}

// Both read the same bytes: a file holds UTF-8, where a lone surrogate of the generated text is U+FFFD.
const whole = (text: string) => () => {
  const data: unknown = JSON.parse(Buffer.from(text, "utf8").toString("utf8"));
  return { snapshot: snapshotFromData(data), rest: otherServicesData(data) };
};

function expectSameRead(text: string): void {
  const streamed = outcome(() => loadDataFile(Buffer.from(text, "utf8")));
  const read = outcome(whole(text));
  if (streamed !== read) expect.fail(`${JSON.stringify(text).slice(0, 400)}\nread job by job: ${streamed.slice(0, 600)}\nread whole:      ${read.slice(0, 600)}`);
}

// A tiny JSON printer with choices: spacing, escaped keys, repeated members.
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const space = fc.constantFrom("", " ", "\n", "\t ", "\r\n  ");
/** A key as JSON text: plain, or with a character escaped (`"I\u0044"` is `"ID"`). */
const keyText = (key: string) => fc.constantFrom(JSON.stringify(key), JSON.stringify(key).replace(/[A-Za-z]/, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));

function printed(value: Json): fc.Arbitrary<string> {
  if (Array.isArray(value)) {
    if (value.length === 0) return fc.tuple(space).map(([s]) => `[${s}]`);
    return fc.tuple(...value.map((v) => fc.tuple(space, printed(v), space))).map((parts) => `[${parts.map(([a, v, b]) => `${a}${v}${b}`).join(",")}]`);
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return fc.tuple(space).map(([s]) => `{${s}}`);
    return fc
      .tuple(...entries.map(([k, v]) => fc.tuple(space, keyText(k), space, printed(v), space)))
      .map((parts) => `{${parts.map(([a, k, b, v, c]) => `${a}${k}${b}:${v}${c}`).join(",")}}`);
  }
  return fc.constant(JSON.stringify(value));
}

const scalar: fc.Arbitrary<Json> = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -3, max: 300 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 6 }));
const text = fc.oneof(fc.constantFrom("a", "b-1", "web", 'q"uote', "back\\slash", "{[,]}", "é", "😀", "\u2028", "default", "ns2"), fc.string({ maxLength: 8 }));
const stringOrOdd: fc.Arbitrary<Json> = fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: scalar });

const job: fc.Arbitrary<Json> = fc
  .record(
    {
      ID: stringOrOdd,
      Namespace: stringOrOdd,
      Name: stringOrOdd,
      Priority: fc.oneof(fc.integer({ min: 0, max: 100 }), scalar),
      Status: stringOrOdd,
      Datacenters: fc.oneof(fc.array(text, { maxLength: 3 }), scalar),
      JobSummary: fc.oneof(fc.record({ Summary: fc.dictionary(text, fc.record({ Running: fc.nat(5) }), { maxKeys: 2 }) }), scalar),
      __proto__: scalar,
      extra: fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })),
    },
    { requiredKeys: [] },
  )
  .map((o) => {
    // A record built with a `__proto__` key sets the prototype: make it an own member instead.
    const own: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(o)) own[k] = v as Json;
    if (Object.hasOwn(o, "__proto__")) Object.defineProperty(own, "__proto__", { value: (o as Record<string, Json>)["__proto__"], enumerable: true });
    return own;
  });

/** A job whose ID and namespace are ordinary, most of the time: files that load. */
const goodJob = fc.record({ ID: fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/), Namespace: fc.constantFrom("default", "web", "ns2"), Priority: fc.integer({ min: 0, max: 100 }), Status: text }, { requiredKeys: ["ID"] });

const document: fc.Arbitrary<string> = fc
  .record({
    jobs: fc.oneof({ weight: 8, arbitrary: fc.uniqueArray(goodJob, { selector: (j) => `${j.Namespace ?? "default"}/${j.ID}`, maxLength: 8 }) as fc.Arbitrary<Json> }, { weight: 3, arbitrary: fc.array(job, { maxLength: 5 }) }, { weight: 1, arbitrary: fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })) }),
    deployments: fc.constantFrom<Json>([], null, [{ ID: "d1", JobID: "x", JobVersion: 2 }], "nope"),
    applies: fc.constantFrom<Json>([{ id: 1 }], "x"),
    jobsAgain: fc.option(fc.oneof(fc.constant<Json>(null), fc.array(goodJob, { maxLength: 2 }) as fc.Arbitrary<Json>), { nil: undefined }),
    order: fc.constantFrom("jobs-first", "jobs-last", "jobs-middle"),
  })
  .chain(({ jobs, deployments, applies, jobsAgain, order }) => {
    const members: [string, Json][] = [["deployments", deployments], ["applies", applies]];
    members.splice(order === "jobs-first" ? 0 : order === "jobs-last" ? 2 : 1, 0, ["jobs", jobs]);
    // A repeated "jobs": the last one is the file's.
    if (jobsAgain !== undefined) members.push(["jobs", jobsAgain]);
    return fc.tuple(space, fc.tuple(...members.map(([k, v]) => fc.tuple(space, keyText(k), space, printed(v), space))), space).map(
      ([a, parts, b]) => `${a}{${parts.map(([s, k, t, v, u]) => `${s}${k}${t}:${v}${u}`).join(",")}}${b}`,
    );
  });

/** Damage: a character removed, doubled or replaced, anywhere. */
const damaged = fc.tuple(document, fc.nat(), fc.constantFrom("remove", "double", "quote", "comma", "brace", "control")).map(([doc, at, how]) => {
  const i = at % doc.length;
  const put = { remove: "", double: doc[i]! + doc[i]!, quote: '"', comma: ",", brace: "}", control: "\u0001" }[how];
  return doc.slice(0, i) + put + doc.slice(i + 1);
});

describe("a data file read job by job", () => {
  it("gives what reading it whole gives: the state, the rest of the file, or the error", () => {
    fc.assert(fc.property(document, expectSameRead), { numRuns: runs(1500) });
  });

  it("gives the same syntax error, at the same position, for a damaged file", () => {
    fc.assert(fc.property(damaged, expectSameRead), { numRuns: runs(1500) });
  });

  it.each([
    ["a top-level array", "[]"],
    ["a byte-order mark", '\ufeff{"jobs":[]}'],
    ["jobs that are not a list", '{"jobs":{"ID":"a"}}'],
    ["a job that is not an object", '{"jobs":[{"ID":"a"},7]}'],
    ["a trailing comma", '{"jobs":[{"ID":"a"},]}'],
    ["text after the object", '{"jobs":[]} x'],
    ["an unterminated string", '{"jobs":[{"ID":"a}]}'],
    ["a later jobs member that is null", '{"jobs":[{"ID":"a"}],"jobs":null}'],
    ["an ID given twice (the last counts)", '{"jobs":[{"ID":"b","ID":"a","Namespace":"x","Namespace":"default"}]}'],
    ["escaped keys and values", '{"j\\u006fbs":[{"\\u0049D":"a\\"b","Namespace":"n\\u00e9"}]}'],
    ["no jobs at all", '{"deployments":[]}'],
    ["structure inside strings", '{"jobs":[{"ID":"a]},{","Name":"\\\\"}]}'],
    // Found by the first property (a fresh clone's CI): a number literal of a member given twice belongs
    // to the value the read keeps, the last, not to the same path in the value it drops.
    ["a jobs member given twice, the first with an exponent literal", '{"jobs":[{"ID":"a","Priority":1e2}],"jobs":[{"ID":"b","Priority":5}]}'],
    ["a jobs member given twice, the first with an exponent literal, the last with a bad job", '{"jobs":[{"ID":"a","Priority":1e2}],"jobs":[{"ID":"b","Priority":5},{"Priority":3}]}'],
  ])("handles %s as the whole read does", (_name, text) => {
    expectSameRead(text);
  });

  it("orders and keeps jobs as the whole read does over many jobs", () => {
    const jobs = Array.from({ length: 2000 }, (_, i) => ({ ID: `job-${(i * 7919) % 2000}`, Namespace: ["default", "web", "b"][i % 3], Priority: i % 100, JobSummary: { Summary: { web: { Running: i % 4 } } } }));
    expectSameRead(JSON.stringify({ jobs, deployments: [], applies: [] }));
  });
});
