import { describe, expect, it } from "vitest";
import { compile, parse, parseJson, schemas, sqliteMatches, stringifyJson, toSQL } from "../../src/index.js";
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
    expect(exact('Name matches "^web-[0-9]+$"')).toBe(true); // written as a PostgreSQL regular expression
    expect(exact('Name matches "(?m)^web$"')).toBe(false); // multi-line anchors are not: a prefix
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

  it("searches inside a search only members reached through the enclosing member, never the document's own collections again (a cross product)", () => {
    const searches = (e: string, schema = schemas.job) => (toSQL(e, { dialect: "postgres", schema }).where.match(/jsonb_array_elements|jsonb_each/g) ?? []).length;
    // The shape of the attack: each level searches the root's list again and reads the outer member,
    // so an engine would search 8^depth members a row.
    const cross = (depth: number) => {
      let body = `v${depth - 1} == "zz"`;
      for (let k = depth - 1; k >= 1; k--) body = `any Datacenters as v${k} { v${k - 1} == "zz" or ${body} }`;
      return `any Datacenters as v0 { ${body} }`;
    };
    const one = searches(cross(1));
    expect(one).toBeGreaterThan(0);
    for (const depth of [2, 5, 12]) expect(searches(cross(depth))).toBe(one);
    // Through the member: a deployment's task groups, then each group's canaries (the document's size).
    const through = 'any TaskGroups as _, g { any g.PlacedCanaries as c { c == "a" } }';
    expect(searches(through, schemas.deployment)).toBeGreaterThan(searches('any TaskGroups as _, g { g.Promoted == true }', schemas.deployment));
  });

  it("stays off the stack: long runs of not fold, deeper nesting keeps every row", () => {
    const nots = toSQL(`${"not ".repeat(45_001)}Status == "dead"`, { dialect: "postgres", schema: schemas.job });
    expect(nots.exact).toBe(true);
    expect(nots.where).toMatch(/^NOT /);
    const deep = `${"(a == 1 or ".repeat(3000)}b == 2${")".repeat(3000)}`;
    const t = toSQL({ ast: parse(deep, { maxExpressions: Infinity }), schema: undefined }, { dialect: "sqlite" });
    expect(t.where.length).toBeGreaterThan(0); // translated, or TRUE when the stack runs out
  });

  it("translates a chain of equalities on one selector as one membership test, however long", () => {
    const json = Array.from({ length: 7000 }, (_, i) => `x == ${i}`).join(" or ");
    const typed = Array.from({ length: 7000 }, (_, i) => `Name == "j${i}"`).join(" or ");
    const ast = (e: string) => parse(e, { maxExpressions: Infinity });
    for (const dialect of ["postgres", "sqlite"] as const) {
      const t = toSQL({ ast: ast(typed), schema: schemas.job }, { dialect });
      expect(t.exact).toBe(true);
      expect(t.where).not.toBe("TRUE");
      // The 7,000 names are one bound list.
      expect(t.params.length).toBeLessThan(10);
      expect(t.params.some((p) => JSON.stringify(p).includes("j6999"))).toBe(true);
      const j = toSQL({ ast: ast(json), schema: undefined }, { dialect });
      expect(j.where).not.toBe("TRUE");
      expect(j.params.length).toBeLessThan(40);
      // `!=` in an and-chain too.
      const not = toSQL({ ast: ast(typed.replace(/==/g, "!=").replace(/ or /g, " and ")), schema: schemas.job }, { dialect });
      expect(not.exact).toBe(true);
      expect(not.where).toMatch(/^NOT /);
    }
  });

  it("stays within the engines' bound values and nesting: past the bounds a chain keeps every row (or, an and-chain, a prefix)", () => {
    const ast = (e: string) => parse(e, { maxExpressions: Infinity });
    const mixed = Array.from({ length: 7000 }, (_, i) => (i % 2 ? `x == ${i}` : `y == ${i}`)).join(" or ");
    const and = Array.from({ length: 7000 }, (_, i) => (i % 2 ? `x != ${i}` : `y != ${i}`)).join(" and ");
    for (const dialect of ["postgres", "sqlite"] as const) {
      // An or-chain needs every operand: past the bound it is TRUE.
      expect(toSQL({ ast: ast(mixed), schema: undefined }, { dialect }).where).toBe("TRUE");
      // An and-chain keeps what fits.
      const a = toSQL({ ast: ast(and), schema: undefined }, { dialect });
      expect(a.where).not.toBe("TRUE");
      expect(a.exact).toBe(false);
      expect(a.params.length).toBeLessThan(dialect === "sqlite" ? 32_766 : 65_535);
      expect(a.params.some((p) => JSON.stringify(p).includes("y"))).toBe(true);
      expect(a.params.some((p) => JSON.stringify(p).includes("6998"))).toBe(false);
    }
  });

  it("rejects unknown dialects and unsafe function names", () => {
    expect(() => toSQL("a == 1", { dialect: "mysql" as "postgres" })).toThrow(/dialect/);
    expect(() => toSQL("a == 1", { dialect: "sqlite", sqliteFunction: "f(); --" })).toThrow(/plain SQL name/);
    expect(() => toSQL("a ==", { dialect: "sqlite" })).toThrow(/FilterSyntaxError|expected/);
  });

  it("continues PostgreSQL placeholders after the caller's", () => {
    const t = toSQL('Status == "x" and Name matches "^w"', { dialect: "postgres", schema: schemas.job, paramOffset: 2 });
    expect(t.where).toContain("$3");
    expect(t.where).toContain("$5");
    expect(t.where).not.toContain("$1");
    expect(t.params).toEqual(['{"Status":"x"}', ["Name"], "\\Aw"]);
  });

  it("narrows matches on PostgreSQL by the pattern's literal prefix", () => {
    expect(literalPrefix("^web-[0-9]+$")).toBe("web-");
    expect(literalPrefix("^abc?d")).toBe("ab");
    expect(literalPrefix("^ab*")).toBe("a");
    expect(literalPrefix("^a|b")).toBe("");
    expect(literalPrefix("web")).toBe("");
  });

  it("falls back where SQLite's JSON path cannot name a key the same way in every version", () => {
    for (const key of ["a\\x00b", "a\\\\b", "a\\nb", "\\ufffd"]) {
      const p = toSQLPredicates(`m["${key}"] == 1`, { dialect: "sqlite" });
      expect(p.u).toBe("TRUE");
    }
    for (const key of ["a.b", "a]", "é", "\\ufeffk"]) expect(toSQLPredicates(`m["${key}"] == 1`, { dialect: "sqlite" }).u).not.toBe("TRUE");
    // PostgreSQL's text cannot hold U+0000; a path with it is not written.
    expect(toSQLPredicates('m["a\\x00b"] == 1', { dialect: "postgres" }).u).toBe("TRUE");
    expect(toSQLPredicates('m["a\\\\b"] == 1', { dialect: "postgres" }).u).not.toBe("TRUE");
  });

  it("sqliteMatches is RE2: 1 or 0, never an exception", () => {
    expect(sqliteMatches("^web-[0-9]+$", "web-12")).toBe(1);
    // Blobs are read as UTF-8 bytes, a leading U+FEFF kept; an escaped lone surrogate as SQLite
    // writes it (its three bytes) reads as one U+FFFD, as parseJson reads it.
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(sqliteMatches(bytes("^a"), bytes("\ufeffa"))).toBe(0);
    expect(sqliteMatches(bytes("^\ufeffa$"), bytes("\ufeffa"))).toBe(1);
    expect(sqliteMatches(bytes("^\ufffdz$"), Uint8Array.of(0xed, 0xa0, 0x80, 0x7a))).toBe(1);
    expect(sqliteMatches(bytes("^.z$"), Uint8Array.of(0xed, 0xb0, 0x80, 0x7a))).toBe(1);
    expect(sqliteMatches(bytes("a\x00b"), bytes("xa\u0000b"))).toBe(1);
    expect(sqliteMatches("a\\z", "ba")).toBe(1);
    expect(sqliteMatches("(?=a)", "a")).toBe(0); // lookahead is not RE2: invalid, 0
    expect(sqliteMatches("(a", "a")).toBe(0);
    expect(sqliteMatches("a", 5)).toBe(0);
  });
});

describe("stringifyJson", () => {
  it("writes what parseJson reads: integers beyond 2^53 exact, everything else as JSON.stringify", () => {
    const doc = { ModifyIndex: 18446744073709551615n, Priority: -9223372036854775808n, Name: "\u00000:1", Nested: [2n ** 60n, { a: 2 ** 52 }], S: "x" };
    const text = stringifyJson(doc);
    expect(text).toContain('"ModifyIndex":18446744073709551615');
    expect(parseJson(text)).toEqual(doc);
    expect(stringifyJson({ a: [1, "b", null, true] })).toBe(JSON.stringify({ a: [1, "b", null, true] }));
    // What JSON.parse and JSON.stringify do instead.
    expect(JSON.stringify(JSON.parse('{"ModifyIndex":18446744073709551615}'))).toBe('{"ModifyIndex":18446744073709552000}');
  });
});

describe("filter-check --sql", () => {
  it("prints the translation after the report, as text and as JSON", async () => {
    const text = await run(["--sql", "postgres", "--schema", "job", 'Status == "running"']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("sql (postgres, column doc; exact");
    expect(text.stdout).toContain('"doc" @> $1::jsonb');
    expect(text.stdout).toContain('$1 = "{\\"Status\\":\\"running\\"}"');
    const json = await run(["--sql", "sqlite", "--format", "json", "--schema", "job", "Priority == 5"]);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as { sql: { dialect: string; where: string; params: unknown[]; exact: boolean } };
    expect(out.sql.dialect).toBe("sqlite");
    expect(out.sql.params).toContain("$.\"Priority\"");
    const bad = await run(["--sql", "mysql", "a == 1"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--sql must be "postgres" or "sqlite"/);
  });
});
