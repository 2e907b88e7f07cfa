/** A request the scheduler refuses with `400` and a plain-text message (a parameter, a prefix, a filter, a job). */
export class BadRequest extends Error {
  readonly statusCode = 400;
}
