import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { diagnose, schemas } from "filter-expr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodeAction, CompletionItem, CompletionList, Hover, TextEdit } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { runs } from "../../test/support/runs.js";
import { startClient, type Client } from "./client.js";

let client: Client;
beforeAll(async () => {
  client = await startClient({ schema: "job" });
});
afterAll(async () => {
  if (client.child.exitCode === null) await client.stop();
});

let n = 0;
/** A new document URI (each test its own). */
const uri = (ext = "filter") => `file:///work/doc-${++n}.${ext}`;

const request = <T>(method: string, params: unknown) => client.connection.sendRequest<T>(method, params);

async function completion(u: string, line: number, character: number): Promise<CompletionItem[]> {
  const r = await request<CompletionItem[] | CompletionList | null>("textDocument/completion", { textDocument: { uri: u }, position: { line, character } });
  return r === null ? [] : Array.isArray(r) ? r : r.items;
}

/** The document's text after the edits. */
function edited(text: string, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create("file:///x", "x", 1, text), [...edits]);
}

describe("the language server over stdio", () => {
  it("answers initialize with its capabilities", () => {
    expect(client.initialized.serverInfo?.name).toBe("filter-expr-lsp");
    expect(client.initialized.capabilities).toMatchObject({
      textDocumentSync: 2,
      completionProvider: { triggerCharacters: ["."] },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: ["quickfix"] },
      documentFormattingProvider: true,
    });
  });

  it("publishes the findings of a filter file, line by line, with codes and UTF-16 ranges", async () => {
    const u = uri();
    client.open(u, '# a comment: Stauts == x\n\nStauts == "running"\nName == "😀ü" and Nme == "x"\r\nName == web-1\n');
    const ds = await client.diagnostics(u);
    expect(ds.map((d) => [d.code, d.severity, d.range])).toEqual([
      ["unknown-field", 1, { start: { line: 2, character: 0 }, end: { line: 2, character: 6 } }],
      // 😀 is two UTF-16 units: "Nme" starts at 18.
      ["unknown-field", 1, { start: { line: 3, character: 18 }, end: { line: 3, character: 21 } }],
      ["unexpected-input", 1, { start: { line: 4, character: 11 }, end: { line: 4, character: 12 } }],
    ]);
    expect(ds[0]).toMatchObject({ source: "filter-expr", message: '"Stauts" is not a field of JobListStub; did you mean "Status"?' });
    // Edits publish again, for the new version.
    client.change(u, "ID == Name\n");
    expect((await client.diagnostics(u, 2)).map((d) => [d.code, d.severity])).toEqual([["word-is-selector", 2]]);
  });

  it("finds filters marked in other files, through the string's escapes, with a schema word", async () => {
    const u = uri("hcl");
    const text = [
      "job {",
      "  # filter-expr:",
      '  filter = "Name == \\"a\\" and Stauts == \\"x\\""',
      '  other = "Stauts == 1"',
      '  x = `Nme == "a"` // bexpr:',
      "  // bexpr: deployment",
      "  y = 'JobID == \"j\" and Nope is empty'",
      "}",
    ].join("\n");
    client.open(u, text, "hcl");
    const ds = await client.diagnostics(u);
    expect(ds.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character, String(d.message).slice(0, 24)])).toEqual([
      ["unknown-field", 2, 30, 36, '"Stauts" is not a field '],
      ["unknown-field", 4, 7, 10, '"Nme" is not a field of '],
      ["unknown-field", 6, 24, 28, '"Nope" is not a field of'],
    ]);
    expect(ds[2]!.message).toContain("Deployment");
  });

  it("completes fields, a record's fields, operators and bound names", async () => {
    const u = uri();
    client.open(u, 'Status == "x" and \nJobSummary.\nName \nany JobSummary.Summary as k, v { v.\nany Datacenters as dc { \n');
    await client.diagnostics(u);
    const start = await completion(u, 0, 18);
    expect(start.find((i) => i.label === "Datacenters")).toMatchObject({ kind: 5, detail: "list of string", textEdit: { newText: "Datacenters" } });
    expect(start.map((i) => i.label)).toEqual(expect.arrayContaining(["not", "any", "all", "Status"]));
    expect((await completion(u, 1, 11)).map((i) => i.label)).toEqual(["JobID", "Namespace", "Children", "Summary", "CreateIndex", "ModifyIndex"]);
    const ops = await completion(u, 2, 5);
    expect(ops.map((i) => i.label).slice(0, 3)).toEqual(["==", "!=", "contains"]);
    expect(ops[0]).toMatchObject({ kind: 24, textEdit: { range: { start: { line: 2, character: 5 }, end: { line: 2, character: 5 } } } });
    expect((await completion(u, 3, 36)).map((i) => [i.label, i.detail])).toContainEqual(["Running", "signed integer"]);
    expect((await completion(u, 4, 24))[0]).toMatchObject({ label: "dc", kind: 6, detail: "string" });
    // A blank line starts a filter; outside a marked string of another file nothing is offered.
    expect((await completion(u, 5, 0)).length).toBeGreaterThan(0);
    const go = uri("go");
    client.open(go, 'f := "Job" // filter-expr:\n', "go");
    await client.diagnostics(go);
    const inside = await completion(go, 0, 9);
    expect(inside.find((i) => i.label === "JobSummary")).toMatchObject({ textEdit: { range: { start: { line: 0, character: 6 }, end: { line: 0, character: 9 } }, newText: "JobSummary" } });
    expect(await completion(go, 0, 2)).toEqual([]);
  });

  it("shows the type of the selector under the cursor", async () => {
    const u = uri();
    client.open(u, "any JobSummary.Summary as k, v { v.Running == 1 }\n");
    await client.diagnostics(u);
    const hover = await request<Hover | null>("textDocument/hover", { textDocument: { uri: u }, position: { line: 0, character: 36 } });
    expect(hover).toEqual({ contents: { kind: "markdown", value: "`v.Running`: signed integer" }, range: { start: { line: 0, character: 33 }, end: { line: 0, character: 42 } } });
    const record = await request<Hover | null>("textDocument/hover", { textDocument: { uri: u }, position: { line: 0, character: 10 } });
    expect((record?.contents as { value: string }).value).toContain("map of record TaskGroupSummary");
    expect(await request("textDocument/hover", { textDocument: { uri: u }, position: { line: 0, character: 45 } })).toBeNull();
    // A field with the values the schema lists for it.
    const s = uri();
    client.open(s, 'Status == "running"\n');
    await client.diagnostics(s);
    const status = await request<Hover | null>("textDocument/hover", { textDocument: { uri: s }, position: { line: 0, character: 2 } });
    expect((status?.contents as { value: string }).value).toBe('`Status`: string\n\nvalues: `"pending"`, `"running"`, `"dead"`');
  });

  it("offers the fixes as quick fixes whose edits fix the text, escaped inside a string", async () => {
    const u = uri();
    const text = 'Name == "a"\nStauts == "running"\n';
    client.open(u, text);
    const [d] = await client.diagnostics(u);
    const actions = await request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: u }, range: d!.range, context: { diagnostics: [d] } });
    expect(actions[0]).toMatchObject({ title: 'replace "Stauts" with "Status"', kind: "quickfix", isPreferred: true, diagnostics: [{ code: "unknown-field" }] });
    expect(edited(text, actions[0]!.edit!.changes![u]!)).toBe('Name == "a"\nStatus == "running"\n');

    const hcl = uri("hcl");
    const source = '# filter-expr:\nfilter = "Name == web-1"\n';
    client.open(hcl, source, "hcl");
    const [e] = await client.diagnostics(hcl);
    const fixes = await request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: hcl }, range: e!.range, context: { diagnostics: [e] } });
    expect(edited(source, fixes[0]!.edit!.changes![hcl]!)).toBe('# filter-expr:\nfilter = "Name == \\"web-1\\""\n');
  });

  it("formats the lines that parse, keeping comments, blank lines and lines that do not parse", async () => {
    const u = uri();
    const text = '# keep   me\nName=="a"   and (Stop==true)\n\nName == \n  Status  ==  "x"\n';
    client.open(u, text);
    await client.diagnostics(u);
    const edits = await request<TextEdit[]>("textDocument/formatting", { textDocument: { uri: u }, options: { tabSize: 2, insertSpaces: true } });
    expect(edited(text, edits)).toBe('# keep   me\nName == "a" and Stop == true\n\nName == \nStatus == "x"\n');
  });

  it("bounds a huge line: a 1 MB line and a long line of many mistakes are answered at once", async () => {
    const u = uri();
    const many = Array.from({ length: 400 }, (_, i) => `Nme == "w${i}"`).join(" and ");
    client.open(u, `${"Name == \"x\" and ".repeat(70_000)}Stop == true\n${many}\nName == "ok"\n`);
    const ds = await client.diagnostics(u);
    expect(ds.filter((d) => d.range.start.line === 0).map((d) => d.code)).toEqual(["input-too-long", "not-fully-checked"]);
    const line1 = ds.filter((d) => d.range.start.line === 1);
    expect(line1.filter((d) => d.code === "unknown-field")).toHaveLength(400);
    expect(line1.at(-1)).toMatchObject({ code: "not-fully-checked", severity: 3 });
  });

  it("law: every published range lies in the document and is the library's span of its line", async () => {
    const piece = fc.constantFrom("Name", "Stauts", "ü", "😀", '"x"', '"ü😀"', "==", " ", "and", "or", "not", "(", ")", "web-1", "JobSummary.Summary.web.Running", "is empty", "Datacenters", "in", "&&", "'a'", "#");
    const line = fc.array(piece, { maxLength: 8 }).map((p) => p.join(" "));
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 6 }), fc.constantFrom("\n", "\r\n"), async (lines, eol) => {
        const u = uri();
        const text = lines.join(eol);
        client.open(u, text);
        const published = await client.diagnostics(u);
        const doc = TextDocument.create(u, "filter-expr", 1, text);
        const expected = lines.flatMap((l, i) =>
          l.trim() === "" || l.trim().startsWith("#") ? [] : diagnose(l, { schema: schemas.job }).map((d) => [i, d.code, d.span.start, d.span.end]),
        );
        const got = published.map((d) => {
          const start = doc.offsetAt(d.range.start);
          const end = doc.offsetAt(d.range.end);
          expect(doc.positionAt(start)).toEqual(d.range.start);
          expect(doc.positionAt(end)).toEqual(d.range.end);
          const lineStart = doc.offsetAt({ line: d.range.start.line, character: 0 });
          return [d.range.start.line, d.code, start - lineStart, end - lineStart];
        });
        expect(got).toEqual(expected);
      }),
      { numRuns: runs(40) },
    );
  });

  it("takes a new schema from didChangeConfiguration, a schema file too, and says what it cannot use", async () => {
    const u = uri();
    client.open(u, 'JobID == "x"\n');
    expect((await client.diagnostics(u)).map((d) => d.code)).toEqual(["unknown-field"]);
    let next = client.next(u);
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: { filterExpr: { schema: "deployment" } } });
    expect(await next).toEqual([]);

    const dir = await mkdtemp(join(tmpdir(), "filter-expr-lsp-"));
    const file = join(dir, "node.json");
    await writeFile(file, JSON.stringify({ record: "Node", fields: { JobID: "int", Labels: { map: "string" } } }));
    next = client.next(u);
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: { filterExpr: { schema: file } } });
    expect((await next).map((d) => d.code)).toEqual(["invalid-literal"]);
    const labels = await completion(u, 0, 0);
    expect(labels.map((i) => [i.label, i.detail])).toContainEqual(["Labels", "map of string"]);

    next = client.next(u);
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: { filterExpr: { schema: join(dir, "missing.json") } } });
    expect(await next).toEqual([]);
    expect(client.messages.at(-1)).toMatch(/the schema .*missing\.json is not used \(plain JSON instead\): .*no such file|ENOENT/);
  });

  it("shuts down and exits with code 0", async () => {
    expect(await client.stop()).toBe(0);
  });
});

describe("a server started with a schema file relative to the workspace", () => {
  it("reads it from the workspace's folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "filter-expr-lsp-root-"));
    await writeFile(join(dir, "r.json"), JSON.stringify({ record: "R", fields: { A: { record: "S", fields: { B: "bool" } } } }));
    const other = await startClient({ filterExpr: { schema: "r.json" } }, pathToFileURL(dir).href);
    try {
      other.open("file:///w/a.filter", "A.\n");
      await other.diagnostics("file:///w/a.filter");
      const items = await other.connection.sendRequest<CompletionItem[]>("textDocument/completion", { textDocument: { uri: "file:///w/a.filter" }, position: { line: 0, character: 2 } });
      expect(items.map((i: CompletionItem) => [i.label, i.detail])).toEqual([["B", "bool"]]);
    } finally {
      expect(await other.stop()).toBe(0);
    }
  });
});
