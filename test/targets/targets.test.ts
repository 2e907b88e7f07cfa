/**
 * Version targets through the public API: target names, each release's grammar, parse budget and
 * missing keys, and every consumer that takes a target (parse, compile, evaluate, explain, diagnose,
 * toSQL, FilterTable).
 */
import { describe, expect, it } from "vitest";
import { BEXPR_VERSIONS, compile, diagnose, evaluate, FilterTable, parse, resolveTarget, schemas, toSQL, UnknownTargetError } from "../../src/index.js";

const code = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code ?? (e as Error).name;
  }
};

describe("version targets", () => {
  it("resolves go-bexpr and scheduler releases, and names the known ones for anything else", () => {
    expect(resolveTarget("nomad@1.6.2")).toEqual({ name: "nomad@1.6.2", bexpr: "0.1.12" });
    expect(resolveTarget("nomad@1.6.3").bexpr).toBe("0.1.13");
    expect(resolveTarget("nomad@1.11.3").bexpr).toBe("0.1.16");
    expect(resolveTarget("go-bexpr@v0.1.15").name).toBe("go-bexpr@0.1.15");
    expect(() => resolveTarget("nomad@1.12.0")).toThrow(UnknownTargetError);
    expect(() => resolveTarget("bexpr")).toThrow(/known targets: go-bexpr@0\.1\.11, .*nomad@<release> for 1\.3\.0–1\.3\.16/);
    expect(() => compile("x == 1", { target: "nomad@1.0.0" })).toThrow(/nomad 1\.0\.0 has no filter expressions/);
  });

  it("rejects what each release's grammar lacks, with the release that brought it", () => {
    const collection = "any Tags as t { t == 1 }";
    expect(BEXPR_VERSIONS.map((v) => code(() => parse(collection, { target: `go-bexpr@${v}` })))).toEqual(["not-in-target", "not-in-target", undefined, undefined, undefined, undefined]);
    expect(BEXPR_VERSIONS.map((v) => code(() => parse("x is not nil", { target: `go-bexpr@${v}` })))).toEqual([...Array(5).fill("not-in-target"), undefined]);
    expect(() => parse("x == 1 or x is nil", { target: "nomad@1.10.5" })).toThrow(/"is nil" is not in nomad@1\.10\.5 \(go-bexpr 0\.1\.14\): it arrived in go-bexpr 0\.1\.16 \(nomad 1\.11\.3\) at 1:13/);
  });

  it("has the default parse budget from go-bexpr 0.1.15 on only", () => {
    const deep = `${"(".repeat(12)}a == 1${")".repeat(12)}`;
    expect(BEXPR_VERSIONS.map((v) => code(() => parse(deep, { target: `go-bexpr@${v}` })))).toEqual([undefined, undefined, undefined, undefined, "too-many-expressions", "too-many-expressions"]);
    // A caller's own budget counts on every release, as `WithMaxExpressions` did.
    expect(code(() => parse(deep, { target: "go-bexpr@0.1.13", maxExpressions: 2_000_000 }))).toBe("too-many-expressions");
  });

  it("fails on a missing map key at a selector's end on go-bexpr 0.1.11 only, compiled and interpreted", () => {
    const datum = { Meta: { team: "web" } };
    for (const v of BEXPR_VERSIONS) {
      const target = `go-bexpr@${v}`;
      const want = v === "0.1.11" ? "missing-key" : undefined;
      expect(code(() => compile('Meta.owner == "x"', { target }).evaluate(datum))).toBe(want);
      expect(code(() => evaluate('Meta.owner == "x"', datum, { target }))).toBe(want);
      expect(code(() => compile('Meta.owner == "x"', { target }).filter([datum]))).toBe(want);
    }
    const typed = compile('Multiregion.Strategy["canary"] == "1"', { schema: schemas.job, target: "nomad@1.3.0" });
    expect(code(() => typed.evaluate({ Multiregion: { Strategy: {} } }))).toBe("missing-key");
    expect(typed.evaluate({ Multiregion: { Strategy: { canary: 1 } } })).toBe(true);
    expect(compile('Multiregion.Strategy["canary"] == "1"', { schema: schemas.job, target: "nomad@1.3.14" }).evaluate({ Multiregion: { Strategy: {} } })).toBe(false);
  });

  it("explain, FilterTable, diagnose and toSQL answer as the filter's release", () => {
    const old = compile('Meta.owner == "x"', { target: "go-bexpr@0.1.11" });
    const items = [{ Meta: { owner: "x" } }, { Meta: {} }];
    expect(old.explain(items[1]).result).toMatchObject({ code: "missing-key" });
    expect(compile('Meta.owner == "x"').explain(items[1]).result).toBe(false);
    expect(code(() => FilterTable.from(items).filter(old))).toBe("missing-key");
    expect(FilterTable.from(items.slice(0, 1)).filter(old)).toEqual(items.slice(0, 1));
    // go-bexpr 0.1.11's failure cannot be told in SQL: every row goes to the compiled filter.
    expect(toSQL(old, { dialect: "postgres" }).where).toBe("TRUE");
    expect(toSQL('Meta.owner == "x"', { dialect: "postgres", target: "go-bexpr@0.1.11" }).where).toBe("TRUE");
    expect(toSQL('Meta.owner == "x"', { dialect: "postgres" }).where).not.toBe("TRUE");
    const found = diagnose('(any Tags as t { t is nil }) and Meta.owner == "x"', { target: "nomad@1.3.0" });
    expect(found.map((d) => [d.code, d.severity, d.span.start])).toEqual([
      ["not-in-target", "error", 1],
      ["not-in-target", "error", 19],
      ["target-behaviour", "warning", 33],
    ]);
    expect(diagnose('(any Tags as t { t is nil }) and Meta.owner == "x"')).toEqual([]);
  });
});
