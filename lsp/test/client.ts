/**
 * A real LSP client for the tests: the built server (`lsp/dist/main.js`, made current by the suite's
 * global setup) started as a process and spoken to over its standard input and output with
 * vscode-jsonrpc, as an editor does. Published diagnostics are kept per document; a test waits for the
 * publication of a version it sent, never for a time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import type { Diagnostic, InitializeResult, PublishDiagnosticsParams } from "vscode-languageserver";

export const MAIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));

export interface Client {
  readonly connection: MessageConnection;
  readonly child: ChildProcess;
  readonly initialized: InitializeResult;
  /** The messages of `window/showMessage`, in order. */
  readonly messages: string[];
  /** Opens a document (version 1). */
  open(uri: string, text: string, languageId?: string): void;
  /** Replaces a document's text (the next version). */
  change(uri: string, text: string): void;
  /** The diagnostics published for `uri` at `version` (or later), waiting for them if need be. */
  diagnostics(uri: string, version?: number): Promise<Diagnostic[]>;
  /** The next diagnostics published for `uri` (call it before what makes them). */
  next(uri: string): Promise<Diagnostic[]>;
  /** `shutdown`, `exit`, and the process's exit code. */
  stop(): Promise<number | null>;
}

/** Starts the server (`command`: the built one by default, or an installed bin) and initializes it. */
export async function startClient(initializationOptions?: unknown, rootUri: string | null = null, command: readonly string[] = [process.execPath, MAIN]): Promise<Client> {
  const child = spawn(command[0]!, [...command.slice(1), "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published = new Map<string, PublishDiagnosticsParams>();
  const waiting: { uri: string; version: number; resolve: (d: Diagnostic[]) => void }[] = [];
  const versions = new Map<string, number>();
  const messages: string[] = [];
  connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
    published.set(p.uri, p);
    for (let i = waiting.length - 1; i >= 0; i--) {
      const w = waiting[i]!;
      if (w.uri === p.uri && (p.version ?? 0) >= w.version) {
        waiting.splice(i, 1);
        w.resolve(p.diagnostics);
      }
    }
  });
  connection.onNotification("window/showMessage", (p: { message: string }) => void messages.push(p.message));
  connection.onRequest("window/showMessageRequest", (p: { message: string }) => (messages.push(p.message), null));
  connection.listen();
  const initialized = await connection.sendRequest<InitializeResult>("initialize", { processId: process.pid, rootUri, capabilities: {}, initializationOptions });
  await connection.sendNotification("initialized", {});
  return {
    connection,
    child,
    initialized,
    messages,
    open(uri, text, languageId = "filter-expr") {
      versions.set(uri, 1);
      void connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
    },
    change(uri, text) {
      const version = (versions.get(uri) ?? 0) + 1;
      versions.set(uri, version);
      void connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
    },
    diagnostics(uri, version = versions.get(uri) ?? 1) {
      const p = published.get(uri);
      if (p !== undefined && (p.version ?? 0) >= version) return Promise.resolve(p.diagnostics);
      return new Promise((resolve) => waiting.push({ uri, version, resolve }));
    },
    next(uri) {
      return new Promise((resolve) => waiting.push({ uri, version: 0, resolve }));
    },
    async stop() {
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
}
