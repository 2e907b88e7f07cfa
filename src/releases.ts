/**
 * Every go-bexpr release the scheduler shipped, what each changed in the filter language, and which
 * scheduler releases carry it: the one table that version targets (`compile(…, { target })`),
 * `split` and `filter-check --target` read.
 *
 * Read from go-bexpr's tags (`CHANGELOG.md`, `grammar/grammar.peg`, `evaluate.go`, `bexpr.go`) and
 * from `go.mod` at every release tag of the scheduler (hashicorp/nomad v1.3.0 … v2.0.5; releases
 * before 1.3.0 have no filter expressions).
 */

/** A go-bexpr release the scheduler shipped. */
export type BexprVersion = "0.1.11" | "0.1.12" | "0.1.13" | "0.1.14" | "0.1.15" | "0.1.16";

/** The releases, oldest first. */
export const BEXPR_VERSIONS: readonly BexprVersion[] = ["0.1.11", "0.1.12", "0.1.13", "0.1.14", "0.1.15", "0.1.16"];

/** The release the library answers as by default. */
export const NEWEST: BexprVersion = "0.1.16";

/** A change in the language that a filter can depend on. */
export type Feature = "missing-leaf-answer" | "collections" | "parse-budget" | "is-nil" | "is-empty-error";

/** What each feature is, in words, and the go-bexpr release that brought it. */
export const FEATURES: Readonly<Record<Feature, { readonly since: BexprVersion; readonly what: string; readonly before: string }>> = {
  "missing-leaf-answer": {
    since: "0.1.12",
    what: "a key missing from a map at a selector's end takes the operator's fixed answer",
    before: "a key missing from a map at a selector's end is an error",
  },
  collections: { since: "0.1.13", what: "`any` and `all`", before: "`any` and `all` are syntax errors" },
  "parse-budget": {
    since: "0.1.15",
    what: "a default parse budget of 2,000,000 steps",
    before: "no parse budget: the parser's work grows about fourfold with each level of parentheses",
  },
  "is-nil": { since: "0.1.16", what: "`is nil` and `is not nil`", before: "`is nil` and `is not nil` are syntax errors" },
  "is-empty-error": {
    since: "0.1.16",
    what: "`is empty` on a value that is not a string, list or map is an error",
    before: "`is empty` on a value that is not a string, list or map panics (the server drops the request)",
  },
};

/**
 * The scheduler's releases per go-bexpr release: `[minor, first patch, last patch]`, from `go.mod` at
 * each tag of hashicorp/nomad.
 */
const NOMAD: Readonly<Record<BexprVersion, readonly (readonly [string, number, number])[]>> = {
  "0.1.11": [["1.3", 0, 13], ["1.4", 0, 8], ["1.5", 0, 3]],
  "0.1.12": [["1.3", 14, 16], ["1.4", 9, 13], ["1.5", 4, 9], ["1.6", 0, 2]],
  "0.1.13": [["1.4", 14, 14], ["1.5", 10, 17], ["1.6", 3, 10], ["1.7", 0, 7], ["1.8", 0, 4], ["1.9", 0, 6]],
  "0.1.14": [["1.9", 7, 7], ["1.10", 0, 5]],
  "0.1.15": [["1.11", 0, 2]],
  "0.1.16": [["1.11", 3, 3], ["2.0", 0, 5]],
};

/** A resolved version target: the name it was asked by and the go-bexpr release it means. */
export interface Target {
  /** As asked: `go-bexpr@0.1.12`, `nomad@1.6.2`. */
  readonly name: string;
  readonly bexpr: BexprVersion;
}

const order = (v: BexprVersion): number => BEXPR_VERSIONS.indexOf(v);

/** True when the target's go-bexpr has the feature. */
export function has(target: Target | BexprVersion, feature: Feature): boolean {
  const v = typeof target === "string" ? target : target.bexpr;
  return v === NEWEST || order(v) >= order(FEATURES[feature].since);
}

/** The scheduler's releases that carry `v`, as ranges in words: `1.3.0–1.3.13, 1.4.0–1.4.8`. */
export function nomadReleases(v: BexprVersion): string {
  return NOMAD[v].map(([minor, a, b]) => (a === b ? `${minor}.${a}` : `${minor}.${a}–${minor}.${b}`)).join(", ");
}

/** The first scheduler release that carries `v` or a newer go-bexpr. */
export function firstNomadWith(v: BexprVersion): string {
  const [minor, a] = NOMAD[v].reduce((best, r) => (compareNomad(`${r[0]}.${r[1]}`, `${best[0]}.${best[1]}`) < 0 ? r : best));
  return `${minor}.${a}`;
}

function compareNomad(a: string, b: string): number {
  const pa = a.split(".").map(Number), pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

/** Every target name the library knows, for messages and `--help`. */
export function knownTargets(): string {
  const last = new Map<string, number>();
  for (const ranges of Object.values(NOMAD)) for (const [minor, , b] of ranges) last.set(minor, Math.max(last.get(minor) ?? 0, b));
  const minors = [...last].sort((x, y) => compareNomad(`${x[0]}.0`, `${y[0]}.0`)).map(([minor, b]) => `${minor}.0–${minor}.${b}`);
  return `go-bexpr@${BEXPR_VERSIONS.join(", go-bexpr@")}, or nomad@<release> for ${minors.join(", ")}`;
}

/** An unknown or ambiguous target (a `TypeError`: it is a programming error, not bad input data). */
export class UnknownTargetError extends TypeError {
  override readonly name = "UnknownTargetError";
}

/** The default target: the newest release. */
export const NEWEST_TARGET: Target = Object.freeze({ name: `go-bexpr@${NEWEST}`, bexpr: NEWEST });

/**
 * Resolves a target name: `go-bexpr@0.1.12` (also `v0.1.12`) or `nomad@1.6.2`. Throws
 * `UnknownTargetError`, naming the known targets, for anything else.
 */
export function resolveTarget(name: string | Target): Target {
  if (name === NEWEST_TARGET) return name;
  if (typeof name !== "string") return resolveTarget(name.name);
  let target = RESOLVED.get(name);
  if (target === undefined) {
    target = Object.freeze(resolveName(name));
    // A name resolves alike every time: keep it (the names that resolve are a few hundred at most).
    if (RESOLVED.size < 1024) RESOLVED.set(name, target);
  }
  return target;
}

/** Names resolved before (a compile resolves its target's name once). */
const RESOLVED = new Map<string, Target>([[NEWEST_TARGET.name, NEWEST_TARGET]]);

function resolveName(name: string): Target {
  const m = /^(go-bexpr|nomad)@v?(\d+\.\d+\.\d+)$/.exec(name.trim());
  if (m) {
    const [, family, version] = m as unknown as [string, string, string];
    if (family === "go-bexpr" && (BEXPR_VERSIONS as readonly string[]).includes(version)) return { name: `go-bexpr@${version}`, bexpr: version as BexprVersion };
    if (family === "nomad") {
      const [major, minor, patch] = version.split(".").map(Number) as [number, number, number];
      for (const v of BEXPR_VERSIONS) {
        if (NOMAD[v].some(([mm, a, b]) => mm === `${major}.${minor}` && patch >= a && patch <= b)) return { name: `nomad@${version}`, bexpr: v };
      }
      if (compareNomad(version, "1.3.0") < 0) throw new UnknownTargetError(`unknown target "${name}": nomad ${version} has no filter expressions (they arrived in 1.3.0)`);
    }
  }
  throw new UnknownTargetError(`unknown target "${name}"; known targets: ${knownTargets()}`);
}
