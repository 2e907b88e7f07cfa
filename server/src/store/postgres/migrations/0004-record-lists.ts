/**
 * Version 4: the lists whose records the server holds as given (a data file's, the demo's):
 * allocations and evaluations by create index and ID in namespaces, nodes by ID, each with its index
 * in `svc_index`. As deployments: the list's key as one bytewise column (`ord`, or the UUID `id` for
 * nodes and for `prefix`), the document as jsonb for filters (a GIN `jsonb_path_ops` index) and as the
 * exact JSON text the list answers with, and a btree on each text-indexed field of the endpoint
 * (`textIndexed` in `lists/endpoints.ts`) followed by the list's key. The change log takes their kinds.
 */
export const name = "allocations, evaluations and nodes";

export const sql = `
INSERT INTO svc_index (name, idx) VALUES ('allocations', 1), ('evaluations', 1), ('nodes', 1);

CREATE TABLE allocations (
  id text COLLATE "C" PRIMARY KEY,
  namespace text COLLATE "C" NOT NULL,
  create_index bigint NOT NULL,
  ord text COLLATE "C" GENERATED ALWAYS AS (lpad(create_index::text, 20, '0') || '.' || id) STORED,
  doc jsonb NOT NULL,
  body text NOT NULL
);
CREATE UNIQUE INDEX allocations_ord ON allocations (ord);
CREATE INDEX allocations_client_status_ord ON allocations ((doc #>> '{ClientStatus}'::text[]), ord);
CREATE INDEX allocations_job_ord ON allocations ((doc #>> '{JobID}'::text[]), ord);
CREATE INDEX allocations_node_ord ON allocations ((doc #>> '{NodeID}'::text[]), ord);
CREATE INDEX allocations_doc ON allocations USING gin (doc jsonb_path_ops);

CREATE TABLE evaluations (
  id text COLLATE "C" PRIMARY KEY,
  namespace text COLLATE "C" NOT NULL,
  create_index bigint NOT NULL,
  ord text COLLATE "C" GENERATED ALWAYS AS (lpad(create_index::text, 20, '0') || '.' || id) STORED,
  doc jsonb NOT NULL,
  body text NOT NULL
);
CREATE UNIQUE INDEX evaluations_ord ON evaluations (ord);
CREATE INDEX evaluations_status_ord ON evaluations ((doc #>> '{Status}'::text[]), ord);
CREATE INDEX evaluations_job_ord ON evaluations ((doc #>> '{JobID}'::text[]), ord);
CREATE INDEX evaluations_doc ON evaluations USING gin (doc jsonb_path_ops);

CREATE TABLE nodes (
  id text COLLATE "C" PRIMARY KEY,
  doc jsonb NOT NULL,
  body text NOT NULL
);
CREATE INDEX nodes_status_id ON nodes ((doc #>> '{Status}'::text[]), id);
CREATE INDEX nodes_name_id ON nodes ((doc #>> '{Name}'::text[]), id);
CREATE INDEX nodes_doc ON nodes USING gin (doc jsonb_path_ops);

-- a registration's evaluation is logged with the write (the other kinds only a seed writes)
ALTER TABLE change_log DROP CONSTRAINT change_log_kind_check;
ALTER TABLE change_log ADD CONSTRAINT change_log_kind_check CHECK (kind IN ('job', 'deployment', 'allocation', 'node', 'evaluation'));

ALTER TABLE allocations ALTER COLUMN doc SET STATISTICS 1000;
ALTER TABLE evaluations ALTER COLUMN doc SET STATISTICS 1000;
ALTER TABLE nodes ALTER COLUMN doc SET STATISTICS 1000;
`;
