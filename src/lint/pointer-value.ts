/**
 * `ID == "/x"`: a double-quoted value shaped like a JSON Pointer is read as a pointer and printed back
 * without its leading slash, so the comparison is with "x" (a quirk of the reference library).
 */
import type { Literal } from "../syntax/ast.js";
import type { Warning } from "./warning.js";

export function pointerValue(value: Literal): Warning | undefined {
  if (value.type !== "pointer") return undefined;
  const wanted = JSON.parse(value.raw) as string;
  const fix = wanted.includes("`") ? "" : `write \`${wanted}\` (backticks: a raw string) to compare with the text ${JSON.stringify(wanted)}, or `;
  return {
    code: "pointer-value",
    summary: `${value.raw} is read as a JSON Pointer and compared as ${JSON.stringify(value.text)}, without its leading slash`,
    hint: `${fix}write ${JSON.stringify(value.text)} to say what is compared`,
    span: value.span,
    rewrite: wanted.includes("`")
      ? { title: `compare with ${JSON.stringify(value.text)}`, at: value.span, replace: JSON.stringify(value.text) }
      : { title: `compare with the text ${JSON.stringify(wanted)}: \`${wanted}\``, at: value.span, replace: `\`${wanted}\`` },
  };
}
