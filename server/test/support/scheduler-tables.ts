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

/** A page of a list: the case's name, the query, the IDs answered (deployments without `SUFFIX`), the next token. */
export type PageCase = [name: string, query: string, ids: string[], next: string | null];

/** The jobs table's pages (numbered as the scheduler's own cases), with the cases this project adds. */
export const JOB_PAGES: PageCase[] = [
  ["01 first page", "per_page=2", ["job-01", "job-02"], "default.job-04"],
  ["03 second page", "per_page=2&next_token=default.job-04", ["job-04", "job-05"], "default.job-06"],
  ["04 prefix, second page", "prefix=job&per_page=2&next_token=default.job-04", ["job-04", "job-05"], "default.job-06"],
  ["02 prefix", "prefix=job&per_page=2", ["job-01", "job-02"], "default.job-04"],
  ["05 prefix without match", "prefix=not-job&per_page=2", [], null],
  ["11 token of a missing job", "per_page=1&next_token=default.job-07", ["job-08"], null],
  ["all namespaces", "namespace=*&per_page=3", ["job-01", "job-02", "job-04"], "default.job-05"],
  ["all namespaces, last page", "namespace=*&per_page=3&next_token=non-default.job-03", ["job-03", "job-03"], null],
  ["token from another namespace", "next_token=other.x", [], null],
  ["reverse", "reverse=true&per_page=2", ["job-08", "job-06"], "default.job-05"],
  ["reverse, second page", "reverse=true&per_page=2&next_token=default.job-05", ["job-05", "job-04"], "default.job-02"],
  ["reverse=1 is not true", "reverse=1&per_page=1", ["job-01"], "default.job-02"],
  ["per_page=0 means no limit", "per_page=0", ["job-01", "job-02", "job-04", "job-05", "job-06", "job-08"], null],
];

/** The deployments table's pages (numbered as the scheduler's own cases), with the cases this project adds. */
export const DEPLOYMENT_PAGES: PageCase[] = [
  ["01 first page", "per_page=2", ["aaaa1111", "aaaaaa22"], `1003.aaaaaaaa${SUFFIX}`],
  ["02 prefix tokens are IDs", "prefix=aaaa&per_page=2", ["aaaa1111", "aaaaaa22"], `aaaaaaaa${SUFFIX}`],
  ["03 second page", `per_page=2&next_token=1003.aaaaaaaa${SUFFIX}`, ["aaaaaaaa", "aaaaaabb"], `1005.aaaaaacc${SUFFIX}`],
  ["04 prefix, second page", `prefix=aaaa&per_page=2&next_token=aaaaaabb${SUFFIX}`, ["aaaaaabb", "aaaaaacc"], `aaaaaadd${SUFFIX}`],
  ["05 all namespaces", `namespace=*&per_page=2&next_token=1002.aaaaaa33${SUFFIX}`, ["aaaaaa33", "aaaaaaaa"], `1004.aaaaaabb${SUFFIX}`],
  ["06 prefix without match", "prefix=cccc&per_page=2", [], null],
  ["13 CreateIndex compares as a number", `per_page=1&next_token=1007.00000111${SUFFIX}`, ["00000111"], `1009.bbbb1111${SUFFIX}`],
  ["14 token of a missing deployment", "per_page=1&next_token=1008.e9522802-0cd8-4b1d-9c9e-ab3d97938371", ["bbbb1111"], null],
  ["15 all namespaces with prefix", `namespace=*&prefix=aaaa&per_page=2&next_token=aaaaaa33${SUFFIX}`, ["aaaaaa33", "aaaaaaaa"], `aaaaaabb${SUFFIX}`],
  ["reverse", "namespace=*&reverse=true&per_page=3", ["bbbb1111", "00000111", "aaaaaadd"], `1005.aaaaaacc${SUFFIX}`],
  ["negative CreateIndex skips everything", "next_token=-5.x", [], null],
];
