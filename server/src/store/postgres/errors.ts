/**
 * The errors the PostgreSQL store answers with, and how it reads the driver's: a statement that ran
 * out of time, a client that went away, a pool with no connection to give, and which failures of a
 * write mean the database does not accept writes (the store's health).
 */

import { ClientGone } from "../../lists/errors.js";

/** No connection of the pool could be had in time (the wait queue full, or the wait too long): `503` with `Retry-After`. */
export class StoreBusy extends Error {
  readonly statusCode = 503;
  /** Sent with the answer (the app's error handler sets them). */
  readonly headers = { "retry-after": "1" };
  /** The message is for the client (no internal detail in it). */
  readonly expose = true;
}

function sqlState(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** A statement ended by `statement_timeout` (or by a cancel from elsewhere): SQLSTATE 57014. */
export function isCanceled(e: unknown): boolean {
  return sqlState(e) === "57014";
}

/** Client-facing names of the SQLSTATE classes a failed write is reported with (no paths, addresses or names). */
const CLASSES: Record<string, string> = {
  "08": "connection failure",
  "25": "the database refuses writes (read-only)",
  "28": "login refused",
  "3D": "database not found",
  "42": "schema or permission error",
  "53": "insufficient resources (disk full, out of memory or too many connections)",
  "54": "program limit exceeded",
  "55": "object not in prerequisite state",
  "57": "the database is shutting down or unavailable",
  "58": "system error (I/O)",
  XX: "internal error",
};

/**
 * Why a registration's failure means the database does not accept writes, in words fit for an
 * anonymous client (the SQLSTATE, never PostgreSQL's own text, which names files and relations); or
 * undefined when it does not (no connection could be had in time, a request the scheduler refused).
 */
export function writeFailure(e: unknown): string | undefined {
  if (e instanceof StoreBusy || e instanceof ClientGone) return undefined;
  const status = (e as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) return undefined;
  const state = sqlState(e);
  if (state === undefined) return "database writes failing: connection failure";
  return `database writes failing: ${CLASSES[state.slice(0, 2)] ?? "database error"} (SQLSTATE ${state})`;
}
