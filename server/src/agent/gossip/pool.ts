import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { joinHostPort } from "../identity.js";
import type { Identity } from "../identity.js";
import type { AgentSettings } from "../settings.js";
import { makeMember } from "./member.js";
import type { Member, MemberStatus } from "./member.js";
import { exchange } from "./wire.js";
import type { PeerView } from "./wire.js";

export interface JoinResult {
  joined: number;
  errors: string[];
}

/** Go's multierror text, as the scheduler reports join failures. */
export function multiError(errors: readonly string[]): string {
  if (errors.length === 0) return "";
  const head = errors.length === 1 ? "1 error occurred:" : `${errors.length} errors occurred:`;
  return `${head}\n${errors.map((e) => `\t* ${e}`).join("\n")}\n\n`;
}

/**
 * The gossip pool of a server agent: this agent plus every peer it joined or that announced itself,
 * with a background failure detector. A peer that stops answering probes becomes `failed`; a failed
 * peer that answers again becomes `alive`; `left` peers are no longer probed.
 */
export class GossipPool {
  private readonly peers = new Map<string, Member>();
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  /** A Lamport-style clock of membership changes (the gossip stats' member_time). */
  private memberClock = 1;

  constructor(
    private readonly ctx: ServerContext,
    private readonly id: Identity,
    private readonly settings: AgentSettings,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** This agent as a member. */
  local(): Member {
    const at = this.id.listening();
    const port = at?.port ?? this.ctx.options.port;
    return makeMember({
      Name: this.id.memberName,
      Addr: at?.address ?? this.ctx.options.bind,
      Port: port,
      Status: "alive",
      Tags: {
        bootstrap: "1",
        build: this.ctx.version.Version,
        dc: this.ctx.options.datacenter,
        mvn: "1",
        port: String(port),
        region: this.ctx.options.region,
        role: "svc",
        vsn: "1",
      },
    });
  }

  /** Every known member, this agent included, by name. */
  members(): Member[] {
    return [this.local(), ...[...this.peers.values()].map((m) => ({ ...m, Tags: { ...m.Tags } }))].sort((a, b) =>
      a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0,
    );
  }

  counts(): Record<MemberStatus, number> {
    const counts: Record<MemberStatus, number> = { alive: 1, failed: 0, left: 0 };
    for (const m of this.peers.values()) counts[m.Status] += 1;
    return counts;
  }

  memberTime(): number {
    return this.memberClock;
  }

  /** Contacts each address; every one that answers as a reference server is added as `alive`. */
  async join(addresses: readonly string[]): Promise<JoinResult> {
    const results = await Promise.all(
      addresses.map(async (address) => {
        try {
          const view = await exchange(address, this.local(), this.settings.probeTimeoutMs);
          this.accept(view);
          return undefined;
        } catch (e) {
          return `Failed to join ${address}: ${(e as Error).message}`;
        }
      }),
    );
    const errors = results.filter((r): r is string => r !== undefined);
    return { joined: addresses.length - errors.length, errors };
  }

  /** A peer announced itself (join or probe): it is alive. Answers with our own view. */
  receive(announced: PeerView["member"]): { member: Member; members: Member[] } {
    if (announced.Name !== this.id.memberName) this.upsertAlive(announced);
    return { member: this.local(), members: this.members() };
  }

  /**
   * Moves a failed member to `left`; with prune, removes a failed or left member from the list.
   * Alive members and unknown names are left as they are (an alive member refutes the leave).
   */
  forceLeave(node: string, prune: boolean): void {
    const member = this.peers.get(node) ?? [...this.peers.values()].find((m) => m.Name.startsWith(`${node}.`));
    if (member === undefined || member.Status === "alive") return;
    if (prune) {
      this.peers.delete(member.Name);
      this.changed();
      this.log.info({ member: member.Name }, `member ${member.Name} pruned`);
      return;
    }
    if (member.Status === "failed") {
      member.Status = "left";
      this.changed();
      this.log.info({ member: member.Name }, `member ${member.Name} left (forced)`);
    }
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.probeAll(), this.settings.probeIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private changed(): void {
    this.memberClock += 1;
  }

  private accept(view: PeerView): void {
    if (view.member.Name !== this.id.memberName) this.upsertAlive(view.member);
    this.learn(view.alive);
  }

  private upsertAlive(m: PeerView["member"]): void {
    const known = this.peers.get(m.Name);
    const member = makeMember({ ...m, Status: "alive" });
    this.peers.set(m.Name, member);
    if (known === undefined || known.Status !== "alive") {
      this.changed();
      this.log.info({ member: m.Name, address: joinHostPort(m.Addr, m.Port) }, `member ${m.Name} is alive`);
    }
  }

  /** Peers of a peer that we do not know yet are contacted directly; they join when they answer. */
  private learn(alive: PeerView["alive"]): void {
    for (const candidate of alive) {
      if (candidate.Name === this.id.memberName || this.peers.has(candidate.Name)) continue;
      const address = joinHostPort(candidate.Addr, candidate.Port);
      exchange(address, this.local(), this.settings.probeTimeoutMs).then(
        (view) => this.accept(view),
        () => undefined,
      );
    }
  }

  private async probeAll(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      const targets = [...this.peers.values()].filter((m) => m.Status !== "left");
      await Promise.all(targets.map((m) => this.probe(m)));
    } finally {
      this.probing = false;
    }
  }

  private async probe(target: Member): Promise<void> {
    const address = joinHostPort(target.Addr, target.Port);
    try {
      const view = await exchange(address, this.local(), this.settings.probeTimeoutMs);
      if (view.member.Name !== target.Name) throw new Error(`answered as ${view.member.Name}`);
      if (this.peers.get(target.Name)?.Status === "left") return;
      this.accept(view);
    } catch (e) {
      const current = this.peers.get(target.Name);
      if (current === undefined || current.Status !== "alive") return;
      current.Status = "failed";
      this.changed();
      this.log.warn({ member: target.Name, address, error: (e as Error).message }, `member ${target.Name} failed`);
    }
  }
}
