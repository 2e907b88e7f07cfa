/**
 * A registration's integers are read as Go's decoder reads them (issue 39): `1.0` and `1e2` are numbers
 * with a fraction or an exponent, which `encoding/json` refuses for an int field, though `JSON.parse`
 * makes integers of them. `PUT /v1/jobs` answers 400 `Job validation failed`, naming the field and the
 * literal as written, as it does for `1.5`; the same digits elsewhere (a string, a field the job does
 * not read, a key that only looks like a path) change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStore, type StoreServer } from "./support/postgres.js";

let server: StoreServer;
beforeAll(async () => {
  server = await serveStore("memory", undefined, { jobs: [], deployments: [] });
});
afterAll(async () => server?.close());

/** PUT /v1/jobs with `body` sent as it is written. */
async function register(body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.base}/v1/jobs`, { method: "PUT", body });
  return { status: res.status, text: await res.text() };
}

const refused = (...errors: string[]) => `Job validation failed: ${errors.length} error${errors.length === 1 ? "" : "s"} occurred:\n${errors.map((e) => `\t* ${e}\n`).join("")}\n`;

describe("PUT /v1/jobs: an integer written with a fraction or an exponent is refused, as Go's decoder refuses it", () => {
  it.each([
    ["Count 1.0", '{"Job":{"ID":"a","TaskGroups":[{"Name":"g","Count":1.0}]}}', ["TaskGroups[0].Count must be an integer, not 1.0"]],
    ["Count 1e2", '{"Job":{"ID":"a","TaskGroups":[{"Name":"g","Count":1e2}]}}', ["TaskGroups[0].Count must be an integer, not 1e2"]],
    ["the second group's Count 2E0", '{"Job":{"ID":"a","TaskGroups":[{"Name":"g","Count":1},{"Name":"h","Count":2E0}]}}', ["TaskGroups[1].Count must be an integer, not 2E0"]],
    ["Priority 5.0e1", '{"Job":{"ID":"a","Priority":5.0e1,"TaskGroups":[{"Name":"g"}]}}', ["Priority must be an integer, not 5.0e1"]],
    ["Priority -0.0", '{"Job":{"ID":"a","Priority":-0.0,"TaskGroups":[{"Name":"g"}]}}', ["Priority must be an integer, not -0.0"]],
    ["the job's Update.Stagger 3.0e10", '{"Job":{"ID":"a","Update":{"Stagger":3.0e10},"TaskGroups":[{"Name":"g"}]}}', ["Update.Stagger must be an integer, not 3.0e10"]],
    ["a group's Update.Canary 1.0", '{"Job":{"ID":"a","TaskGroups":[{"Name":"g","Update":{"Canary":1.0}}]}}', ["TaskGroups[0].Update.Canary must be an integer, not 1.0"]],
    ["a region's Count 1.0", '{"Job":{"ID":"a","Multiregion":{"Regions":[{"Name":"r","Count":1.0}]},"TaskGroups":[{"Name":"g"}]}}', ["Multiregion.Regions[0].Count must be an integer, not 1.0"]],
    ["behind an escaped key", '{"Job":{"ID":"a","TaskGroups":[{"Name":"g","\\u0043ount":3.00}]}}', ["TaskGroups[0].Count must be an integer, not 3.00"]],
    ["a repeated key whose first value is 1.0", '{"Job":{"ID":"a","TaskGroups":[{"Name":"g","Count":1.0,"Count":2}]}}', ["TaskGroups[0].Count must be an integer, not 1.0"]],
    ["two at once", '{"Job":{"ID":"a","Priority":50.0,"TaskGroups":[{"Name":"g","Count":1e0}]}}', ["Priority must be an integer, not 50.0", "TaskGroups[0].Count must be an integer, not 1e0"]],
  ])("%s", async (_name, body, errors) => {
    expect(await register(body)).toEqual({ status: 400, text: refused(...errors) });
  });

  it("a fraction that is not an integer, or out of range, keeps its answer", async () => {
    expect(await register('{"Job":{"ID":"a","TaskGroups":[{"Name":"g","Count":1.5}]}}')).toEqual({ status: 400, text: refused("TaskGroups[0].Count must be an integer, not 1.5") });
    expect(await register('{"Job":{"ID":"a","TaskGroups":[{"Name":"g","Count":1e308}]}}')).toEqual({
      status: 400,
      text: refused("TaskGroups[0].Count is out of range: 1e+308 is not an integer between -9007199254740991 and 9007199254740991"),
    });
  });

  it("the same digits where no integer is read are registered", async () => {
    const bodies = [
      // A string, a field the job does not read, and a key of the job that only looks like the path of an integer.
      '{"Job":{"ID":"s1","Name":"v1.0","Meta":{"x":"1e2"},"TaskGroups":[{"Name":"g","Count":2}]}}',
      '{"Job":{"ID":"s2","Unknown":1.0,"TaskGroups":[{"Name":"g","Count":2,"Weight":0.5}]}}',
      '{"Job":{"ID":"s3","Update.Stagger":1.0,"Update":{"Stagger":5},"TaskGroups[0].Count":1.0,"TaskGroups":[{"Name":"g","Count":3}]}}',
      '{"Other":{"Count":1.0},"Job":{"ID":"s4","TaskGroups":[{"Name":"g","Count":4}]}}',
    ];
    for (const body of bodies) expect({ body, ...(await register(body)) }).toMatchObject({ body, status: 200 });
    const listed = (await (await fetch(`${server.base}/v1/jobs`)).json()) as { ID: string; JobSummary: { Summary: { g: { Queued: number } } } }[];
    expect(listed.filter((j) => j.ID.startsWith("s")).map((j) => [j.ID, j.JobSummary.Summary.g.Queued])).toEqual([
      ["s1", 2],
      ["s2", 2],
      ["s3", 3],
      ["s4", 4],
    ]);
  });
});
