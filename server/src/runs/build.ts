import { plausibleLog } from "./log.js";
import type { Apply, ApplyStatus, ExecutionDetails, ExecutionMode, ResourceCounts, StatusTimestamps } from "./model.js";
import { Plausible } from "./plausible.js";
import { plausibleState } from "./state.js";

/** What an apply must be given; everything else gets a plausible value. */
export interface ApplySpec {
  id: string;
  status: ApplyStatus;
  mode: ExecutionMode;
  /** true: a plausible state was uploaded; false: none; a string: the raw state content */
  erroredState: boolean | string;
  agent?: Partial<Omit<Extract<ExecutionDetails, { mode: "agent" }>, "mode">>;
  /** used as given (keys left out stay absent) */
  timestamps?: StatusTimestamps;
  resources?: Partial<ResourceCounts>;
  stateVersionIds?: string[];
  log?: string;
}

/** Completes a spec into an apply; `baseMs` is the time plausible timestamps end before. */
export function buildApply(spec: ApplySpec, baseMs: number): Apply {
  const plausible = new Plausible(spec.id);
  const execution: ExecutionDetails = spec.mode === "agent" ? plausible.agent(spec.agent) : { mode: "remote" };
  const resources: ResourceCounts = { ...plausible.resources(spec.status), ...spec.resources };
  const hasErroredState = spec.erroredState !== false;
  const erroredState =
    spec.erroredState === true
      ? plausibleState(plausible, resources)
      : spec.erroredState === false
        ? null
        : spec.erroredState;
  return {
    id: spec.id,
    status: spec.status,
    execution,
    timestamps: spec.timestamps ?? plausible.timestamps(spec.status, baseMs),
    resources,
    stateVersionIds: spec.stateVersionIds ?? plausible.stateVersionIds(spec.status, hasErroredState),
    log: spec.log ?? plausibleLog({ status: spec.status, execution, resources, hasErroredState }),
    erroredState,
  };
}
