import { parseIpPort } from "../http.js";
import type { GossipAuth } from "../gossip/auth.js";
import { identify } from "../gossip/wire.js";
import { multiError } from "../gossip/pool.js";

export class ServersError extends Error {}

/**
 * The server addresses a client-mode agent knows. Replacing the list pings every address (it must be
 * a server-mode reference server) and keeps those that answer; it fails only when none does.
 */
export class ServerList {
  private addresses: string[] = [];
  private contactAt: number | undefined;

  constructor(
    private readonly auth: GossipAuth,
    private readonly timeoutMs: number,
  ) {}

  list(): string[] {
    return [...this.addresses].sort();
  }

  /** Milliseconds since a server last answered, or undefined when none ever did. */
  sinceContact(): number | undefined {
    return this.contactAt === undefined ? undefined : Date.now() - this.contactAt;
  }

  async replace(addresses: readonly string[]): Promise<void> {
    const bad = addresses.find((a) => parseIpPort(a) === undefined);
    if (bad !== undefined) throw new ServersError(`invalid server address ${JSON.stringify(bad)}: expected ip:port`);
    const outcomes = await Promise.all(
      addresses.map(async (address) => {
        try {
          await identify(this.auth, address, this.timeoutMs);
          return { address, error: undefined };
        } catch (e) {
          return { address, error: `Failed to ping server ${address}: ${(e as Error).message}` };
        }
      }),
    );
    const good = [...new Set(outcomes.filter((o) => o.error === undefined).map((o) => o.address))];
    if (good.length === 0) throw new ServersError(multiError(outcomes.map((o) => o.error ?? "")));
    this.addresses = good;
    this.contactAt = Date.now();
  }
}
