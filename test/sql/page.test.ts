import { describe, expect, it } from "vitest";
import { compile, filterPage, schemas } from "../../src/index.js";
import { openSqlite } from "./engines.js";

describe("filterPage", () => {
  it("reads the items from another column when asked (the condition still reads the JSON column)", async () => {
    const engine = await openSqlite();
    await engine.query("CREATE TABLE jobs (id text PRIMARY KEY, doc text NOT NULL, body text NOT NULL)", []);
    for (const [id, status] of [["a", "running"], ["b", "dead"], ["c", "running"]]) {
      const doc = JSON.stringify({ ID: id, Status: status });
      await engine.query("INSERT INTO jobs VALUES (?, ?, ?)", [id, doc, JSON.stringify({ ID: id, Status: status, Extra: `as written ${id}` })]);
    }
    const filter = compile('Status == "running"', { schema: schemas.job });
    const page = await filterPage({ query: engine.query, filter, dialect: "sqlite", table: "jobs", read: "body", perPage: 1 });
    expect(page.items).toEqual([{ ID: "a", Status: "running", Extra: "as written a" }]);
    expect(page.nextToken).toBe("c");
    expect(page.exact).toBe(true);
    expect(page.queries).toBe(1);
    await engine.close();
  });

  it("decodes each row's text with decode when given (parseJson by default: integers beyond 2^53 exactly)", async () => {
    const engine = await openSqlite();
    await engine.query("CREATE TABLE jobs (id text PRIMARY KEY, doc text NOT NULL)", []);
    await engine.query("INSERT INTO jobs VALUES (?, ?)", ["a", '{"ID":"a","ModifyIndex":18446744073709551615}']);
    const filter = compile('ID == "a"', { schema: schemas.job });
    const exact = await filterPage({ query: engine.query, filter, dialect: "sqlite", table: "jobs", perPage: 0 });
    expect(exact.items).toEqual([{ ID: "a", ModifyIndex: 18446744073709551615n }]);
    const decoded: string[] = [];
    const parsed = await filterPage({ query: engine.query, filter, dialect: "sqlite", table: "jobs", perPage: 0, decode: (text) => (decoded.push(text), JSON.parse(text)) });
    expect(parsed.items).toEqual([{ ID: "a", ModifyIndex: 18446744073709552000 }]);
    expect(decoded).toEqual(['{"ID":"a","ModifyIndex":18446744073709551615}']);
    await engine.close();
  });

  it("asks pause before each row it re-checks, waits for the promise it returns, and stops where it rejects", async () => {
    const engine = await openSqlite();
    await engine.query("CREATE TABLE jobs (id text PRIMARY KEY, doc text NOT NULL)", []);
    for (const id of ["a", "b", "c", "d"]) await engine.query("INSERT INTO jobs VALUES (?, ?)", [id, JSON.stringify({ ID: id, Name: `web-${id}` })]);
    // A regular expression is re-checked row by row.
    const filter = compile('Name matches "^web-[a-c]$"', { schema: schemas.job });
    const seen: string[] = [];
    let calls = 0;
    const tracked = { ...filter, evaluate: (job: { ID: string }) => (seen.push(job.ID), filter.evaluate(job)) };
    const page = await filterPage({ query: engine.query, filter: tracked, dialect: "sqlite", table: "jobs", perPage: 0, pause: () => (++calls % 2 === 0 ? new Promise<void>((resolve) => setImmediate(resolve)) : undefined) });
    expect(page.items.map((j) => (j as { ID: string }).ID)).toEqual(["a", "b", "c"]);
    expect(calls).toBe(seen.length);
    seen.length = 0;
    const stopped = filterPage({ query: engine.query, filter: tracked, dialect: "sqlite", table: "jobs", perPage: 0, pause: () => (seen.length === 2 ? Promise.reject(new Error("gone")) : undefined) });
    await expect(stopped).rejects.toThrow("gone");
    expect(seen).toEqual(["a", "b"]);
    await engine.close();
  });
});
