import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { AclToken } from "../../context.js";

/**
 * Authentication of server-to-server traffic (gossip, and requests one agent forwards to another)
 * with a shared gossip key, as the scheduler's `encrypt` key protects its gossip.
 *
 * A signed request carries three headers: a timestamp, a random nonce and an HMAC-SHA256 over
 * `v1 \n METHOD \n URL \n timestamp \n nonce \n sha256(body) \n caller`. A request whose timestamp is
 * more than SIGNATURE_WINDOW_MS away from this server's clock is stale; a nonce seen within the window
 * is a replay. Both are refused. An answer to a signed request is signed too, bound to the request's
 * nonce, so a peer proves it holds the key before anything it says is believed.
 *
 * A forwarded request carries the caller's rights as the forwarding server resolved them from the
 * caller's token (never the token itself), in the signed caller header.
 */

export const TIMESTAMP_HEADER = "x-svc-gossip-timestamp";
export const NONCE_HEADER = "x-svc-gossip-nonce";
export const SIGNATURE_HEADER = "x-svc-gossip-signature";
export const CALLER_HEADER = "x-svc-gossip-caller";

/** How far a signed message's timestamp may be from this server's clock, either way. */
export const SIGNATURE_WINDOW_MS = 30_000;
/** Most nonces remembered at once (only those of valid signatures are kept, for the window). */
const MAX_REMEMBERED_NONCES = 100_000;

const NONCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const TIMESTAMP_PATTERN = /^[0-9]{1,15}$/;

/** A gossip key given as text: base64 of 16, 24 or 32 bytes (what `keyring generate` prints). */
export class GossipKeyError extends Error {}

export function parseGossipKey(text: string): Buffer {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) throw new GossipKeyError("the gossip key must be base64 (of 16, 24 or 32 bytes)");
  const key = Buffer.from(trimmed, "base64");
  if (![16, 24, 32].includes(key.length)) throw new GossipKeyError(`the gossip key must be 16, 24 or 32 bytes, got ${key.length}`);
  return key;
}

/** The rights of the original caller of a forwarded request, as the forwarding server resolved them. */
export interface CallerRights {
  /** no token, or an unknown one */
  anonymous: boolean;
  management: boolean;
  capabilities: string[];
  name?: string;
}

export function rightsOf(token: AclToken | undefined): CallerRights {
  if (token === undefined) return { anonymous: true, management: false, capabilities: [] };
  const rights: CallerRights = { anonymous: false, management: token.Management === true, capabilities: [...token.Capabilities] };
  if (token.Name !== undefined) rights.name = token.Name;
  return rights;
}

/** A token standing for forwarded rights, with a secret nobody can present. */
export function tokenOfRights(rights: CallerRights): AclToken | undefined {
  if (rights.anonymous) return undefined;
  return {
    SecretID: "",
    Name: `forwarded${rights.name === undefined ? "" : `: ${rights.name}`}`,
    Management: rights.management,
    Capabilities: [...rights.capabilities],
  };
}

function readRights(encoded: string): CallerRights | undefined {
  try {
    const raw = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof raw !== "object" || raw === null) return undefined;
    const caps = raw["capabilities"];
    if (!Array.isArray(caps) || !caps.every((c): c is string => typeof c === "string")) return undefined;
    const rights: CallerRights = { anonymous: raw["anonymous"] === true, management: raw["management"] === true, capabilities: caps };
    if (typeof raw["name"] === "string") rights.name = raw["name"];
    return rights;
  } catch {
    return undefined;
  }
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? undefined : value;
}

/** A verified request: the rights it carries, its nonce, and when its sender signed it (its timestamp, ms). */
export type Signed = { readonly caller: CallerRights | undefined; readonly nonce: string; readonly sentAt: number };

export type Verified = ({ ok: true } & Signed) | { ok: false; reason: string };

/** Signs and checks server-to-server messages with the gossip key. */
export class GossipAuth {
  private readonly key: Buffer;
  /** nonce → when it may be forgotten */
  private readonly seen = new Map<string, number>();

  constructor(
    key: Buffer,
    private readonly now: () => number = Date.now,
  ) {
    this.key = Buffer.from(key);
  }

  /** Whether a request says it is signed (then it must verify; it is never read as a client's). */
  static isSigned(headers: Headers): boolean {
    return headers[SIGNATURE_HEADER] !== undefined || headers[CALLER_HEADER] !== undefined;
  }

  /** Headers that sign a request; `url` is the path with its query exactly as sent. */
  signRequest(method: string, url: string, body: string, caller?: CallerRights): Record<string, string> {
    const timestamp = String(this.now());
    const nonce = randomBytes(16).toString("base64url");
    const callerText = caller === undefined ? "" : Buffer.from(JSON.stringify(caller)).toString("base64url");
    const headers: Record<string, string> = {
      [TIMESTAMP_HEADER]: timestamp,
      [NONCE_HEADER]: nonce,
      [SIGNATURE_HEADER]: this.mac(["req", method.toUpperCase(), url, timestamp, nonce, digest(body), callerText]),
    };
    if (callerText !== "") headers[CALLER_HEADER] = callerText;
    return headers;
  }

  /** Checks a request's signature, freshness and nonce (a valid nonce is remembered: a replay fails). */
  verifyRequest(method: string, url: string, headers: Headers, body: string): Verified {
    const timestamp = header(headers, TIMESTAMP_HEADER);
    const nonce = header(headers, NONCE_HEADER);
    const signature = header(headers, SIGNATURE_HEADER);
    const callerText = header(headers, CALLER_HEADER) ?? "";
    if (timestamp === undefined || nonce === undefined || signature === undefined) return { ok: false, reason: "not signed with the gossip key" };
    if (!TIMESTAMP_PATTERN.test(timestamp) || !NONCE_PATTERN.test(nonce) || !SIGNATURE_PATTERN.test(signature)) {
      return { ok: false, reason: "malformed gossip signature" };
    }
    const expected = this.mac(["req", method.toUpperCase(), url, timestamp, nonce, digest(body), callerText]);
    if (!sameText(signature, expected)) return { ok: false, reason: "gossip signature does not match (wrong gossip key?)" };
    const now = this.now();
    if (Math.abs(now - Number(timestamp)) > SIGNATURE_WINDOW_MS) return { ok: false, reason: "stale gossip message" };
    this.forgetExpired(now);
    if (this.seen.has(nonce)) return { ok: false, reason: "replayed gossip message" };
    if (this.seen.size >= MAX_REMEMBERED_NONCES) return { ok: false, reason: "too many gossip messages, try again" };
    this.seen.set(nonce, now + 2 * SIGNATURE_WINDOW_MS);
    let caller: CallerRights | undefined;
    if (callerText !== "") {
      caller = readRights(callerText);
      if (caller === undefined) return { ok: false, reason: "malformed forwarded caller" };
    }
    return { ok: true, caller, nonce, sentAt: Number(timestamp) };
  }

  /** Headers that sign an answer to the request with `requestNonce`. */
  signResponse(requestNonce: string, status: number, body: string): Record<string, string> {
    const timestamp = String(this.now());
    return {
      [TIMESTAMP_HEADER]: timestamp,
      [SIGNATURE_HEADER]: this.mac(["res", requestNonce, String(status), timestamp, digest(body)]),
    };
  }

  /** Checks the answer to our request with `requestNonce`. */
  verifyResponse(requestNonce: string, status: number, headers: Headers, body: string): string | undefined {
    const timestamp = header(headers, TIMESTAMP_HEADER);
    const signature = header(headers, SIGNATURE_HEADER);
    if (timestamp === undefined || signature === undefined) return "the answer is not signed with the gossip key";
    if (!TIMESTAMP_PATTERN.test(timestamp) || !SIGNATURE_PATTERN.test(signature)) return "malformed gossip signature";
    if (!sameText(signature, this.mac(["res", requestNonce, String(status), timestamp, digest(body)]))) {
      return "the answer's gossip signature does not match (wrong gossip key?)";
    }
    if (Math.abs(this.now() - Number(timestamp)) > SIGNATURE_WINDOW_MS) return "stale gossip answer";
    return undefined;
  }

  private mac(parts: readonly string[]): string {
    // No part contains a newline (URLs are sent encoded, the rest is base64url or digits).
    return createHmac("sha256", this.key).update(`v1\n${parts.join("\n")}`).digest("base64url");
  }

  private forgetExpired(now: number): void {
    // Insertion order is expiry order (every entry lives the same time).
    for (const [nonce, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(nonce);
    }
  }
}

function digest(body: string): string {
  return createHash("sha256").update(body).digest("hex");
}

/** Constant-time comparison of two signatures as text. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A new random key (per start when none is configured: a lone server then accepts no peer). */
export function randomGossipKey(): Buffer {
  return randomBytes(32);
}
