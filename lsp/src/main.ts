/**
 * `filter-expr-lsp`: the language server of filter expressions, over standard input and output
 * (`--stdio`, the default; `--node-ipc` and `--socket=N` as vscode-languageserver reads them).
 */
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { serve } from "./server.js";
import { VERSION } from "./version.js";

const args = process.argv.slice(2);
if (args.includes("--version")) {
  process.stdout.write(`filter-expr-lsp ${VERSION}\n`);
} else if (args.includes("--help")) {
  process.stdout.write("usage: filter-expr-lsp [--stdio]\nA language server of filter expressions (go-bexpr); see its README for the editors' setup.\n");
} else {
  // Standard input and output unless the command line asks for another transport.
  if (!args.some((a) => a === "--stdio" || a === "--node-ipc" || a.startsWith("--socket") || a.startsWith("--pipe"))) process.argv.push("--stdio");
  serve(createConnection(ProposedFeatures.all));
}
