import { Agent, request as httpRequest } from "node:http";
import type { IncomingMessage } from "node:http";

/**
 * Sockets to other agents are pooled and bounded: gossip (probes, joins, announcements) keeps at most
 * GOSSIP_SOCKETS_PER_PEER sockets to one peer and GOSSIP_SOCKETS_TOTAL in all; forwarded requests
 * (which may stream for minutes: monitor, profiles) at most FORWARD_SOCKETS_PER_PEER to one peer and
 * FORWARD_SOCKETS_TOTAL in all. Requests beyond the bound wait for a free socket.
 */
export const GOSSIP_SOCKETS_PER_PEER = 2;
export const GOSSIP_SOCKETS_TOTAL = 64;
export const FORWARD_SOCKETS_PER_PEER = 32;
export const FORWARD_SOCKETS_TOTAL = 256;

const gossipAgent = new Agent({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: GOSSIP_SOCKETS_PER_PEER, maxTotalSockets: GOSSIP_SOCKETS_TOTAL, maxFreeSockets: 1, timeout: 60_000 });
const forwardAgent = new Agent({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: FORWARD_SOCKETS_PER_PEER, maxTotalSockets: FORWARD_SOCKETS_TOTAL, maxFreeSockets: 4 });

/**
 * HTTP to another reference agent with node:http (fetch refuses some ports, e.g. 6000 or 10080).
 * Resolves with the response once its headers arrive; the body is the response stream.
 */
export function peerRequest(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal; pool?: "gossip" | "forward" },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const agent = init.pool === "forward" ? forwardAgent : gossipAgent;
    const req = httpRequest(url, { method: init.method, headers: init.headers, signal: init.signal, agent }, resolve);
    req.on("error", reject);
    req.end(init.body);
  });
}

/** A whole response body as text, at most `limit` bytes (a peer cannot make us hold more). */
export async function readBody(response: IncomingMessage, limit = 8 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      response.destroy();
      throw new Error(`peer answered more than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
