import type { FastifyInstance } from "fastify";
import type { Signature } from "./signing.js";

/**
 * `http://host:port` of this server as it listens (its bound address and actual port), so the URLs it
 * hands out point back at itself. The request's Host header is never used: a client cannot make the
 * server hand out URLs to another host. With a wildcard bind (0.0.0.0, ::) there is no one address to
 * advertise, and the URLs stay absolute paths, which a client resolves against the URL it asked.
 */
export function origin(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === "string") return "";
  if (address.address === "0.0.0.0" || address.address === "::") return "";
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

export function withSignature(path: string, sig: Signature): string {
  const query = new URLSearchParams({ expires: String(sig.expires), nonce: sig.nonce, signature: sig.signature });
  return `${path}?${query.toString()}`;
}
