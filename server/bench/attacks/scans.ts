/** The list attacks: expensive scans (abandoned, or waited for) over a large list, and filters of deep parentheses. */
import { ATTACKER, ended, type Attack, type AttackEnv, type AttackReport } from "./attack.js";
import { parensFilter, scanFilter } from "./filters.js";
import { keepBusy, record, send } from "./http.js";
import { Tally } from "./stats.js";

/** Scans the attacker keeps running at once. */
const SCANS = 10;
/** An abandoned scan is aborted by its client after this long. */
const ABANDON_MS = 1000;

/**
 * `concurrency` requests at once from the attacker, each replaced by the next (`url(k)`) when it ends,
 * for the window; with `abandonMs` each is aborted after that long (`abandoned`). A request the window's
 * end cuts is `unanswered`.
 */
async function hammer(env: AttackEnv, concurrency: number, url: (k: number) => string, abandonMs?: number): Promise<AttackReport> {
  const requests = new Tally();
  env.begin();
  await keepBusy(
    concurrency,
    env.end,
    (k) => send(url(k), { from: ATTACKER, signal: abandonMs === undefined ? env.end : AbortSignal.any([env.end, AbortSignal.timeout(abandonMs)]), maxBody: 512 }),
    (out) => {
      if (out.status === 0 && out.error === "aborted") requests.add(env.end.aborted ? "unanswered" : "abandoned");
      else record(requests, out);
    },
  );
  await ended(env.end);
  return { requests, notes: [] };
}

const scanUrl = (env: AttackEnv, k: number): string => `${env.server.api}/v1/jobs?namespace=*&filter=${encodeURIComponent(scanFilter(k))}`;

/** 2. Ten scans at once, each abandoned by its client after a second, for the window. */
export const scanAttack: Attack = {
  name: "scan",
  summary: `${SCANS} GET /v1/jobs?namespace=*&filter=<9 nested anys, up to 878,915 steps an item> at once over the large list, each aborted by the client after ${ABANDON_MS / 1000} s, renewed`,
  dataset: "scan",
  serverArgs: [],
  run: (env) => hammer(env, SCANS, (k) => scanUrl(env, k), ABANDON_MS),
};

/** 2b. The same scans, waited for. */
export const scanWaitAttack: Attack = {
  name: "scan-wait",
  summary: `${SCANS} of the same scans at once, each waited for, renewed when answered`,
  dataset: "scan",
  serverArgs: [],
  run: (env) => hammer(env, SCANS, (k) => scanUrl(env, k)),
};

/** 3. Five filters of 100,000 nested parentheses at once, renewed when answered (each its own). */
export const parensAttack: Attack = {
  name: "parens",
  summary: '5 GET /v1/jobs?filter=("×100000 a == K )×100000 at once (~200 KB URL, K counts the requests), renewed when answered',
  dataset: "demo",
  serverArgs: [],
  run: (env) => hammer(env, 5, (k) => `${env.server.api}/v1/jobs?filter=${encodeURIComponent(parensFilter(k))}`),
};
