import type { FastifyRequest } from "fastify";
import type { Signature } from "./signing.js";

const HOST_PATTERN = /^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/;

/**
 * `scheme://host` of the request, so the URLs the server hands out point back at itself; empty (the
 * URLs stay absolute paths) when the Host header is missing or not a plain host name.
 */
export function origin(request: FastifyRequest): string {
  const host = request.host;
  if (typeof host !== "string" || !HOST_PATTERN.test(host)) return "";
  return `${request.protocol}://${host}`;
}

export function withSignature(path: string, sig: Signature): string {
  const query = new URLSearchParams({ expires: String(sig.expires), nonce: sig.nonce, signature: sig.signature });
  return `${path}?${query.toString()}`;
}
