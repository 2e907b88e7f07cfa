import type { FastifyReply, FastifyRequest } from "fastify";

/** Plain-text answer as the scheduler writes errors: no trailing newline, text/plain; charset=utf-8. */
export function sendText(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type("text/plain; charset=utf-8").send(message);
}

/** The request's query string, with repeated parameters kept (`address=a&address=b`). */
export function queryOf(request: FastifyRequest): URLSearchParams {
  const at = request.url.indexOf("?");
  return new URLSearchParams(at < 0 ? "" : request.url.slice(at + 1));
}

/** `pretty` is on when present with an empty value or any value other than `0`. */
export function wantsPretty(query: URLSearchParams): boolean {
  const value = query.get("pretty");
  return value !== null && value !== "0";
}

/**
 * JSON answer, `application/json` without charset. Compact output has no trailing newline; pretty
 * output is indented by four spaces and ends with one newline.
 */
export function sendJson(reply: FastifyReply, request: FastifyRequest, status: number, value: unknown): FastifyReply {
  const pretty = wantsPretty(queryOf(request));
  const body = pretty ? `${JSON.stringify(value, null, 4)}\n` : JSON.stringify(value);
  return reply.code(status).type("application/json").send(body);
}

/** 200 with an empty body and no Content-Type (a handler that returned nothing). */
export function sendEmpty(reply: FastifyReply): FastifyReply {
  return reply.code(200).send();
}

export class ParseBoolError extends Error {}

/** Go's strconv.ParseBool, including its error text. */
export function parseGoBool(raw: string): boolean {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(raw)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(raw)) return false;
  throw new ParseBoolError(`strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
}

/** Go's strconv.Atoi for a decimal int (sign allowed), or undefined when it is not one. */
export function parseGoInt(raw: string): number | undefined {
  if (!/^[+-]?\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** A host:port address with a literal IPv4 address (or bracketed IPv6) and a port 1..65535. */
export function parseIpPort(raw: string): { host: string; port: number } | undefined {
  const m = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]):(\d{1,5})$/.exec(raw.trim());
  if (m === null) return undefined;
  const host = m[1] ?? "";
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  if (!host.startsWith("[") && host.split(".").some((octet) => Number(octet) > 255)) return undefined;
  return { host: host.startsWith("[") ? host.slice(1, -1) : host, port };
}
