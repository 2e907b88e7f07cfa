import { request as httpRequest } from "node:http";
import type { IncomingMessage } from "node:http";

/**
 * HTTP to another reference agent with node:http (fetch refuses some ports, e.g. 6000 or 10080).
 * Resolves with the response once its headers arrive; the body is the response stream.
 */
export function peerRequest(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method, headers: init.headers, signal: init.signal }, resolve);
    req.on("error", reject);
    req.end(init.body);
  });
}

/** A whole response body as text. */
export async function readBody(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
