import type { ApplySpec } from "./build.js";

/**
 * The applies the server shows when the data file has no "applies": one in every status of the
 * seed's status table, both execution modes, and some errored applies whose state was recovered.
 */
export const DEMO_APPLIES: readonly ApplySpec[] = [
  { id: "apply-demo-pending", status: "pending", mode: "remote", erroredState: false },
  { id: "apply-demo-managed-queued", status: "managed_queued", mode: "agent", erroredState: false },
  { id: "apply-demo-queued", status: "queued", mode: "remote", erroredState: false },
  { id: "apply-demo-running", status: "running", mode: "agent", erroredState: false },
  { id: "apply-demo-errored", status: "errored", mode: "remote", erroredState: false },
  { id: "apply-demo-errored-state", status: "errored", mode: "agent", erroredState: true },
  { id: "apply-demo-errored-state-remote", status: "errored", mode: "remote", erroredState: true },
  { id: "apply-demo-canceled", status: "canceled", mode: "remote", erroredState: false },
  { id: "apply-demo-finished", status: "finished", mode: "remote", erroredState: false },
  { id: "apply-demo-finished-agent", status: "finished", mode: "agent", erroredState: false },
  { id: "apply-demo-unreachable", status: "unreachable", mode: "remote", erroredState: false },
];
