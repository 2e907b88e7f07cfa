/**
 * Version 2: the change log, the changes of the latest committed writes (`idx` the write's index, `pos`
 * the change's place in it), from which every server feeds its event stream with the writes of all
 * servers. `body` is the record's JSON text exactly as the list answers it (the job list entry with
 * its summary, or the deployment), `previous` the text of the version it replaced (NULL: created),
 * `version` the job's definition version (NULL for a deployment). Each registration adds its rows and
 * deletes those of the writes that fell out of the bound, in its own transaction: the primary key
 * makes that a range delete at the index's low end.
 */
export const name = "change log";

export const sql = `
CREATE TABLE change_log (
  idx bigint NOT NULL,
  pos integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('job', 'deployment')),
  version integer,
  body text NOT NULL,
  previous text,
  PRIMARY KEY (idx, pos)
);
`;
