/** A request the scheduler refuses with `400` and a plain-text message (a parameter, a prefix, a filter, a job). */
export class BadRequest extends Error {
  readonly statusCode = 400;
}

/**
 * The request's client closed its connection while its page was being read: the read stopped (on
 * PostgreSQL its statement was cancelled). 499 (nginx's "client closed request"): nobody is left to read it.
 */
export class ClientGone extends Error {
  readonly statusCode = 499;
  constructor() {
    super("client closed the connection");
  }
}
