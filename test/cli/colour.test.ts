import { describe, expect, it } from "vitest";
import { run } from "./helpers.js";

const ESC = "\u001b[";
const args = ["--schema", "job", "Stauts == running", 'ID == "/x"', "Stop == true"];

describe("filter-check: colours", () => {
  it("are off when stdout is not a terminal, and with NO_COLOR even when forced", async () => {
    const [piped, noColour] = await Promise.all([run(args), run(args, { env: { FORCE_COLOR: "1", NO_COLOR: "1" } })]);
    for (const r of [piped, noColour]) {
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("error[unknown-field]");
      expect(r.stdout).not.toContain(ESC);
    }
    expect(noColour.stdout).toBe(piped.stdout);
  });

  it("are on with FORCE_COLOR: errors red, warnings yellow, valid green; the text is the same without the codes", async () => {
    const [plain, forced] = await Promise.all([run(args), run(args, { env: { FORCE_COLOR: "1" } })]);
    expect(forced.code).toBe(1);
    expect(forced.stdout).toContain(`${ESC}1;31merror[unknown-field]${ESC}22;39m`);
    expect(forced.stdout).toContain(`${ESC}1;33mwarning[pointer-value]${ESC}22;39m`);
    expect(forced.stdout).toContain(`${ESC}32mvalid${ESC}39m`);
    expect(forced.stdout.replace(/\u001b\[[0-9;]*m/g, "")).toBe(plain.stdout);
  });

  it("on stderr with --data follow stderr's settings too", async () => {
    const r = await run(["--data", "-", "a.b == 1"], { input: '{"a": 1}\n', env: { FORCE_COLOR: "1" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${ESC}1;31merror[invalid-path]`);
    const plain = await run(["--data", "-", "a.b == 1"], { input: '{"a": 1}\n', env: { NO_COLOR: "1" } });
    expect(plain.stderr).toContain("error[invalid-path]");
    expect(plain.stderr).not.toContain(ESC);
  });
});
