/** `--split` (with `--target`): the part of a valid filter for an older server, and the residual. */
import type { Split } from "../index.js";
import type { Style } from "./style.js";

/** The split as JSON fields (null: no filter for that part). */
export function splitJson(s: Split): Record<string, unknown> {
  return { target: s.target.name, bexpr: s.target.bexpr, server: s.server ?? null, residual: s.residual?.expression ?? null };
}

/** The split for people: what to send, what to run on the answer. */
export function splitText(s: Split, style: Style): string {
  return [
    `  ${style.dim(`split for ${s.target.name} (go-bexpr ${s.target.bexpr}):`)}`,
    `    server:   ${s.server ?? style.dim("(none: ask for every item)")}`,
    `    residual: ${s.residual?.expression ?? style.dim("(none: the server's answer is exact)")}`,
  ].join("\n");
}
