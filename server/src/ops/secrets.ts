import type { ServerContext } from "../context.js";

const SIGNATURE_PARAM = /([?&]|\\u0026)(signature|nonce)=[^&"\s\\]+/g;
const BEARER = /\b(Bearer)\s+[^\s"\\]+/gi;
const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;
export const REDACTED = "[redacted]";

/**
 * Takes secrets out of a log line before it is written or streamed to /v1/agent/monitor: the
 * signature and nonce of signed storage URLs (a URL in a debug line would otherwise be a download
 * anyone with agent:read could follow), bearer tokens, and the secret of every ACL token.
 */
export function redactSecrets(ctx: ServerContext, line: string): string {
  let out = line.replace(SIGNATURE_PARAM, `$1$2=${REDACTED}`).replace(BEARER, `$1 ${REDACTED}`);
  const secrets = secretsOf(ctx);
  if (secrets.size > 0) out = out.replace(UUID, (m) => (secrets.has(m) ? REDACTED : m));
  // Secrets that are not UUIDs are few and rare: replaced one by one.
  for (const secret of odd.get(ctx) ?? []) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

const cache = new WeakMap<ServerContext, Set<string>>();
const odd = new WeakMap<ServerContext, string[]>();

function secretsOf(ctx: ServerContext): Set<string> {
  let set = cache.get(ctx);
  if (set === undefined) {
    set = new Set();
    const others: string[] = [];
    for (const token of ctx.acl.tokens) {
      if (token.SecretID.length < 8) continue;
      if (/^[0-9a-fA-F-]{36}$/.test(token.SecretID)) set.add(token.SecretID);
      else others.push(token.SecretID);
    }
    cache.set(ctx, set);
    odd.set(ctx, others);
  }
  return set;
}
