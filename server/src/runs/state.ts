import type { ResourceCounts } from "./model.js";
import type { Plausible } from "./plausible.js";

/** A Terraform (format 4) state file as an agent would have uploaded it after the state upload failed. */
export function plausibleState(plausible: Plausible, resources: ResourceCounts): string {
  const count = Math.max(1, resources.additions + resources.changes + resources.imports);
  const instances = Array.from({ length: count }, (_, i) => ({
    index_key: i,
    schema_version: 0,
    attributes: { id: String(1_000_000_000 + plausible.int(0, 255) * 1000 + i), triggers: null },
    sensitive_attributes: [],
  }));
  const state = {
    version: 4,
    terraform_version: "1.9.5",
    serial: plausible.int(2, 60),
    lineage: plausible.uuid("lineage"),
    outputs: {},
    resources: [
      {
        mode: "managed",
        type: "null_resource",
        name: "app",
        provider: 'provider["registry.terraform.io/hashicorp/null"]',
        instances,
      },
    ],
    check_results: null,
  };
  return `${JSON.stringify(state, null, 2)}\n`;
}
