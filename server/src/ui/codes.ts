/**
 * The playground's page of error and warning codes (`/ui/codes.html`), where each code a diagnostic
 * shows links to (`codes.html#unknown-field`). Made at build time from the library's documentation:
 * every row of docs/api.md and docs/cli.md whose first cell names codes (`| \`unknown-field\` | …`),
 * under the heading of its table, so that the page says what the documentation says.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const DOCS = fileURLToPath(new URL("../../../docs/", import.meta.url));
const PAGES = ["api.md", "cli.md"];

/** What the documentation says of one code: each row naming it, with its table's heading and page. */
export type CodeDocs = ReadonlyMap<string, readonly { readonly page: string; readonly heading: string; readonly cells: readonly string[] }[]>;

/** The table rows of `pages` (Markdown) that name codes in their first cell, by code. */
export function codeRows(pages: readonly { readonly name: string; readonly text: string }[]): CodeDocs {
  const out = new Map<string, { page: string; heading: string; cells: string[] }[]>();
  for (const { name, text } of pages) {
    let heading = "";
    for (const line of text.split("\n")) {
      const h = /^#{2,4} (.+)$/.exec(line);
      if (h) heading = h[1]!.replace(/`/g, "");
      const trimmed = line.trim();
      if (!trimmed.startsWith("|") || /^\|[-| ]+\|$/.test(trimmed)) continue;
      const cells = trimmed.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
      const codes = /^(`[a-z]+(-[a-z]+)*`(, )?)+$/.test(cells[0] ?? "") ? cells[0]!.split(", ").map((c) => c.slice(1, -1)) : [];
      for (const code of codes) {
        const rows = out.get(code) ?? [];
        rows.push({ page: name, heading, cells: cells.slice(1) });
        out.set(code, rows);
      }
    }
  }
  return out;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Markdown cell text as HTML: code spans, links by their text, the rest escaped. */
function cellHtml(cell: string): string {
  return cell
    .split(/(`[^`]+`)/)
    .map((part) => (part.startsWith("`") && part.endsWith("`") && part.length > 1 ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : escapeHtml(part.replace(/\[([^\]]+)\]\([^)]*\)/g, "$1").replace(/\*\*?([^*]+)\*\*?/g, "$1"))))
    .join("");
}

/**
 * The codes page, its sections in the order of the documentation, each with an id of its code; its
 * head is the playground page's (`template`, index.html) up to the title.
 */
export async function codesPage(template: string, stylesheet: string): Promise<string> {
  const pages = await Promise.all(PAGES.map(async (name) => ({ name, text: await readFile(`${DOCS}${name}`, "utf8") })));
  const sections = [...codeRows(pages)].map(
    ([code, rows]) =>
      `<section id="${escapeHtml(code)}"><h2><code>${escapeHtml(code)}</code></h2><dl>${rows
        .map((r) => `<dt>${escapeHtml(r.heading)} <span class="where">(docs/${escapeHtml(r.page)})</span></dt><dd>${r.cells.map(cellHtml).join(" — ")}</dd>`)
        .join("")}</dl></section>`,
  );
  return `${template.slice(0, template.indexOf("<title>"))}<title>filter error and warning codes</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
</head>
<body>
<header><h1>Error and warning codes</h1><p class="sub">What each code the playground shows means, from the documentation of <code>filter-expr</code> (docs/api.md, docs/cli.md). <a href="./">Back to the playground</a></p></header>
<main class="codes">
${sections.join("\n")}
</main>
</body>
</html>
`;
}
