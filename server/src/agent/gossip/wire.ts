import { peerRequest, readBody } from "../peer.js";
import { NONCE_HEADER } from "./auth.js";
import type { GossipAuth } from "./auth.js";
import { readMember } from "./member.js";
import type { Member } from "./member.js";

/** Path of the reference server's internal gossip route (below the agent prefix). */
export const GOSSIP_PATH = "/v1/agent/gossip";

export interface PeerView {
  member: NonNullable<ReturnType<typeof readMember>>;
  /** Members the peer knows about and believes alive: candidates for us to probe. */
  alive: { Name: string; Addr: string; Port: number }[];
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "AbortError" || error.name === "TimeoutError") return "i/o timeout";
    return error.message;
  }
  return String(error);
}

/** A signed request to a peer's gossip route; the answer must be signed with the same key. */
async function call(auth: GossipAuth, url: string, init: { method: string; body?: string; timeoutMs: number }): Promise<unknown> {
  let status: number;
  let text: string;
  const body = init.body ?? "";
  const signed = auth.signRequest(init.method, GOSSIP_PATH, body);
  const headers: Record<string, string> = { ...signed };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  let responseHeaders;
  try {
    const response = await peerRequest(url, { method: init.method, headers, body: init.body, signal: AbortSignal.timeout(init.timeoutMs), pool: "gossip" });
    status = response.statusCode ?? 0;
    responseHeaders = response.headers;
    text = await readBody(response, 4 * 1024 * 1024);
  } catch (e) {
    throw new Error(reason(e));
  }
  if (status !== 200) throw new Error(`peer answered ${status}: ${text.slice(0, 200) || "no body"}`);
  const unsigned = auth.verifyResponse(signed[NONCE_HEADER] ?? "", status, responseHeaders, text);
  if (unsigned !== undefined) throw new Error(unsigned);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error("peer answered something that is not gossip");
  }
}

/** Most alive members read from one peer's answer (the rest are learnt later, from other answers). */
const MAX_CANDIDATES = 1024;

function readView(raw: unknown): PeerView {
  const body = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const member = readMember(body["member"]);
  if (member === undefined) throw new Error("peer answered something that is not gossip");
  const alive: PeerView["alive"] = [];
  if (Array.isArray(body["members"])) {
    for (const entry of body["members"].slice(0, MAX_CANDIDATES)) {
      const m = readMember(entry);
      if (m !== undefined && (entry as { Status?: unknown }).Status === "alive") alive.push({ Name: m.Name, Addr: m.Addr, Port: m.Port });
    }
  }
  return { member, alive };
}

function urlOf(address: string): string {
  return `http://${address}${GOSSIP_PATH}`;
}

/** Announces `self` to the agent at `address` (ip:port) and returns what it says about itself. */
export async function exchange(auth: GossipAuth, address: string, self: Member, timeoutMs: number): Promise<PeerView> {
  const raw = await call(auth, urlOf(address), { method: "POST", body: JSON.stringify({ member: self }), timeoutMs });
  return readView(raw);
}

/** Asks the server agent at `address` who it is, without announcing anything (a client's ping). */
export async function identify(auth: GossipAuth, address: string, timeoutMs: number): Promise<PeerView["member"]> {
  const raw = await call(auth, urlOf(address), { method: "GET", timeoutMs });
  return readView(raw).member;
}
