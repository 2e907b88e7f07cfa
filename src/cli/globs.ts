/**
 * File patterns (globs) for the command line, as eslint and the shells read them, without a runtime
 * dependency (Node 20 has no `fs.glob`):
 *
 * - `*` any run of characters in a name, `?` one character, `[abc]` `[a-z]` `[!a]` `[^a]` one of a set;
 *   none of them matches a `/`, nor a name's leading `.` (write `.*` for dot files);
 * - `{a,b}` alternatives (nested braces too; a brace with no comma is literal);
 * - `**` as a whole segment: any number of directories, itself included (`a/**` is `a/**\/*`); it does
 *   not enter `node_modules` nor directories whose name starts with `.` (name them to search them:
 *   `.config/**\/*.txt`), and it follows a link to a directory unless that directory is one it is
 *   already in (no symlink loops);
 * - `\` escapes the next character.
 *
 * A pattern matches files only (not directories); the matches are paths written as the pattern is
 * (relative to the working directory when the pattern is), sorted by code unit, each once.
 */
import type { Stats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { resolve } from "node:path";

/** Whether `text` holds glob syntax: an unescaped `*`, `?`, `[` or `{`. */
export function hasGlobSyntax(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "*" || c === "?" || c === "[" || c === "{") return true;
  }
  return false;
}

/** The files `pattern` matches, relative to `cwd` (default: the working directory): sorted, each once. */
export async function glob(pattern: string, cwd: string = process.cwd()): Promise<string[]> {
  const found = new Set<string>();
  for (const alternative of expandBraces(pattern)) {
    const { root, segments } = compilePattern(alternative);
    await walk({ cwd, found }, root, segments, 0, new Set());
  }
  return [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The patterns `{…,…}` stands for, in order: `{a,b}/*.txt` → `a/*.txt`, `b/*.txt`. A brace without a
 * top-level comma, or without its closing brace, is literal text.
 */
export function expandBraces(pattern: string): string[] {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c !== "{") continue;
    const group = braceGroup(pattern, i);
    if (group === undefined) continue;
    const before = pattern.slice(0, i);
    const after = pattern.slice(group.end + 1);
    return [...new Set(group.alternatives.flatMap((a) => expandBraces(before + a + after)))];
  }
  return [pattern];
}

/** The alternatives of the brace group opening at `open`, and where it closes; undefined without a comma or `}`. */
function braceGroup(pattern: string, open: number): { alternatives: string[]; end: number } | undefined {
  const alternatives: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    else if (c === "," && depth === 0) {
      alternatives.push(pattern.slice(start, i));
      start = i + 1;
    } else if (c === "}") {
      if (alternatives.length === 0) return undefined;
      alternatives.push(pattern.slice(start, i));
      return { alternatives, end: i };
    }
  }
  return undefined;
}

/** One step of a pattern: a literal name, `**`, or a name pattern. */
type Segment = { readonly kind: "name"; readonly name: string } | { readonly kind: "globstar" } | { readonly kind: "wild"; readonly test: (name: string) => boolean };

/** A brace-free pattern as its start (`/` or the working directory) and its steps. */
function compilePattern(pattern: string): { root: string; segments: Segment[] } {
  const absolute = pattern.startsWith("/");
  const parts = pattern.split("/").filter((p) => p !== "");
  if (parts.at(-1) === "**") parts.push("*");
  const segments = parts.map((part): Segment => {
    if (part === "**") return { kind: "globstar" };
    if (!hasGlobSyntax(part)) return { kind: "name", name: part.replace(/\\(.)/g, "$1") };
    const re = segmentRegExp(part);
    // A set that is no set (`[z-a]`) leaves the segment a plain name, as the shells do.
    if (re === undefined) return { kind: "name", name: part.replace(/\\(.)/g, "$1") };
    const dot = part.startsWith(".");
    return { kind: "wild", test: (name) => (dot || !name.startsWith(".")) && re.test(name) };
  });
  return { root: absolute ? "/" : "", segments };
}

/** The regular expression of one segment with `*`, `?` and `[…]`; undefined when a set is invalid (`[z-a]`). */
function segmentRegExp(part: string): RegExp | undefined {
  try {
    return new RegExp(`^${segmentSource(part)}$`, "u");
  } catch {
    return undefined;
  }
}

/** The regular expression source of one segment. */
function segmentSource(part: string): string {
  let out = "";
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    if (c === "\\" && i + 1 < part.length) out += escapeRegExp(part[++i]!);
    else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const set = characterSet(part, i);
      if (set === undefined) out += "\\[";
      else {
        out += set.source;
        i = set.end;
      }
    } else out += escapeRegExp(c);
  }
  return out;
}

/** The set `[…]` opening at `open`, as a regular expression class, and where it closes; undefined when unclosed. */
function characterSet(part: string, open: number): { source: string; end: number } | undefined {
  let i = open + 1;
  let negate = false;
  if (part[i] === "!" || part[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  for (let first = true; i < part.length; i++, first = false) {
    const c = part[i]!;
    if (c === "]" && !first) return { source: `[${negate ? "^/" : ""}${body}]`, end: i };
    if (c === "\\" && i + 1 < part.length) body += escapeInSet(part[++i]!);
    else if (c === "-" && !first && part[i + 1] !== "]") body += "-";
    else body += escapeInSet(c);
  }
  return undefined;
}

/** A character as itself outside a set (only the escapes the `u` flag allows). */
function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** A character as itself inside a set. */
function escapeInSet(c: string): string {
  return /[\\\]^[-]/.test(c) ? `\\${c}` : c;
}

/** `name` under `prefix`, as the match is written. */
function under(prefix: string, name: string): string {
  return prefix === "" ? name : prefix.endsWith("/") ? `${prefix}${name}` : `${prefix}/${name}`;
}

interface Walk {
  readonly cwd: string;
  readonly found: Set<string>;
}

/**
 * Matches `segments[i…]` under `prefix` (a path as written; "" for the working directory). `inside`:
 * the directories (device and inode) a `**` has entered on the way here, which it does not enter again.
 */
async function walk(w: Walk, prefix: string, segments: readonly Segment[], i: number, inside: ReadonlySet<string>): Promise<void> {
  const path = resolve(w.cwd, prefix === "" ? "." : prefix);
  const segment = segments[i];
  if (segment === undefined) {
    if ((await statOf(path))?.isFile()) w.found.add(prefix);
    return;
  }
  if (segment.kind === "name") return walk(w, under(prefix, segment.name), segments, i + 1, inside);
  const entries = await namesIn(path);
  if (segment.kind === "wild") {
    for (const name of entries) if (segment.test(name)) await walk(w, under(prefix, name), segments, i + 1, inside);
    return;
  }
  // `**`: no directory here, then one more directory and `**` again.
  const here = await statOf(path);
  if (here === undefined || !here.isDirectory()) return;
  const entered = new Set(inside).add(`${here.dev}:${here.ino}`);
  await walk(w, prefix, segments, i + 1, entered);
  for (const name of entries) {
    if (name.startsWith(".") || name === "node_modules") continue;
    const s = await statOf(resolve(path, name));
    if (s === undefined || !s.isDirectory() || entered.has(`${s.dev}:${s.ino}`)) continue;
    await walk(w, under(prefix, name), segments, i, entered);
  }
}

/** The names in a directory, sorted; none when it cannot be read (not a directory, no such path, no permission). */
async function namesIn(path: string): Promise<string[]> {
  try {
    return (await readdir(path)).sort();
  } catch {
    return [];
  }
}

/** What `stat` says (through links), or undefined when there is nothing there (or a link loop). */
async function statOf(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}
