/**
 * Version 3: the indexes the filters' translation is written for (docs/sql.md, "Indexes that help").
 * Equalities and list memberships are jsonb containment, merged per conjunction, which one GIN
 * `jsonb_path_ops` index per table serves; `matches` on a job's name or ID is a PostgreSQL regular
 * expression, which a `pg_trgm` trigram index serves where the extension can be created (it ships
 * with PostgreSQL; a server without the right to create it runs without the trigram indexes, its
 * regular expressions then read the rows the key order gives). The per-field btree indexes of version
 * 1 stay: they serve the endpoints' text-indexed fields (`textIndexed` in `lists/endpoints.ts`), whose
 * equalities read the index in list order.
 * The planner estimates a containment test by applying it to the column's statistics sample: at the
 * default target (100 documents) a 1 % filter reads as 0.01 % or 1 % from one `ANALYZE` to the next,
 * and the plan flips between walking the key order (8 ms on a million jobs) and a bitmap scan sorted
 * afterwards (30–66 ms); with 1,000 the estimate stays within a few tenths of a percent.
 */
export const name = "indexes for containment and regular expressions";

export const sql = `
CREATE INDEX deployments_doc ON deployments USING gin (doc jsonb_path_ops);
ALTER TABLE jobs ALTER COLUMN doc SET STATISTICS 1000;
ALTER TABLE deployments ALTER COLUMN doc SET STATISTICS 1000;
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available (%): matches is served without trigram indexes', SQLERRM;
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX jobs_name_trgm ON jobs USING gin ((doc #>> '{Name}'::text[]) gin_trgm_ops);
    CREATE INDEX jobs_id_trgm ON jobs USING gin ((doc #>> '{ID}'::text[]) gin_trgm_ops);
    CREATE INDEX deployments_job_trgm ON deployments USING gin ((doc #>> '{JobID}'::text[]) gin_trgm_ops);
  END IF;
END $$;
ANALYZE jobs;
ANALYZE deployments;
`;
