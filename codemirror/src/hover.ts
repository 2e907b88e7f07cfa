/** `filterHover`: the type of the selector under the pointer, from the library's `selectorAt`. */
import { EditorView, hoverTooltip, type TooltipView } from "@codemirror/view";
import type { Extension } from "@codemirror/state";
import { selectorAt, type SelectorInfo } from "filter-expr";
import { read, type FilterOptions } from "./options.js";

/** Options of `filterHover`. */
export interface HoverOptions extends FilterOptions {
  /** Draws the tooltip (default: `<div class="cm-filter-type"><code>TaskGroups</code>: map of record DeploymentState</div>`, and the values a field takes, in parentheses). */
  readonly render?: (info: SelectorInfo) => HTMLElement;
}

/** The default tooltip: the selector as written, then its type. */
function renderType(info: SelectorInfo): HTMLElement {
  const dom = document.createElement("div");
  dom.className = "cm-filter-type";
  const code = document.createElement("code");
  code.textContent = info.text;
  dom.append(code, `: ${info.type}`);
  if (info.values.length > 0) dom.append(` (${info.values.map((v) => JSON.stringify(v)).join(", ")})`);
  return dom;
}

/** The default tooltip's spacing (a page's own stylesheet may set more). */
const theme = EditorView.baseTheme({ ".cm-filter-type": { padding: "2px 6px" } });

/**
 * A hover tooltip over each selector with the type the schema gives it (`list of string`,
 * `map of record TaskGroupSummary`, a bound name's element type, `unknown` past a step the schema does
 * not know), while the text parses.
 */
export function filterHover(options: HoverOptions = {}): Extension {
  const render = options.render ?? renderType;
  const tooltip = hoverTooltip((view, pos) => {
    const info = selectorAt(view.state.doc.toString(), pos, { schema: read(options.schema) });
    if (info === undefined) return null;
    return { pos: info.span.start, end: info.span.end, above: true, create: (): TooltipView => ({ dom: render(info) }) };
  });
  return [tooltip, theme];
}
