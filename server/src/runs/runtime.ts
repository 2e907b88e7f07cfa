import type { ServerContext } from "../context.js";
import { ApplyAccess } from "./access.js";
import { buildApply } from "./build.js";
import { systemClock, type Clock } from "./clock.js";
import { parseDataApplies } from "./data.js";
import { DEMO_APPLIES } from "./demo.js";
import { UrlSigner } from "./signing.js";
import { ApplyStore } from "./store.js";

/** What tests (or an embedding program) may set before the app is built. */
export interface RunsOverrides {
  clock?: Clock;
  /** where the generated token is printed; standard output by default */
  announce?: (line: string) => void;
}

/** The state of the apply resource for one server. */
export interface RunsRuntime {
  readonly store: ApplyStore;
  readonly signer: UrlSigner;
  readonly access: ApplyAccess;
  readonly clock: Clock;
  /** whether the applies came from the data file (else they are the demo applies) */
  readonly fromDataFile: boolean;
  /** the secret of the token generated at start, when there is no tokens file */
  readonly generatedToken: string | undefined;
}

const overrides = new WeakMap<ServerContext, RunsOverrides>();
const runtimes = new WeakMap<ServerContext, RunsRuntime>();

export function configureRuns(ctx: ServerContext, settings: RunsOverrides): void {
  if (runtimes.has(ctx)) throw new Error("configureRuns: the apply resource of this server already started");
  overrides.set(ctx, settings);
}

/** The runtime of a server whose app was built, for tests and for printing the generated token. */
export function runsRuntime(ctx: ServerContext): RunsRuntime | undefined {
  return runtimes.get(ctx);
}

/** The secret of the token generated at start, when the server has no tokens file. */
export function generatedApplyToken(ctx: ServerContext): string | undefined {
  return runtimes.get(ctx)?.generatedToken;
}

/** Creates the runtime once per server; throws ApplyDataError when the data file's applies are invalid. */
export function ensureRuntime(ctx: ServerContext): RunsRuntime {
  const existing = runtimes.get(ctx);
  if (existing !== undefined) return existing;
  const settings = overrides.get(ctx) ?? {};
  const clock = settings.clock ?? systemClock;
  const specs = parseDataApplies(ctx.data);
  const baseMs = ctx.startedAt.getTime();
  const access = ApplyAccess.create(ctx.acl);
  const runtime: RunsRuntime = {
    store: new ApplyStore((specs ?? DEMO_APPLIES).map((s) => buildApply(s, baseMs))),
    signer: new UrlSigner(clock),
    access,
    clock,
    fromDataFile: specs !== undefined,
    generatedToken: access.generated?.SecretID,
  };
  runtimes.set(ctx, runtime);
  if (runtime.generatedToken !== undefined) {
    // On standard error: standard output carries the JSON log lines only.
    const announce = settings.announce ?? ((line: string) => process.stderr.write(`${line}\n`));
    announce(
      `No --acl-tokens file: generated a token with every permission for /api/v2 (apply:read, state:read): ` +
        `Authorization: Bearer ${runtime.generatedToken}`,
    );
  }
  return runtime;
}
