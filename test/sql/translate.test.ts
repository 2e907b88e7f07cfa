import { describe, expect, it } from "vitest";
import { compile, parse, schemas, sqliteMatches, toSQL } from "../../src/index.js";
import { literalPrefix } from "../../src/sql/ops.js";
import { toSQLPredicates } from "../../src/sql/translate.js";
import { run } from "../cli/helpers.js";

describe("toSQL", () => {
  it("binds everything the expression holds: no key, string or number is spliced into the SQL text", () => {
    const hostile = `x'; DROP TABLE jobs; --"$1?`;
    const plain = hostile.replace(/"/g, "");
    const typed = `Name == \`${hostile}\` or Name matches \`^${hostile}\` or "${plain}" in Datacenters or JobSummary.Summary["${plain}"].Running == 1`;
    const json = `${typed} or "${plain}" in Meta["${plain}"] or "/a/b~1c" == 1`;
    for (const dialect of ["postgres", "sqlite"] as const) {
      for (const [expr, schema] of [[json, undefined], [typed, schemas.job]] as const) {
        const p = toSQLPredicates(expr, { dialect, schema, sqliteFunction: false });
        for (const sql of [p.u, p.l, p.e]) {
          expect(sql).not.toContain("DROP");
          expect(sql).not.toContain("x'");
        }
        expect(JSON.stringify(p.params)).toContain("DROP TABLE");
      }
    }
  });

  it("says which translations are exact", () => {
    const exact = (e: string, dialect: "postgres" | "sqlite" = "postgres") => toSQL(compile(e, { schema: schemas.job }), { dialect }).exact;
    expect(exact('Status == "running" and "dc1" in Datacenters')).toBe(true);
    expect(exact("Priority == 50 and Stop == false")).toBe(true);
    expect(exact('Name matches "^web-[0-9]+$"')).toBe(false); // a prefix on PostgreSQL
    expect(exact('Name matches "^web-[0-9]+$"', "sqlite")).toBe(true); // the registered RE2 function
    expect(exact("JobSummary.Summary is empty")).toBe(false); // a nil JobSummary fails
    expect(toSQL('Status == "running"', { dialect: "postgres" }).exact).toBe(false); // JSON: a missing key fails
  });

  it("keeps every row where it cannot say more (unknownValue, a bound key), searches bodies where it can", () => {
    expect(toSQL('a == "b"', { dialect: "postgres", unknownValue: "" }).where).toBe("TRUE");
    const body = toSQL("any Datacenters as d { d == dc1 }", { dialect: "postgres", schema: schemas.job });
    expect(body.exact).toBe(true);
    expect(body.where).toContain("jsonb_array_elements");
    const deep = toSQL("all JobSummary.Summary as _, g { g.Running == 3 }", { dialect: "sqlite", schema: schemas.job });
    expect(deep.where).toContain("json_each");
    expect(deep.exact).toBe(false); // a nil JobSummary fails
    // A map's key is not read in SQL: the body is unknown there.
    expect(toSQL('any JobSummary.Summary as k { k == "web" }', { dialect: "postgres", schema: schemas.job }).exact).toBe(false);
    // `as a, a` fails on a non-empty collection: only the walk and empty collections are decided.
    expect(toSQL("any Datacenters as a, a { a == 1 }", { dialect: "postgres", schema: schemas.job }).where).toContain("'[]'::jsonb");
  });

  it("stays off the stack: long runs of not fold, deeper nesting keeps every row", () => {
    const nots = toSQL(`${"not ".repeat(45_001)}Status == "dead"`, { dialect: "postgres", schema: schemas.job });
    expect(nots.exact).toBe(true);
    expect(nots.where).toMatch(/^NOT /);
    const deep = `${"(a == 1 or ".repeat(3000)}b == 2${")".repeat(3000)}`;
    const t = toSQL({ ast: parse(deep, { maxExpressions: Infinity }), schema: undefined }, { dialect: "sqlite" });
    expect(t.where.length).toBeGreaterThan(0); // translated, or TRUE when the stack runs out
  });

  it("rejects unknown dialects and unsafe function names", () => {
    expect(() => toSQL("a == 1", { dialect: "mysql" as "postgres" })).toThrow(/dialect/);
    expect(() => toSQL("a == 1", { dialect: "sqlite", sqliteFunction: "f(); --" })).toThrow(/plain SQL name/);
    expect(() => toSQL("a ==", { dialect: "sqlite" })).toThrow(/FilterSyntaxError|expected/);
  });

  it("continues PostgreSQL placeholders after the caller's", () => {
    const t = toSQL('Status == "x"', { dialect: "postgres", schema: schemas.job, paramOffset: 2 });
    expect(t.where).toContain("$3");
    expect(t.where).not.toContain("$1");
    expect(t.params).toEqual([["Status"], "x"]);
  });

  it("narrows matches on PostgreSQL by the pattern's literal prefix", () => {
    expect(literalPrefix("^web-[0-9]+$")).toBe("web-");
    expect(literalPrefix("^abc?d")).toBe("ab");
    expect(literalPrefix("^ab*")).toBe("a");
    expect(literalPrefix("^a|b")).toBe("");
    expect(literalPrefix("web")).toBe("");
  });

  it("sqliteMatches is RE2: 1 or 0, never an exception", () => {
    expect(sqliteMatches("^web-[0-9]+$", "web-12")).toBe(1);
    expect(sqliteMatches("a\\z", "ba")).toBe(1);
    expect(sqliteMatches("(?=a)", "a")).toBe(0); // lookahead is not RE2: invalid, 0
    expect(sqliteMatches("(a", "a")).toBe(0);
    expect(sqliteMatches("a", 5)).toBe(0);
  });
});

describe("filter-check --sql", () => {
  it("prints the translation after the report, as text and as JSON", async () => {
    const text = await run(["--sql", "postgres", "--schema", "job", 'Status == "running"']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("sql (postgres, column doc; exact");
    expect(text.stdout).toContain('("doc" #>> $1::text[]) = $2::text');
    expect(text.stdout).toContain('$2 = "running"');
    const json = await run(["--sql", "sqlite", "--format", "json", "--schema", "job", "Priority == 5"]);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as { sql: { dialect: string; where: string; params: unknown[]; exact: boolean } };
    expect(out.sql.dialect).toBe("sqlite");
    expect(out.sql.params).toContain("$.\"Priority\"");
    const bad = await run(["--sql", "mysql", "a == 1"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--sql must be "postgres" or "sqlite"/);
  }, 60_000);
});
