/**
 * The test page of filter-expr-codemirror: one editor with `filterExpr` and nothing else (no playground,
 * no basicSetup). `?doc=` is the text, `?schema=` the schema (job, deployment, odd); `window.setSchema`
 * switches it as a page would (the option is a function) and relints.
 */
import { EditorView } from "@codemirror/view";
import { schemas, t, type Schema } from "filter-expr";
import { filterExpr, refreshFilter } from "filter-expr-codemirror";

/** A record with a field whose name is not a plain name (completed as a key step, `Inner["a b"]`). */
const odd = t.record("Odd", { Inner: t.record("Inner", { "a b": t.string, Plain: t.int }) });
const SCHEMAS: Readonly<Record<string, Schema>> = { job: schemas.job, deployment: schemas.deployment, odd };

const params = new URLSearchParams(location.search);
let schema = SCHEMAS[params.get("schema") ?? "job"];
const view = new EditorView({
  parent: document.getElementById("editor")!,
  doc: params.get("doc") ?? "",
  extensions: [filterExpr({ schema: () => schema })],
});
Object.assign(window, {
  setSchema(name: string) {
    schema = SCHEMAS[name];
    refreshFilter(view);
  },
});
document.body.dataset.ready = "true";
