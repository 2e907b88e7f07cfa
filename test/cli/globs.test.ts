/**
 * The file patterns of the command line (src/cli/globs.ts) on a tree of their own: what each piece of
 * syntax matches, what `**` leaves out, links (a loop included), and the order of the matches.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { expandBraces, glob, hasGlobSyntax } from "../../src/cli/globs.js";

let dir: string;
let outside: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "filter-check-globs-"));
  outside = mkdtempSync(join(tmpdir(), "filter-check-globs-outside-"));
  const files = [
    "a.txt",
    "b.txt",
    "c.md",
    ".dot.txt",
    "ab.txt",
    "star*.txt",
    "sub/a.txt",
    "sub/deeper/z.txt",
    "sub/deeper/y.md",
    "node_modules/pkg/n.txt",
    ".hidden/h.txt",
    "sub/.hidden/h2.txt",
    "other/o.txt",
  ];
  for (const f of files) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), "a == 1\n");
  }
  mkdirSync(join(dir, "dir.txt")); // a directory whose name matches *.txt
  writeFileSync(join(outside, "linked.txt"), "a == 1\n");
  symlinkSync("..", join(dir, "sub", "deeper", "up")); // a loop: sub/deeper/up is sub
  symlinkSync(dir, join(dir, "other", "root")); // a loop to the top
  symlinkSync(outside, join(dir, "sub", "out")); // a link out of the tree: followed
});

const g = (pattern: string) => glob(pattern, dir);

describe("globs", () => {
  it("hasGlobSyntax: *, ?, [ and { unless escaped", () => {
    for (const p of ["*.txt", "a?.txt", "[ab].txt", "{a,b}.txt", "**/x"]) expect(hasGlobSyntax(p), p).toBe(true);
    for (const p of ["a.txt", "dir/a.txt", "\\*.txt", "a == 1", ""]) expect(hasGlobSyntax(p), p).toBe(false);
  });

  it("expandBraces: alternatives in order, nested, and literal braces without a comma or a close", () => {
    expect(expandBraces("{a,b}/*.txt")).toEqual(["a/*.txt", "b/*.txt"]);
    expect(expandBraces("x{a,{b,c}}y")).toEqual(["xay", "xby", "xcy"]);
    expect(expandBraces("{a,b}{1,2}")).toEqual(["a1", "a2", "b1", "b2"]);
    expect(expandBraces("{a}.txt")).toEqual(["{a}.txt"]);
    expect(expandBraces("{a,b.txt")).toEqual(["{a,b.txt"]);
    expect(expandBraces("\\{a,b}")).toEqual(["\\{a,b}"]);
    expect(expandBraces("{a,a}")).toEqual(["a"]);
  });

  it("* and ? match within a name, not a leading dot, nor a directory", async () => {
    expect(await g("*.txt")).toEqual(["a.txt", "ab.txt", "b.txt", "star*.txt"]);
    expect(await g("?.txt")).toEqual(["a.txt", "b.txt"]);
    expect(await g(".*.txt")).toEqual([".dot.txt"]);
    expect(await g("*")).toEqual(["a.txt", "ab.txt", "b.txt", "c.md", "star*.txt"]);
  });

  it("sets, escapes, and a set that is no set", async () => {
    expect(await g("[ab].txt")).toEqual(["a.txt", "b.txt"]);
    expect(await g("[!a].txt")).toEqual(["b.txt"]);
    expect(await g("[^a].txt")).toEqual(["b.txt"]);
    expect(await g("[a-b]*.txt")).toEqual(["a.txt", "ab.txt", "b.txt"]);
    expect(await g("star\\*.txt")).toEqual(["star*.txt"]);
    expect(await g("[z-a].txt")).toEqual([]);
    expect(await g("[ab.txt")).toEqual([]);
  });

  it("braces give the union of their patterns, sorted, each file once", async () => {
    expect(await g("{b,a,a}.txt")).toEqual(["a.txt", "b.txt"]);
    expect(await g("{*.md,sub/*.txt,a.txt}")).toEqual(["a.txt", "c.md", "sub/a.txt"]);
  });

  it("** crosses directories (none included), leaves out node_modules and dot directories, and stops at loops", async () => {
    expect(await g("**/*.txt")).toEqual(["a.txt", "ab.txt", "b.txt", "other/o.txt", "star*.txt", "sub/a.txt", "sub/deeper/z.txt", "sub/out/linked.txt"]);
    expect(await g("sub/**")).toEqual(["sub/a.txt", "sub/deeper/y.md", "sub/deeper/z.txt", "sub/out/linked.txt"]);
    expect(await g("sub/**/z.txt")).toEqual(["sub/deeper/z.txt"]);
  });

  it("named, node_modules and dot directories are searched", async () => {
    expect(await g("node_modules/**/*.txt")).toEqual(["node_modules/pkg/n.txt"]);
    expect(await g(".hidden/*.txt")).toEqual([".hidden/h.txt"]);
    expect(await g("**/.hidden/*.txt")).toEqual([".hidden/h.txt", "sub/.hidden/h2.txt"]);
  });

  it("matches are written as the pattern is: ./ kept, absolute patterns absolute", async () => {
    expect(await g("./sub/*.txt")).toEqual(["./sub/a.txt"]);
    expect(await g(`${dir}/sub/*.txt`)).toEqual([`${dir}/sub/a.txt`]);
    expect(await g("sub//deeper/*.txt")).toEqual(["sub/deeper/z.txt"]);
    expect(await g("nowhere/**/*.txt")).toEqual([]);
    expect(await g("a.txt/*")).toEqual([]);
  });
});
