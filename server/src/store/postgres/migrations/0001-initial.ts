/**
 * Version 1: the index, jobs (the list entry with its summary, as jsonb for filters and as the exact
 * JSON text the list answers with), namespaces, deployments, and the indexes of the list endpoints.
 * Keys are `COLLATE "C"` (bytewise, the order the list endpoints page in).
 */
export const name = "initial schema";

export const sql = `
CREATE TABLE svc_index (
  name text PRIMARY KEY,
  idx bigint NOT NULL
);
INSERT INTO svc_index (name, idx) VALUES ('raft', 1), ('jobs', 1), ('deployments', 1), ('seeded', 0);

CREATE TABLE jobs (
  namespace text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  -- the page token "Namespace.ID"
  token text COLLATE "C" GENERATED ALWAYS AS (namespace || '.' || id) STORED,
  version integer NOT NULL,
  doc jsonb NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (namespace, id)
);
CREATE INDEX jobs_token ON jobs (token);
CREATE INDEX jobs_namespace_token ON jobs (namespace, token);
-- common filters (Status == "…", Type == "…", Name == "…"), in page order
CREATE INDEX jobs_status_token ON jobs ((doc #>> '{Status}'::text[]), token);
CREATE INDEX jobs_type_token ON jobs ((doc #>> '{Type}'::text[]), token);
CREATE INDEX jobs_name_token ON jobs ((doc #>> '{Name}'::text[]), token);
CREATE INDEX jobs_namespace_doc_token ON jobs ((doc #>> '{Namespace}'::text[]), token);
-- Name matches "^literal…" (a bytewise LIKE prefix)
CREATE INDEX jobs_name_bytes ON jobs (((doc #>> '{Name}'::text[]) COLLATE "C"));
-- "dc1" in Datacenters and other containment tests
CREATE INDEX jobs_doc ON jobs USING gin (doc jsonb_path_ops);

-- documents of the other services given by the seed's data file ("applies"), shared by every server
CREATE TABLE documents (
  name text PRIMARY KEY,
  body text NOT NULL
);

CREATE TABLE namespaces (
  name text COLLATE "C" PRIMARY KEY
);

CREATE TABLE deployments (
  id text COLLATE "C" PRIMARY KEY,
  namespace text COLLATE "C" NOT NULL,
  job_id text COLLATE "C" NOT NULL,
  create_index bigint NOT NULL,
  status text NOT NULL,
  -- (CreateIndex, ID) order as one bytewise key
  ord text COLLATE "C" GENERATED ALWAYS AS (lpad(create_index::text, 20, '0') || '.' || id) STORED,
  doc jsonb NOT NULL,
  body text NOT NULL
);
CREATE UNIQUE INDEX deployments_ord ON deployments (ord);
CREATE INDEX deployments_lower_id ON deployments ((lower(id)) text_pattern_ops);
CREATE INDEX deployments_active ON deployments (namespace, job_id) WHERE status NOT IN ('successful', 'cancelled', 'failed');
CREATE INDEX deployments_status_ord ON deployments ((doc #>> '{Status}'::text[]), ord);
CREATE INDEX deployments_job_ord ON deployments ((doc #>> '{JobID}'::text[]), ord);
`;
