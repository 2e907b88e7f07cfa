import { describe, expect, it } from "vitest";
import { TokenAcl } from "../src/acl.js";
import { DEFAULT_OPTIONS, newLogEvents, type ServerContext } from "../src/context.js";
import { buildApply } from "../src/runs/build.js";
import { ApplyDataError, parseDataApplies } from "../src/runs/data.js";
import { DEMO_APPLIES } from "../src/runs/demo.js";
import { runsRoutes } from "../src/runs/index.js";
import { APPLY_STATUSES } from "../src/runs/model.js";
import { UrlSigner } from "../src/runs/signing.js";

const ok = { id: "apply-1", status: "finished", mode: "remote", erroredState: false };

describe("applies of the data file", () => {
  it("is absent when the data file has no applies", () => {
    expect(parseDataApplies(undefined)).toBeUndefined();
    expect(parseDataApplies({ jobs: [] })).toBeUndefined();
    expect(parseDataApplies([ok])).toBeUndefined();
  });

  it("accepts the minimal fields and kebab-case or camelCase attributes", () => {
    const specs = parseDataApplies({
      applies: [
        ok,
        {
          id: "apply-2",
          status: "running",
          mode: "agent",
          erroredState: true,
          "execution-details": { "agent-pool-name": "pool-a" },
          statusTimestamps: { "queued-at": "2024-05-01T12:00:00+02:00", startedAt: "2024-05-01T10:00:05Z" },
          resourceChanges: 2,
          "state-versions": ["sv-a", { id: "sv-b" }],
        },
      ],
    });
    expect(specs).toHaveLength(2);
    expect(specs?.[1]).toMatchObject({
      mode: "agent",
      erroredState: true,
      agent: { agentPoolName: "pool-a" },
      timestamps: { queuedAt: "2024-05-01T12:00:00+02:00", startedAt: "2024-05-01T10:00:05Z" },
      resources: { changes: 2 },
      stateVersionIds: ["sv-a", "sv-b"],
    });
  });

  it.each([
    [{ applies: {} }, /"applies" must be an array/],
    [{ applies: [1] }, /applies\[0\]: expected an object/],
    [{ applies: [{ ...ok, id: "run-1" }] }, /id must be a string of the form apply-<id>/],
    [{ applies: [{ ...ok, id: "apply-a/b" }] }, /id must be/],
    [{ applies: [{ ...ok, status: "applied" }] }, /status must be one of pending, managed_queued/],
    [{ applies: [{ ...ok, mode: "local" }] }, /mode must be "remote" or "agent"/],
    [{ applies: [{ ...ok, erroredState: undefined }] }, /erroredState must be true, false, or the raw state content/],
    [{ applies: [{ ...ok, erroredState: null }] }, /erroredState must be/],
    [{ applies: [{ ...ok, erroredState: 3 }] }, /erroredState must be/],
    [{ applies: [ok, { ...ok }] }, /applies\[1\]: duplicate id "apply-1"/],
    [{ applies: [{ ...ok, agentName: "x" }] }, /agent-name is only shown when mode is agent/],
    [{ applies: [{ ...ok, statusTimestamps: { queuedAt: "2024-05-01 12:00" } }] }, /status-timestamps.queued-at must be an ISO 8601 timestamp with offset/],
    [{ applies: [{ ...ok, statusTimestamps: { queuedAt: "2024-05-01T12:00:00" } }] }, /with offset/],
    [{ applies: [{ ...ok, resourceAdditions: -1 }] }, /resource-additions must be a non-negative integer/],
    [{ applies: [{ ...ok, "resource-imports": 1.5 }] }, /resource-imports must be a non-negative integer/],
    [{ applies: [{ ...ok, stateVersions: "sv-1" }] }, /state-versions must be an array/],
    [{ applies: [{ ...ok, log: 5 }] }, /log must be a string/],
  ])("rejects %j", (data, message) => {
    expect(() => parseDataApplies(data)).toThrow(ApplyDataError);
    expect(() => parseDataApplies(data)).toThrow(message);
  });

  it("stops the plugin at creation when the data file is invalid", () => {
    const ctx: ServerContext = {
      options: DEFAULT_OPTIONS,
      acl: new TokenAcl([]),
      version: { Version: "0", VersionPrerelease: "" },
      startedAt: new Date(),
      logEvents: newLogEvents(),
      data: { applies: [{ id: "apply-x", status: "done", mode: "remote", erroredState: false }] },
    };
    expect(() => runsRoutes(ctx)).toThrow(/applies\[0\]: status must be one of/);
  });
});

describe("demo applies", () => {
  const base = Date.UTC(2030, 0, 1);
  const applies = DEMO_APPLIES.map((s) => buildApply(s, base));

  it("cover every status of the seed, both modes, and errored state", () => {
    expect(new Set(applies.map((a) => a.status))).toEqual(new Set(APPLY_STATUSES));
    expect(new Set(applies.map((a) => a.execution.mode))).toEqual(new Set(["remote", "agent"]));
    const withState = applies.filter((a) => a.erroredState !== null);
    expect(withState.length).toBeGreaterThanOrEqual(2);
    for (const a of withState) {
      expect(a.status).toBe("errored");
      expect(a.stateVersionIds).toEqual([]);
      expect(JSON.parse(a.erroredState!).version).toBe(4);
    }
  });

  it("have timestamps in lifecycle order, before the start of the server, and none before queueing", () => {
    for (const a of applies) {
      const { queuedAt, startedAt, finishedAt } = a.timestamps;
      const times = [queuedAt, startedAt, finishedAt].filter((t) => t !== undefined).map((t) => Date.parse(t!));
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      for (const t of times) expect(t).toBeLessThan(base);
      if (a.status === "pending" || a.status === "unreachable") expect(a.timestamps).toEqual({});
      if (a.status === "queued" || a.status === "managed_queued") expect(Object.keys(a.timestamps)).toEqual(["queuedAt"]);
    }
  });

  it("give one agent or pool one id, also when the data file names them", () => {
    const pool = (name: string) => buildApply({ ...DEMO_APPLIES[0]!, id: name, mode: "agent", agent: { agentPoolName: "p", agentName: "n" } }, base);
    const [a, b] = [pool("apply-a").execution, pool("apply-b").execution];
    expect(a).toEqual(b);
    expect(a).toMatchObject({ mode: "agent", agentName: "n", agentPoolName: "p" });
    const given = buildApply({ ...DEMO_APPLIES[0]!, mode: "agent", agent: { agentId: "agent-x" } }, base).execution;
    expect(given).toMatchObject({ agentId: "agent-x" });
  });

  it("are the same every time", () => {
    expect(DEMO_APPLIES.map((s) => buildApply(s, base))).toEqual(applies);
  });
});

describe("URL signer", () => {
  it("binds the object, the apply and the expiry, and expires at the end of the window", () => {
    let now = 1_000_000;
    const signer = new UrlSigner({ now: () => now });
    const sig = signer.sign("errored-state", "apply-a", 60_000);
    const q = { expires: String(sig.expires), nonce: sig.nonce, signature: sig.signature };
    expect(signer.verify("errored-state", "apply-a", q)).toBe("valid");
    expect(signer.verify("log", "apply-a", q)).toBe("invalid");
    expect(signer.verify("errored-state", "apply-b", q)).toBe("invalid");
    expect(signer.verify("errored-state", "apply-a", { ...q, expires: String(sig.expires + 1) })).toBe("invalid");
    expect(signer.verify("errored-state", "apply-a", { ...q, signature: [q.signature] })).toBe("invalid");
    expect(new UrlSigner({ now: () => now }).verify("errored-state", "apply-a", q)).toBe("invalid");
    now += 59_999;
    expect(signer.verify("errored-state", "apply-a", q)).toBe("valid");
    now += 1;
    expect(signer.verify("errored-state", "apply-a", q)).toBe("expired");
    const again = signer.sign("errored-state", "apply-a", 60_000);
    expect(again.signature).not.toBe(sig.signature);
    expect(again.nonce).not.toBe(sig.nonce);
  });
});
