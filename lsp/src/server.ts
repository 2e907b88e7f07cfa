/**
 * The language server: documents kept in sync, settings read at `initialize` and on every
 * `workspace/didChangeConfiguration`, diagnostics published after each change, and the requests
 * (completion, hover, code actions, formatting) answered by the feature modules.
 */
import { fileURLToPath } from "node:url";
import { CodeActionKind, TextDocuments, TextDocumentSyncKind, type Connection, type InitializeResult } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { codeActions } from "./actions.js";
import { Analyser } from "./analyse.js";
import { completionItems } from "./completion.js";
import type { Context } from "./context.js";
import { diagnosticsOf } from "./diagnostics.js";
import { formatEdits } from "./format.js";
import { hoverAt } from "./hover.js";
import { DEFAULT_SETTINGS, loadSettings, rawSettings, type RawSettings } from "./settings.js";
import { VERSION } from "./version.js";

/** Serves one client on `connection` until it exits. */
export function serve(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  let root = process.cwd();
  let context: Context = { settings: DEFAULT_SETTINGS, analyser: new Analyser(undefined) };
  /** The latest run of each document's diagnostics: an older run that sees a newer one stops. */
  const runs = new Map<string, number>();
  let run = 0;

  const apply = async (raw: RawSettings): Promise<void> => {
    const settings = await loadSettings(raw, root);
    context = { settings, analyser: new Analyser(settings.target) };
    for (const problem of settings.problems) void connection.window.showWarningMessage(problem);
  };

  const validate = async (doc: TextDocument): Promise<void> => {
    const mine = ++run;
    runs.set(doc.uri, mine);
    const current = () => runs.get(doc.uri) === mine && documents.get(doc.uri) === doc;
    const diagnostics = await diagnosticsOf(doc, context, current);
    if (diagnostics !== undefined && current()) await connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  };

  connection.onInitialize(async (params): Promise<InitializeResult> => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
    if (typeof folder === "string" && folder.startsWith("file:")) root = fileURLToPath(folder);
    await apply(rawSettings(params.initializationOptions));
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: ["."] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        documentFormattingProvider: true,
      },
      serverInfo: { name: "filter-expr-lsp", version: VERSION },
    };
  });

  connection.onDidChangeConfiguration(async (params) => {
    // A client that only says "something changed" (settings null) keeps the settings in force.
    if (params.settings === null || params.settings === undefined) return;
    await apply(rawSettings(params.settings));
    for (const doc of documents.all()) void validate(doc);
  });

  documents.onDidChangeContent((e) => void validate(e.document));
  documents.onDidClose((e) => {
    runs.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  const withDocument = <T>(uri: string, empty: T, f: (doc: TextDocument) => T): T => {
    const doc = documents.get(uri);
    return doc === undefined ? empty : f(doc);
  };
  connection.onCompletion((p) => withDocument(p.textDocument.uri, [], (doc) => completionItems(doc, p.position, context)));
  connection.onHover((p) => withDocument(p.textDocument.uri, null, (doc) => hoverAt(doc, p.position, context)));
  connection.onCodeAction((p) => withDocument(p.textDocument.uri, [], (doc) => codeActions(doc, p.range, context)));
  connection.onDocumentFormatting((p) => withDocument(p.textDocument.uri, [], (doc) => formatEdits(doc, context.settings.target)));

  documents.listen(connection);
  connection.listen();
}
