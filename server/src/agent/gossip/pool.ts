import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { joinHostPort } from "../identity.js";
import type { Identity } from "../identity.js";
import type { AgentSettings } from "../settings.js";
import type { GossipAuth } from "./auth.js";
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

/** A member that cannot be accepted: its name is ours at another address, or the list is full. */
export class MemberRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Unknown peers of a peer contacted per answer (the rest are learnt from later answers). */
const LEARN_PER_VIEW = 3;

/**
 * The gossip pool of a server agent: this agent plus every peer a caller with `agent:write` joined or
 * that announced itself with a message signed with the gossip key. A background failure detector
 * probes one member per interval, in a shuffled round-robin order (as SWIM does); a peer that stops
 * answering becomes `failed`, a failed peer that answers again `alive`; `left` peers are not probed.
 * The list holds at most `maxMembers` peers, and failed or left members are forgotten `reapAfterMs`
 * after they failed or left.
 */
export class GossipPool {
  private readonly peers = new Map<string, Member>();
  /** when a failed or left member became so */
  private readonly downSince = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private order: string[] = [];
  /** A Lamport-style clock of membership changes (the gossip stats' member_time). */
  private memberClock = 1;

  constructor(
    private readonly ctx: ServerContext,
    private readonly id: Identity,
    private readonly settings: AgentSettings,
    private readonly auth: GossipAuth,
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

  /** Contacts each address (signed); every one that answers, signed, as a reference server is added as `alive`. */
  async join(addresses: readonly string[]): Promise<JoinResult> {
    const results = await Promise.all(
      addresses.map(async (address) => {
        try {
          const view = await exchange(this.auth, address, this.local(), this.settings.probeTimeoutMs);
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

  /**
   * A peer announced itself in a signed message (join or probe), signed at `sentAt` (ms): it is alive,
   * unless we saw it fail or leave after it sent the message (a message delayed on the way, or in a
   * busy server's queue, does not bring a member back; its next message, or our next probe, does).
   * Answers with our own view; throws MemberRefused when its name is ours or the list is full.
   */
  receive(announced: PeerView["member"], sentAt: number): { member: Member; members: Member[] } {
    const down = this.downSince.get(announced.Name);
    if (down === undefined || sentAt >= down) this.upsertAlive(announced);
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
      this.forget(member.Name);
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
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The next probe starts one interval after the previous one ended: never more than one at a time. */
  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tick().finally(() => this.schedule());
    }, this.settings.probeIntervalMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.reap();
    const target = this.nextTarget();
    if (target !== undefined) await this.probe(target);
  }

  /** Round-robin over a shuffled list of the members to probe, reshuffled after each round. */
  private nextTarget(): Member | undefined {
    for (;;) {
      if (this.order.length === 0) {
        this.order = [...this.peers.values()].filter((m) => m.Status !== "left").map((m) => m.Name);
        for (let i = this.order.length - 1; i > 0; i--) {
          const j = Math.floor(Math.random() * (i + 1));
          [this.order[i], this.order[j]] = [this.order[j] as string, this.order[i] as string];
        }
        if (this.order.length === 0) return undefined;
      }
      const name = this.order.pop() as string;
      const member = this.peers.get(name);
      if (member !== undefined && member.Status !== "left") return member;
    }
  }

  /** Forgets failed and left members that have been so for reapAfterMs. */
  private reap(): void {
    const cutoff = Date.now() - this.settings.reapAfterMs;
    for (const [name, since] of this.downSince) {
      if (since > cutoff) continue;
      const member = this.peers.get(name);
      if (member === undefined || member.Status === "alive") {
        this.downSince.delete(name);
        continue;
      }
      this.forget(name);
      this.log.info({ member: name }, `member ${name} reaped after ${this.settings.reapAfterMs} ms ${member.Status}`);
    }
  }

  private forget(name: string): void {
    this.peers.delete(name);
    this.downSince.delete(name);
    this.changed();
  }

  private changed(): void {
    this.memberClock += 1;
  }

  private accept(view: PeerView): void {
    this.upsertAlive(view.member);
    this.learn(view.alive);
  }

  private upsertAlive(m: PeerView["member"]): void {
    if (m.Name === this.id.memberName) {
      const self = this.local();
      throw new MemberRefused(
        `Conflicting address for ${m.Name}. Mine: ${joinHostPort(self.Addr, self.Port)} Theirs: ${joinHostPort(m.Addr, m.Port)}: ` +
          `two servers have the same name, give each its own node name`,
        409,
      );
    }
    const known = this.peers.get(m.Name);
    if (known === undefined && this.peers.size >= this.settings.maxMembers) {
      // Make room by forgetting the member that has been down longest, if any.
      const oldest = [...this.downSince.entries()].sort((a, b) => a[1] - b[1])[0];
      if (oldest === undefined) {
        throw new MemberRefused(`the member list is full (${this.settings.maxMembers} peers): ${m.Name} not added`, 503);
      }
      this.forget(oldest[0]);
    }
    const member = makeMember({ ...m, Status: "alive" });
    this.peers.set(m.Name, member);
    this.downSince.delete(m.Name);
    if (known === undefined || known.Status !== "alive") {
      this.changed();
      this.log.info({ member: m.Name, address: joinHostPort(m.Addr, m.Port) }, `member ${m.Name} is alive`);
    }
  }

  /** A few peers of a peer that we do not know yet are contacted directly; they join when they answer. */
  private learn(alive: PeerView["alive"]): void {
    let contacted = 0;
    for (const candidate of alive) {
      if (contacted >= LEARN_PER_VIEW || this.peers.size >= this.settings.maxMembers) return;
      if (candidate.Name === this.id.memberName || this.peers.has(candidate.Name)) continue;
      contacted += 1;
      const address = joinHostPort(candidate.Addr, candidate.Port);
      exchange(this.auth, address, this.local(), this.settings.probeTimeoutMs).then(
        (view) => {
          try {
            this.accept(view);
          } catch {
            // refused (name conflict or full list): not added
          }
        },
        () => undefined,
      );
    }
  }

  private async probe(target: Member): Promise<void> {
    const address = joinHostPort(target.Addr, target.Port);
    try {
      const view = await exchange(this.auth, address, this.local(), this.settings.probeTimeoutMs);
      if (view.member.Name !== target.Name) throw new Error(`answered as ${view.member.Name}`);
      if (this.peers.get(target.Name)?.Status === "left") return;
      this.accept(view);
    } catch (e) {
      const current = this.peers.get(target.Name);
      if (current === undefined || current.Status !== "alive") return;
      current.Status = "failed";
      this.downSince.set(target.Name, Date.now());
      this.changed();
      this.log.warn({ member: target.Name, address, error: (e as Error).message }, `member ${target.Name} failed`);
    }
  }
}
