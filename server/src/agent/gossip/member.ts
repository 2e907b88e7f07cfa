/** A gossip member as the members endpoint shows it (keys in the scheduler's sorted order). */
export type MemberStatus = "alive" | "failed" | "left";

export interface Member {
  Addr: string;
  DelegateCur: number;
  DelegateMax: number;
  DelegateMin: number;
  Name: string;
  Port: number;
  ProtocolCur: number;
  ProtocolMax: number;
  ProtocolMin: number;
  Status: MemberStatus;
  Tags: Record<string, string>;
}

export const PROTOCOL = { ProtocolMin: 1, ProtocolMax: 5, ProtocolCur: 2, DelegateMin: 2, DelegateMax: 5, DelegateCur: 4 } as const;

export function makeMember(fields: { Name: string; Addr: string; Port: number; Status: MemberStatus; Tags: Record<string, string> }): Member {
  return {
    Addr: fields.Addr,
    DelegateCur: PROTOCOL.DelegateCur,
    DelegateMax: PROTOCOL.DelegateMax,
    DelegateMin: PROTOCOL.DelegateMin,
    Name: fields.Name,
    Port: fields.Port,
    ProtocolCur: PROTOCOL.ProtocolCur,
    ProtocolMax: PROTOCOL.ProtocolMax,
    ProtocolMin: PROTOCOL.ProtocolMin,
    Status: fields.Status,
    Tags: { ...fields.Tags },
  };
}

/** The member a client-only agent reports as its own: the zero member (Addr and Tags null). */
export const ZERO_MEMBER = {
  Addr: null,
  DelegateCur: 0,
  DelegateMax: 0,
  DelegateMin: 0,
  Name: "",
  Port: 0,
  ProtocolCur: 0,
  ProtocolMax: 0,
  ProtocolMin: 0,
  Status: "",
  Tags: null,
} as const;

/** Reads a member announced by a peer; undefined when the shape is not one. */
export function readMember(raw: unknown): { Name: string; Addr: string; Port: number; Tags: Record<string, string> } | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (typeof m["Name"] !== "string" || m["Name"] === "") return undefined;
  if (typeof m["Addr"] !== "string" || typeof m["Port"] !== "number" || !Number.isInteger(m["Port"])) return undefined;
  const tags: Record<string, string> = {};
  if (typeof m["Tags"] === "object" && m["Tags"] !== null) {
    for (const [k, v] of Object.entries(m["Tags"] as Record<string, unknown>)) if (typeof v === "string") tags[k] = v;
  }
  return { Name: m["Name"], Addr: m["Addr"], Port: m["Port"], Tags: tags };
}
