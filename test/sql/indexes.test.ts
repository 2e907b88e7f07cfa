/**
 * The translation is one that PostgreSQL's indexes serve (docs/sql.md, "Indexes that help"): the
 * plans the page shows, on PGlite with a GIN `jsonb_path_ops` index and a `pg_trgm` trigram index,
 * and the soundness edge that `canonicalNumbers` names.
 */
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile, schemas, toSQL } from "../../src/index.js";

describe("indexes serve the translation (PGlite)", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = new PGlite({ extensions: { pg_trgm } });
    await db.exec(`
      CREATE EXTENSION pg_trgm;
      CREATE TABLE jobs (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL);
      CREATE INDEX jobs_doc_idx ON jobs USING gin (doc jsonb_path_ops);
      CREATE INDEX jobs_name_trgm ON jobs USING gin ((doc #>> '{Name}') gin_trgm_ops);`);
    // 20,000 jobs: enough that a selective scan of an index beats walking the key order.
    await db.exec(`
      INSERT INTO jobs SELECT lpad(i::text, 5, '0'), jsonb_build_object(
        'Name', CASE WHEN i % 100 = 7 THEN 'web-' || i ELSE (ARRAY['api', 'cache', 'db', 'web'])[i % 4 + 1] || '-frontend-' || i END,
        'Status', (ARRAY['running', 'pending', 'dead'])[i % 3 + 1],
        'Type', (ARRAY['service', 'batch', 'system'])[i % 5 % 3 + 1],
        'Priority', 50 + (i % 7) * 10,
        'Datacenters', jsonb_build_array('dc' || (i % 4)))
      FROM generate_series(0, 19999) AS i;
      ANALYZE jobs;`);
  });
  afterAll(async () => {
    await db.close();
  });

  /** The plan of the condition alone, its values bound as `filterPage` binds them. */
  async function plan(expression: string): Promise<string> {
    const t = toSQL(compile(expression, { schema: schemas.job }), { dialect: "postgres", canonicalNumbers: true });
    const rows = (await db.query<{ "QUERY PLAN": string }>(`EXPLAIN SELECT id FROM jobs WHERE ${t.where}`, t.params)).rows;
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  }

  it("answers a conjunction of equalities with one GIN containment scan, and matches with the trigram index, as docs/sql.md shows", async () => {
    const page = readFileSync(new URL("../../docs/sql.md", import.meta.url), "utf8");
    const conjunction = await plan('Status == "running" and Type == "service" and Priority == 1000');
    expect(conjunction).toContain("Bitmap Index Scan on jobs_doc_idx");
    const cond = /Index Cond: \(doc @> .*\)/.exec(conjunction)![0];
    expect(cond).toBe(`Index Cond: (doc @> '{"Type": "service", "Status": "running", "Priority": 1000}'::jsonb)`);
    expect(page).toContain(`  Bitmap Index Scan on jobs_doc_idx\n    ${cond}`);

    const regex = await plan('Name matches "^web-[0-9]+$"');
    expect(regex).toContain("Bitmap Index Scan on jobs_name_trgm");
    const regexCond = /Index Cond: \(\(doc #>> .*\)/.exec(regex)![0];
    expect(page).toContain(`  Bitmap Index Scan on jobs_name_trgm\n    ${regexCond}`);
  });

  it("gives the same rows as the filter over the whole table (containment, OR of containments, regex)", async () => {
    const all = (await db.query<{ id: string; doc: unknown }>("SELECT id, doc FROM jobs ORDER BY id")).rows;
    for (const expression of ['Status == "running" and Type == "service" and Priority == 50', 'Status == "running" or Status == "dead"', '"dc1" in Datacenters and Stop == false', 'Name matches "^web-[0-9]+$"', 'Name matches `(?i)^WEB-FRONTEND-1\\d\\b`']) {
      const filter = compile(expression, { schema: schemas.job });
      const t = toSQL(filter, { dialect: "postgres", canonicalNumbers: true });
      expect(t.exact).toBe(true);
      const got = (await db.query<{ id: string }>(`SELECT id FROM jobs WHERE ${t.where} ORDER BY id`, t.params)).rows.map((r) => r.id);
      expect(got).toEqual(all.filter((r) => filter.evaluate(r.doc)).map((r) => r.id));
      expect(got.length, expression).toBeGreaterThan(0);
    }
  });

  it("compares a text-indexed field as text (the btree index serves it in key order), typed where another value's text could match", async () => {
    const t = toSQL(compile('Status == "pending" and Priority == 100', { schema: schemas.job }), { dialect: "postgres", canonicalNumbers: true, textIndexed: [["Status"]] });
    expect(t.where).toBe('(("doc" #>> $1::text[]) = $2::text) AND (("doc" #>> $1::text[]) IS NOT NULL) AND ("doc" @> $3::jsonb)');
    await db.exec(`CREATE TABLE typed (id text PRIMARY KEY, doc jsonb NOT NULL); INSERT INTO typed VALUES ('n', '{"Status": 5}'), ('s', '{"Status": "5"}'), ('t', '{"Status": true}'), ('u', '{"Status": "true"}'), ('m', '{}')`);
    for (const [expression, expected] of [['Status == "5"', ["s"]], ['Status == "true"', ["u"]], ['Status != "5"', ["m", "n", "t", "u"]]] as const) {
      const filter = compile(expression, { schema: schemas.job });
      const where = toSQL(filter, { dialect: "postgres", textIndexed: [["Status"]] });
      const got = (await db.query<{ id: string }>(`SELECT id FROM typed WHERE ${where.where} ORDER BY id`, where.params)).rows.map((r) => r.id);
      expect(got, expression).toEqual(expected);
    }
  });

  it("compares numbers by containment only with canonicalNumbers: a number written otherwise is kept", async () => {
    await db.exec(`CREATE TABLE odd (id text PRIMARY KEY, doc jsonb NOT NULL); INSERT INTO odd VALUES ('a', '{"Priority": 50.0000000000000001}')`);
    const filter = compile("Priority == 50", { schema: schemas.job });
    expect(filter.evaluate(JSON.parse('{"Priority": 50.0000000000000001}'))).toBe(true);
    const count = async (canonicalNumbers: boolean) => {
      const t = toSQL(filter, { dialect: "postgres", canonicalNumbers });
      return (await db.query(`SELECT id FROM odd WHERE ${t.where}`, t.params)).rows.length;
    };
    expect(await count(false)).toBe(1);
    // The promise broken (the column holds a non-canonical text): containment misses the row.
    expect(await count(true)).toBe(0);
  });
});
