import { readFile } from "node:fs/promises";
import { apiHeaderNames, type ApiHeaderDialect } from "./api-headers.js";
import type { Acl, AclToken } from "./context.js";

type Headers = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The request's token secret, as the scheduler reads it: a non-empty token header of the dialect
 * (`X-Svc-Token`, or `X-Nomad-Token` with `--api-headers nomad`) wins (trimmed), else
 * `Authorization: Bearer <secret>` (scheme case-insensitive, first word after it). The other dialect's
 * token header is never read here: the API listener refuses a request that carries it
 * (`foreign-token.ts`), so that it is never ignored in favour of `Authorization`.
 */
export function tokenSecret(headers: Headers, dialect: ApiHeaderDialect = "svc"): string | undefined {
  const header = first(headers[apiHeaderNames(dialect).token.toLowerCase()]);
  if (header !== undefined && header !== "") {
    const trimmed = header.trim();
    return trimmed === "" ? undefined : trimmed;
  }
  const auth = first(headers["authorization"]);
  if (auth === undefined) return undefined;
  const parts = auth.split(" ");
  if (parts.length < 2 || parts[0]?.toLowerCase() !== "bearer") return undefined;
  const word = parts.slice(1).join(" ").trim().split(/\s+/)[0];
  return word === undefined || word === "" ? undefined : word;
}

/** `X:write` also grants `X:read`. */
function grants(held: string, wanted: string): boolean {
  if (held === wanted) return true;
  const [scope, verb] = wanted.split(":");
  return verb === "read" && held === `${scope}:write`;
}

/** Splits "job:read@dev" into ["job:read", "dev"]. */
function splitScoped(capability: string): [string, string | undefined] {
  const at = capability.indexOf("@");
  return at < 0 ? [capability, undefined] : [capability.slice(0, at), capability.slice(at + 1)];
}

export class TokenAcl implements Acl {
  readonly enabled: boolean;
  readonly tokens: readonly AclToken[];
  private readonly bySecret: Map<string, AclToken>;

  constructor(
    tokens: readonly AclToken[] | undefined,
    /** Whose token header is read (`--api-headers`). */
    readonly dialect: ApiHeaderDialect = "svc",
  ) {
    this.enabled = tokens !== undefined;
    this.tokens = tokens ?? [];
    this.bySecret = new Map(this.tokens.map((t) => [t.SecretID, t]));
  }

  secret(headers: Headers): string | undefined {
    return tokenSecret(headers, this.dialect);
  }

  resolve(headers: Headers): AclToken | undefined {
    const secret = this.secret(headers);
    return secret === undefined ? undefined : this.bySecret.get(secret);
  }

  allows(token: AclToken | undefined, capability: string, namespace?: string): boolean {
    if (!this.enabled) return true;
    if (token === undefined) return false;
    if (token.Management === true) return true;
    for (const held of token.Capabilities) {
      const [cap, scope] = splitScoped(held);
      if (!grants(cap, capability)) continue;
      if (scope === undefined || scope === "*") return true;
      // A grant scoped to one namespace covers that namespace only: never a requested "*".
      if (namespace !== undefined && namespace === scope) return true;
    }
    return false;
  }

  /**
   * The namespaces a token may use a capability in: `null` means every namespace
   * (ACLs off, management token, or an unscoped grant).
   */
  namespaces(token: AclToken | undefined, capability: string): ReadonlySet<string> | null {
    if (!this.enabled || token?.Management === true) return null;
    const allowed = new Set<string>();
    for (const held of token?.Capabilities ?? []) {
      const [cap, scope] = splitScoped(held);
      if (!grants(cap, capability)) continue;
      if (scope === undefined || scope === "*") return null;
      allowed.add(scope);
    }
    return allowed;
  }
}

export class AclFileError extends Error {}

/** Validates the parsed `--acl-tokens` file: an array of tokens. */
export function parseAclTokens(raw: unknown, source = "ACL tokens"): AclToken[] {
  if (!Array.isArray(raw)) throw new AclFileError(`${source}: expected a JSON array of tokens`);
  return raw.map((entry: unknown, i) => {
    if (typeof entry !== "object" || entry === null) throw new AclFileError(`${source}[${i}]: expected an object`);
    const t = entry as Record<string, unknown>;
    if (typeof t["SecretID"] !== "string" || t["SecretID"] === "") {
      throw new AclFileError(`${source}[${i}]: SecretID must be a non-empty string`);
    }
    const caps = t["Capabilities"] ?? [];
    if (!Array.isArray(caps) || !caps.every((c): c is string => typeof c === "string")) {
      throw new AclFileError(`${source}[${i}]: Capabilities must be an array of strings`);
    }
    if (t["Management"] !== undefined && typeof t["Management"] !== "boolean") {
      throw new AclFileError(`${source}[${i}]: Management must be a boolean`);
    }
    const token: AclToken = { SecretID: t["SecretID"], Capabilities: caps };
    if (typeof t["AccessorID"] === "string") token.AccessorID = t["AccessorID"];
    if (typeof t["Name"] === "string") token.Name = t["Name"];
    if (t["Management"] === true) token.Management = true;
    return token;
  });
}

export async function loadAclTokens(file: string): Promise<AclToken[]> {
  const text = await readFile(file, "utf8");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new AclFileError(`${file}: ${(e as Error).message}`);
  }
  return parseAclTokens(raw, file);
}
