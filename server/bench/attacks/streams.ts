/** The event-stream attacks: expensive filtered streams beside writes, and one client holding every stream. */
import { ATTACKER, OTHER, ended, startWriter, type Attack, type AttackEnv, type AttackReport, type StreamsReport } from "./attack.js";
import { streamFilter } from "./filters.js";
import { openStream, record, streamStates, type HeldStream } from "./http.js";
import { Tally } from "./stats.js";

/** Streams the attacker asks for at once while opening them. */
const OPENING = 16;

const streamUrl = (api: string, filter: string): string => `${api}/v1/event/stream?topic=Job${filter === "" ? "" : `&filter=${encodeURIComponent(filter)}`}`;

/** The attacker's streams: every one opened (the first `count`, then those that replaced ended ones) and the outcomes of the attempts. */
interface Holder {
  held: HeldStream[];
  opening: Tally;
  /** Opens the next stream (its own filter); undefined when it was refused. */
  open(): Promise<HeldStream | undefined>;
}

function holder(env: AttackEnv, filterOf: (i: number) => string): Holder {
  const held: HeldStream[] = [];
  const opening = new Tally();
  let next = 0;
  return {
    held,
    opening,
    async open() {
      const { outcome, stream } = await openStream(streamUrl(env.server.api, filterOf(next++)), ATTACKER, env.end);
      if (outcome.status === 0 && outcome.error === "aborted") opening.add("unanswered");
      else record(opening, outcome);
      if (stream !== undefined) held.push(stream);
      return stream;
    },
  };
}

/** Opens up to `count` streams, `OPENING` at a time (the setup), stopping at the window's end. */
async function openMany(env: AttackEnv, h: Holder, count: number): Promise<HeldStream[]> {
  const first: HeldStream[] = [];
  let asked = 0;
  await Promise.all(
    Array.from({ length: OPENING }, async () => {
      while (asked < count && !env.end.aborted) {
        asked++;
        const stream = await h.open();
        if (stream !== undefined) first.push(stream);
      }
    }),
  );
  return first;
}

/** Keeps a stream open for the window: one the server ends earlier is replaced by a new one, as long as the server gives one. */
async function keep(env: AttackEnv, h: Holder, stream: HeldStream): Promise<void> {
  for (let s: HeldStream | undefined = stream; s !== undefined; s = await h.open()) {
    await Promise.race([s.done, ended(env.end)]);
    if (env.end.aborted) return;
  }
}

/** Another client (127.0.0.4) opens a plain stream: its status (or failure) and time; a stream it got is closed at the end. */
function otherClient(env: AttackEnv): Promise<{ outcome: string; ms: number; stream?: HeldStream }> {
  return openStream(streamUrl(env.server.api, ""), OTHER, env.end).then(({ outcome, stream }) => ({
    outcome:
      outcome.status === 0 ? (outcome.error === "aborted" ? "no answer by the end" : `error:${outcome.error}`) : outcome.status === 200 ? "200, a stream" : `${outcome.status} ${outcome.body.slice(0, 120).trim()}`,
    ms: outcome.ms,
    ...(stream === undefined ? {} : { stream }),
  }));
}

function streamsReport(opening: Tally, held: readonly HeldStream[]): StreamsReport {
  return {
    opening,
    ...streamStates(held),
    frames: held.reduce((n, s) => n + s.frames, 0),
    heartbeats: held.reduce((n, s) => n + s.heartbeats, 0),
  };
}

/**
 * Holds streams: the attacker's (each one the server ends replaced by a new one), then another client
 * asks for one (and a writer writes, when `write`).
 */
async function holdStreams(env: AttackEnv, count: number, filterOf: (i: number) => string, write: boolean): Promise<AttackReport> {
  const h = holder(env, filterOf);
  const started = performance.now();
  const first = await openMany(env, h, count);
  env.begin();
  const notes = [`${first.length} streams opened in ${((performance.now() - started) / 1000).toFixed(1)} s (the setup)`];
  const kept = Promise.all(first.map((s) => keep(env, h, s)));
  const writer = write ? startWriter(env.server) : undefined;
  const other = otherClient(env);
  await ended(env.end);
  const { held, opening } = h;
  if (held.length > first.length) notes.push(`${held.length - first.length} streams opened in the window in place of ones the server ended`);
  // The figures at the window's end, before anything is closed.
  const report = streamsReport(opening, held);
  const writes = await writer?.stop();
  const got = await other;
  await kept;
  for (const s of held) s.close();
  got.stream?.close();
  return { requests: opening, ...(writes === undefined ? {} : { writes }), streams: report, other: { what: "plain stream", outcome: got.outcome, ms: got.ms }, notes };
}

/**
 * 1. One client opens up to 256 streams, each with its own ~1 KB filter that spends the whole per-event
 * budget; a writer writes every 500 ms.
 */
export const streamsAttack: Attack = {
  name: "streams",
  summary: "256 event streams (topic=Job) from one client, each a distinct ~1 KB filter (9 nested anys) that spends the 1,000,000-step budget on every Job event, one the server ends replaced by a new one; PUT /v1/jobs every 500 ms",
  dataset: "demo",
  serverArgs: [],
  run: (env) => holdStreams(env, 256, (i) => streamFilter(i), true),
};

/** 5. One client opens 256 plain streams; another client then asks for one. */
export const oneClientStreamsAttack: Attack = {
  name: "one-client-streams",
  summary: "256 plain event streams (topic=Job) from one client, one the server ends replaced by a new one; then another client opens one",
  dataset: "demo",
  serverArgs: [],
  run: (env) => holdStreams(env, 256, () => "", false),
};
