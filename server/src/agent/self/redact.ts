export const REDACTED = "<redacted>";

const SECRET_KEY = /(token|secret|password|passwd|credential|private_?key|api_?key|encrypt(_?key)?)$/i;

/**
 * A deep copy with every non-empty string value under a secret-looking key (…Token, …Secret,
 * …Password, …Key of credentials, Encrypt) replaced by `<redacted>`.
 */
export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => redactSecrets(v)) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = SECRET_KEY.test(key) && typeof v === "string" && v !== "" ? REDACTED : redactSecrets(v);
  }
  return out as T;
}
