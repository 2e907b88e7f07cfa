/**
 * The filters of the attack benchmark. Evaluation steps as the library counts them
 * (src/evaluate/budget.ts): one per iteration of an any/all body plus one per match test of the
 * body's own level. A full nest of `d` anys over a list of `n` costs n + n² + … + n^(d−1) + 2·n^d.
 * The demo data's Datacenters have 1 to 3 of dc1, dc2, dc3, eu-west-1, us-east-1 (system jobs all
 * five); the attacks' writes have dc1 … dc5.
 */

/**
 * `any SELECTOR as P<from> { … any SELECTOR as P<from+d−1> { INNER } … }`: `depth` anys, each level's
 * `guard(variable)` (if any) before the next.
 */
function nest(selector: string, prefix: string, depth: number, inner: string, guard: (v: string) => string = () => "", from = 0): string {
  let body = inner;
  for (let i = from + depth - 1; i >= from; i--) {
    const g = guard(`${prefix}${i}`);
    body = `any ${selector} as ${prefix}${i} { ${g === "" ? body : `${g} and (${body})`} }`;
  }
  return body;
}

/**
 * An event stream's filter (the event schema) of about `bytes` bytes, distinct for each `k`: nine
 * nested anys over `Payload.Job.Datacenters` (4,394,530 steps on a job of five datacenters), so that
 * it spends the whole per-event budget (1,000,000 steps) and fails without matching on each Job
 * event of the attack's writes.
 */
export function streamFilter(k: number, bytes = 1024): string {
  const make = (constant: string): string => nest("Payload.Job.Datacenters", "v", 9, `v0 == "${constant}"`);
  const short = make(`s${k}-`);
  return make(`s${k}-${"x".repeat(Math.max(0, bytes - short.length))}`);
}

/**
 * A list filter (the job schema) distinct for each `k` that never matches and costs at most the
 * per-item budget: nine nested anys over `Datacenters`, the outermost guarded by `v0 == "dc1"`, so
 * that only the dc1 element recurses eight levels deep. On a job with all five demo datacenters it
 * costs 878,915 steps, on a job of three with dc1 16,407; it is never refused as too expensive, so a
 * scan evaluates it on every item of the list. (A guard on every level needs a parenthesis each, and
 * the reference's parser gives up on six such levels: "max number of expressions parsed"; nine anys
 * nested by `or` cost 4,882,810 steps on five datacenters, and a list is refused at its first such job.)
 */
export function scanFilter(k: number): string {
  return nest("Datacenters", "v", 1, nest("Datacenters", "v", 8, `v8 == "x${k}"`, undefined, 1), (v) => `${v} == "dc1"`);
}

/**
 * A blocking query's filter (the job schema) distinct for each `k` that `FilterSet` cannot index (an
 * `or` at the top) and that never matches: two nested anys guarded by datacenters the demo data does
 * not have (`dc4`, `dc5`: at most 20 steps on a demo job), which then recurse eight and six levels
 * deep on a job in dc1 … dc5 (878,915 + 35,165 = 914,080 steps, within the 1,000,000-step budget).
 */
export function waiterFilter(k: number): string {
  const side = (prefix: string, dc: string, depth: number): string =>
    nest("Datacenters", prefix, 1, nest("Datacenters", prefix, depth, `${prefix}${depth} == "w${k}"`, undefined, 1), (v) => `${v} == "${dc}"`);
  return `(${side("a", "dc4", 8)}) or (${side("b", "dc5", 6)})`;
}

/** 100,000 opening parentheses, `a == K`, 100,000 closing ones: about 200 KB of URL, distinct for each `k`. */
export function parensFilter(k: number, depth = 100_000): string {
  return `${"(".repeat(depth)}a == ${k}${")".repeat(depth)}`;
}
