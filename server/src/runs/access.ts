import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { Acl, AclToken } from "../context.js";

/** Reading an apply. */
export const APPLY_READ = "apply:read";
/** Reading state contents (the errored state). */
export const STATE_READ = "state:read";

type Headers = Record<string, string | string[] | undefined>;

/**
 * Who may read what. With an `--acl-tokens` file the server's ACL decides; without one this module
 * holds a single generated token with every permission, so the API is never open.
 */
export class ApplyAccess {
  private constructor(
    private readonly acl: Acl,
    /** the generated token, when the server has no tokens file */
    readonly generated: AclToken | undefined,
  ) {}

  static create(acl: Acl): ApplyAccess {
    if (acl.enabled) return new ApplyAccess(acl, undefined);
    return new ApplyAccess(acl, {
      SecretID: randomUUID(),
      AccessorID: randomUUID(),
      Name: "generated at start (no --acl-tokens file)",
      Management: true,
      Capabilities: [APPLY_READ, STATE_READ],
    });
  }

  /** Whether the request's token holds every one of `capabilities`. */
  allows(headers: Headers, ...capabilities: string[]): boolean {
    if (this.generated !== undefined) return sameSecret(this.acl.secret(headers), this.generated.SecretID);
    const token = this.acl.resolve(headers);
    return token !== undefined && capabilities.every((c) => this.acl.allows(token, c));
  }
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  // Hash first so the comparison takes the same time whatever the lengths.
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
