/**
 * An answer or an error as far as a caller can tell them apart (`ok <value>`, or the error's class, code,
 * span and message), for tests that hold two ways of running a filter to the same outcomes. Plain
 * TypeScript with no Node imports: the browser page of test/web-browser.test.ts uses it too.
 */

/** An error's class, code, span and message; anything that is not an `Error` is thrown on. */
export function describeError(e: unknown): string {
  if (!(e instanceof Error)) throw e;
  const f = e as Error & { code?: string; span?: unknown };
  return `${f.name} ${f.code ?? ""} ${JSON.stringify(f.span ?? null)} ${f.message}`;
}

function describeValue(value: unknown): string {
  return `ok ${typeof value === "boolean" ? value : typeof value === "object" ? JSON.stringify(value) : "?"}`;
}

/** What `run` answers or throws. */
export function outcome(run: () => unknown): string {
  try {
    return describeValue(run());
  } catch (e) {
    return describeError(e);
  }
}

/** What `run` resolves to or rejects with. */
export async function outcomeAsync(run: () => Promise<unknown>): Promise<string> {
  try {
    return describeValue(await run());
  } catch (e) {
    return describeError(e);
  }
}
