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
});
