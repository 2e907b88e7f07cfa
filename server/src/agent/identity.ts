import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { ServerContext } from "../context.js";

/** Who this agent is: names, ids and the address it actually listens on. */
export interface Identity {
  readonly isServer: boolean;
  readonly isClient: boolean;
  /** Gossip member name: `<node name>.<region>`. */
  readonly memberName: string;
  /** Client node id (a UUID made at start). */
  readonly nodeId: string;
  /** The API listener's address once it listens. */
  listening(): { address: string; port: number } | undefined;
}

export function makeIdentity(ctx: ServerContext, address: () => AddressInfo | string | null): Identity {
  const nodeId = randomUUID();
  return {
    isServer: ctx.options.mode === "server",
    isClient: ctx.options.mode === "client",
    memberName: `${ctx.options.nodeName}.${ctx.options.region}`,
    nodeId,
    listening() {
      const info = address();
      if (info === null || typeof info === "string") return undefined;
      const host = info.address === "0.0.0.0" || info.address === "::" ? "127.0.0.1" : info.address;
      return { address: host, port: info.port };
    },
  };
}

/** ip:port, with brackets for IPv6. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}
