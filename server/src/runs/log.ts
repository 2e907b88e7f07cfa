import type { ApplyStatus, ExecutionDetails, ResourceCounts } from "./model.js";

export interface LogFacts {
  status: ApplyStatus;
  execution: ExecutionDetails;
  resources: ResourceCounts;
  hasErroredState: boolean;
}

/** A plausible apply log for an apply that was not given one. */
export function plausibleLog(facts: LogFacts): string {
  const { status, execution, resources } = facts;
  switch (status) {
    case "pending":
      return "";
    case "managed_queued":
    case "queued":
      return "Waiting for the apply to start...\n";
    case "unreachable":
      return "This apply will not run: the run did not reach the apply stage.\n";
    default:
      break;
  }
  const lines: string[] = [];
  if (execution.mode === "agent") {
    lines.push(`Running apply on agent ${execution.agentName} (pool ${execution.agentPoolName})`);
  } else {
    lines.push("Running apply in the remote backend.");
  }
  lines.push("", "Terraform v1.9.5", "on linux_amd64", "Initializing plugins and modules...", "");
  for (let i = 0; i < resources.additions; i++) {
    lines.push(`null_resource.app[${i}]: Creating...`, `null_resource.app[${i}]: Creation complete after 1s`);
  }
  for (let i = 0; i < resources.changes; i++) {
    lines.push(`null_resource.cfg[${i}]: Modifying...`, `null_resource.cfg[${i}]: Modifications complete after 1s`);
  }
  for (let i = 0; i < resources.destructions; i++) {
    lines.push(`null_resource.old[${i}]: Destroying...`, `null_resource.old[${i}]: Destruction complete after 0s`);
  }
  lines.push("");
  const summary = `Resources: ${resources.additions} added, ${resources.changes} changed, ${resources.destructions} destroyed.`;
  switch (status) {
    case "running":
      break;
    case "finished":
      lines.push(`Apply complete! ${summary}`);
      break;
    case "canceled":
      lines.push("Interrupt received. Stopping operations...", `Apply canceled. ${summary}`);
      break;
    case "errored":
      if (facts.hasErroredState) {
        lines.push(
          "Error: Failed to save state",
          "",
          "Error saving state: failed to upload state: 503 Service Unavailable.",
          "The state was uploaded to fallback storage; it can be recovered from the apply's errored-state endpoint.",
        );
      } else {
        lines.push("Error: creating resource: timeout while waiting for state to become 'ready'");
      }
      break;
  }
  return `${lines.join("\n")}\n`;
}
