/**
 * What one registered job may hold, in one place (server/docs/server.md, "Limits and security").
 * Ordinary jobs are far inside every bound; a registration past one is a 400 that names the field,
 * its size and the bound. Lengths are UTF-8 bytes: Go's `len()` and PostgreSQL's index entries count
 * bytes, not characters.
 */
export const JOB_LIMITS = {
  /**
   * Namespace names: the scheduler's own rule, `^[a-zA-Z0-9-]{1,128}$` (structs.go
   * `validNamespaceName`; a namespace with another name cannot be created, so the scheduler refuses a
   * job in it).
   */
  namespaceBytes: 128,
  /**
   * `ID` and `ParentID`. The scheduler sets no bound (structs.go checks only for a space or a NUL);
   * 512 leaves room for the IDs it gives child jobs (`<parent>/dispatch-<unix>-<8 hex>`,
   * `<parent>/periodic-<unix>`, about 30 bytes more than the parent's), keeps the PostgreSQL store's
   * index entries (`namespace || '.' || id` with the namespace again: under 800 bytes) far below the
   * 2,704 bytes a btree entry may have, and a `matches` test over an ID under 4 µs.
   */
  idBytes: 512,
  /**
   * `Name`, task group names, datacenters and every string of `Multiregion`. A regular expression
   * test costs about 7 ns per byte of its text (measured: 7 µs over 1 KiB, 12 ms over 1 MiB), so a
   * test over one of these strings stays under 2 µs and a list scan's slice of 20,000 steps (after
   * which it yields) under 40 ms.
   */
  nameBytes: 256,
  /** Task groups of one job: each is a key of the job's summary and of its deployment. */
  taskGroups: 100,
  /** Datacenters of the job, and of each region of `Multiregion`. */
  datacenters: 100,
  /** Regions of `Multiregion`. */
  regions: 100,
  /** Entries of the `Meta` map of a `Multiregion` region. */
  metaEntries: 100,
  /**
   * The job's list entry as JSON (with its summary), the backstop for what the other bounds allow
   * together, `Multiregion` above all (a job at every other bound at once, 100 groups and 100
   * datacenters of the longest names, makes 62,707 bytes): one job fits in one 64 KiB chunk of a
   * shared list answer, and a page of 100 jobs in 6.4 MiB (JSON.stringify of such an entry: 0.12 ms).
   */
  entryBytes: 64 * 1024,
} as const;

/** The scheduler's rule for namespace names (structs.go `validNamespaceName`). */
export const NAMESPACE_NAME = /^[a-zA-Z0-9-]{1,128}$/;

/**
 * Integers a job may hold: JavaScript's safe integers. The scheduler's `int` and `time.Duration` are
 * 64-bit, but this server reads bodies with JSON.parse, which rounds integers beyond 2^53 (and turns
 * 1e308 into a double): such a value could not be stored as it was sent.
 */
export const MAX_INTEGER = Number.MAX_SAFE_INTEGER;
