import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FilterSyntaxError, parse, print } from "../../src/index.js";

// Golden fixtures of the parser, in the style of typescript-eslint's ast-spec: each
// test/syntax/golden/{valid,invalid}/NAME.filter holds one expression exactly as a user types it;
// beside it, NAME.ast.json is the AST it parses to (every span included), or NAME.error.json the
// syntax error it raises (code, message, span, code frame). A change of the parser's output shows
// as a diff of these files in review. A new fixture's snapshot is written by a local `npx vitest run`
// and must be committed (CI, run with CI=true, never writes one: a missing snapshot fails there).
const GOLDEN = fileURLToPath(new URL("./golden/", import.meta.url));

function fixtures(group: "valid" | "invalid"): { name: string; text: string }[] {
  return readdirSync(join(GOLDEN, group))
    .filter((f) => f.endsWith(".filter"))
    .sort()
    .map((f) => ({ name: f.slice(0, -".filter".length), text: readFileSync(join(GOLDEN, group, f), "utf8") }));
}

describe("golden ASTs of valid expressions", () => {
  for (const { name, text } of fixtures("valid")) {
    it(name, async () => {
      const ast = parse(text);
      await expect(`${JSON.stringify(ast, null, 2)}\n`).toMatchFileSnapshot(join(GOLDEN, "valid", `${name}.ast.json`));
      // The canonical text parses back to the same tree (spans aside, which follow the new text).
      expect(print(parse(print(ast)))).toBe(print(ast));
    });
  }
});

describe("golden errors of invalid expressions", () => {
  for (const { name, text } of fixtures("invalid")) {
    it(name, async () => {
      let error: unknown;
      try {
        parse(text);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FilterSyntaxError);
      const e = error as FilterSyntaxError;
      const golden = { code: e.code, message: e.message, span: e.span, frame: e.codeFrame().split("\n") };
      await expect(`${JSON.stringify(golden, null, 2)}\n`).toMatchFileSnapshot(join(GOLDEN, "invalid", `${name}.error.json`));
    });
  }
});
