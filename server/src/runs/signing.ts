import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "./clock.js";

/** What a signed URL grants: reading one object of one apply. */
export type SignedObject = "errored-state" | "log";

/** The query parameters that make a storage URL valid. */
export interface Signature {
  /** expiry, milliseconds since the epoch */
  expires: number;
  /** random, so that every URL is unique even within one millisecond */
  nonce: string;
  /** base64url HMAC-SHA256 over the object, the apply id, the expiry and the nonce */
  signature: string;
}

export type Verdict = "valid" | "expired" | "invalid";

const NONCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES_PATTERN = /^[0-9]{1,15}$/;

/** Signs and checks storage URLs with an HMAC key that lives as long as the server process. */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(
    private readonly clock: Clock,
    key: Buffer = randomBytes(32),
  ) {
    this.key = Buffer.from(key);
  }

  sign(object: SignedObject, applyId: string, ttlMs: number): Signature {
    const expires = this.clock.now() + ttlMs;
    const nonce = randomBytes(16).toString("base64url");
    return { expires, nonce, signature: this.mac(object, applyId, expires, nonce).toString("base64url") };
  }

  /** Checks query values as they came in (strings, arrays when repeated, or missing). */
  verify(object: SignedObject, applyId: string, query: Record<string, unknown>): Verdict {
    const expires = query["expires"];
    const nonce = query["nonce"];
    const signature = query["signature"];
    if (typeof expires !== "string" || !EXPIRES_PATTERN.test(expires)) return "invalid";
    if (typeof nonce !== "string" || !NONCE_PATTERN.test(nonce)) return "invalid";
    if (typeof signature !== "string" || !SIGNATURE_PATTERN.test(signature)) return "invalid";
    // Compared as text: base64url has spare bits in its last character, so decoding would let two
    // different strings pass for one signature.
    const expected = Buffer.from(this.mac(object, applyId, Number(expires), nonce).toString("base64url"));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
    return this.clock.now() < Number(expires) ? "valid" : "expired";
  }

  private mac(object: SignedObject, applyId: string, expires: number, nonce: string): Buffer {
    // Newlines cannot occur in any part (ids and nonces are URL-safe), so the message is unambiguous.
    return createHmac("sha256", this.key).update(`v1\n${object}\n${applyId}\n${expires}\n${nonce}`).digest();
  }
}
