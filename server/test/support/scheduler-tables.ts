/**
 * The scheduler's own pagination test tables (jobs: TestJobEndpoint_ListJobs_PaginationFiltering,
 * deployments: TestDeploymentEndpoint_List_Pagination), shared by the tests that serve them.
 */

/** The jobs: ID, namespace, status, in the table's order (CreateIndex 1000 + position). */
export const PAGINATION_JOBS: readonly (readonly [id: string, namespace: string, status: string])[] = [
  ["job-01", "default", "pending"],
  ["job-02", "default", "pending"],
  ["job-03", "non-default", "pending"],
  ["job-04", "default", "pending"],
  ["job-05", "default", "running"],
  ["job-06", "default", "running"],
  ["job-08", "default", "pending"],
  ["job-03", "other", "pending"],
];

/** What every deployment ID of the table ends with. */
export const SUFFIX = "-3350-4b4b-d185-0e1992ed43e9";

/** The deployments, cancelled, of the job "web". */
export const PAGINATION_DEPLOYMENTS = [
  ["aaaa1111", "default", 1000],
  ["aaaaaa22", "default", 1001],
  ["aaaaaa33", "non-default", 1002],
  ["aaaaaaaa", "default", 1003],
  ["aaaaaabb", "default", 1004],
  ["aaaaaacc", "default", 1005],
  ["aaaaaadd", "default", 1006],
  ["00000111", "default", 1007],
  ["bbbb1111", "default", 1009],
].map(([id, ns, ci]) => ({ ID: `${id}${SUFFIX}`, Namespace: ns, Status: "cancelled", JobID: "web", CreateIndex: ci, ModifyIndex: ci }));

/** A deployment ID without the table's common suffix. */
export const short = (id: string): string => id.replace(SUFFIX, "");
