import type { Apply, ExecutionDetails } from "./model.js";

export const JSONAPI_MEDIA_TYPE = "application/vnd.api+json";

export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
}

export interface ErrorDocument {
  errors: ErrorObject[];
}

/** The seed's apply document, with its self link and its log read URL already built. */
export function applyDocument(apply: Apply, links: { self: string; logReadUrl: string }) {
  return {
    data: {
      id: apply.id,
      type: "applies",
      attributes: {
        status: apply.status,
        "execution-details": executionDetails(apply.execution),
        "status-timestamps": {
          ...(apply.timestamps.queuedAt !== undefined && { "queued-at": apply.timestamps.queuedAt }),
          ...(apply.timestamps.startedAt !== undefined && { "started-at": apply.timestamps.startedAt }),
          ...(apply.timestamps.finishedAt !== undefined && { "finished-at": apply.timestamps.finishedAt }),
        },
        "log-read-url": links.logReadUrl,
        "resource-additions": apply.resources.additions,
        "resource-changes": apply.resources.changes,
        "resource-destructions": apply.resources.destructions,
        "resource-imports": apply.resources.imports,
      },
      relationships: {
        "state-versions": {
          data: apply.stateVersionIds.map((id) => ({ id, type: "state-versions" })),
        },
      },
      links: { self: links.self },
    },
  };
}

function executionDetails(details: ExecutionDetails): Record<string, string> {
  if (details.mode === "remote") return { mode: "remote" };
  return {
    mode: "agent",
    "agent-id": details.agentId,
    "agent-name": details.agentName,
    "agent-pool-id": details.agentPoolId,
    "agent-pool-name": details.agentPoolName,
  };
}

export function errorDocument(status: number, title: string, detail?: string): ErrorDocument {
  const error: ErrorObject = { status: String(status), title };
  if (detail !== undefined) error.detail = detail;
  return { errors: [error] };
}
