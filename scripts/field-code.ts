/**
 * Writes src/evaluate/generated/column-steps.ts, field-tests.ts and clones.ts: `npm run generate`. A
 * test checks that they are current. The closures are copied from scripts/field-templates.ts, where
 * they are written (and type-checked) as TypeScript; this module says how many copies, and for which
 * field names.
 *
 * Code per field name of the built-in schemas, each reading its key with a constant name: the column
 * steps of `filter` and the fused tests of `evaluate`. A property read written once in a closure shared
 * by every field learns every field's shapes and falls back to V8's slower lookups (a megamorphic
 * keyed load; the `__proto__` check calls its accessor); a read of its own per field stays
 * monomorphic (measured: a field's equality test per item 1.55× a hand-written one when shared, 1.1×
 * when generated). No code is made at run time: this is the only way to get such reads without
 * `eval`. Keys no schema names use the same templates with the key as a variable (`KEYED_TESTS`).
 * The same holds for calls: clones.ts copies the closures that call closures (see `CLONES`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import ts from "typescript";
import { fileURLToPath } from "node:url";
import { schemas, type Type } from "../src/semantics/schema.js";

/** Whether the top-level fields of the allocation, node and evaluation schemas get generated code (below). */
const GENERATED_OF_OTHERS = false;

/** Every field name of a record reachable from the job and deployment schemas (and, with GENERATED_OF_OTHERS, the top-level ones of the others), sorted, with the kinds of its types. */
export function schemaFields(): Map<string, Set<string>> {
  const fields = new Map<string, Set<string>>();
  const kindOf = (t: Type): string => {
    const c = t.kind === "pointer" ? t.target : t;
    return c.kind === "list" ? `list of ${kindOf(c.elem)}` : c.kind;
  };
  const visit = (t: Type): void => {
    if (t.kind === "record") {
      for (const [name, field] of Object.entries(t.fields)) {
        if (!fields.has(name)) fields.set(name, new Set());
        fields.get(name)!.add(kindOf(field));
        visit(field);
      }
    } else if (t.kind === "list") visit(t.elem);
    else if (t.kind === "map") visit(t.value);
    else if (t.kind === "pointer") visit(t.target);
  };
  visit(schemas.job);
  visit(schemas.deployment);
  // The allocation, node and evaluation schemas (issue 44) add no code of their own: a field without
  // generated code reads its key as a variable (KEYED_TESTS, `keyStep`), which answers the same, a
  // little slower (see above). Measured: code for their top-level fields (GENERATED_OF_OTHERS = true)
  // adds 2.7 kB gzip to every browser bundle that evaluates (web compile 31.4 → 34.1 kB) and 190 kB to
  // the unpacked package; for every field of their nested records too, about 12 kB gzip. Worth it
  // once a list serves them in bulk; then raise the bounds of test/bundle-size.test.ts with it.
  if (GENERATED_OF_OTHERS) {
    for (const schema of [schemas.allocation, schemas.node, schemas.evaluation]) {
      for (const [name, field] of Object.entries(schema.fields)) {
        if (!fields.has(name)) fields.set(name, new Set());
        fields.get(name)!.add(kindOf(field));
      }
    }
  }
  return new Map([...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Every field name of a record reachable from the built-in schemas, sorted. */
export function schemaFieldNames(): string[] {
  return [...schemaFields().keys()];
}

/** The templates module (scripts/field-templates.ts), parsed: its text is what the generated files copy. */
const TEMPLATES = ts.createSourceFile("field-templates.ts", readFileSync(fileURLToPath(new URL("./field-templates.ts", import.meta.url)), "utf8"), ts.ScriptTarget.ES2022, true);

/** The initializer of the templates module's exported `const name`. */
function template(name: string): ts.Expression {
  for (const statement of TEMPLATES.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer) return d.initializer;
  }
  throw new Error(`scripts/field-templates.ts has no const ${name}`);
}

/** Which field names each fused test is generated for, by the kinds of their types (the JSON tests also serve data without a schema, where the same names hold the same kinds of values). */
const TEST_KINDS: Readonly<Record<string, (kinds: ReadonlySet<string>) => boolean>> = {
  equalString: (k) => k.has("string"),
  equalBool: (k) => k.has("bool"),
  equalInteger: (k) => k.has("int") || k.has("uint"),
  emptyString: (k) => k.has("string"),
  inStrings: (k) => k.has("list of string"),
  memberString: (k) => k.has("string"),
  memberFewStrings: (k) => k.has("string"),
  jsonEquals: () => true,
  jsonEqualsBool: (k) => k.has("bool"),
  jsonEqualsNumber: (k) => k.has("int") || k.has("uint") || k.has("float"),
  jsonIn: (k) => k.has("string") || [...k].some((x) => x.startsWith("list")),
  jsonEmpty: (k) => k.has("string") || [...k].some((x) => x.startsWith("list")),
  memberJson: (k) => k.has("string"),
  memberFewJson: (k) => k.has("string"),
};

/**
 * The fused tests, one template each (`FIELD_TESTS` of the templates module): its doc comment, its
 * parameters (its constants; `general` last), the names it is generated for, and its closure, where
 * READ is the field's value in the plain datum `d`.
 */
const TEST_TEMPLATES: readonly { name: string; doc: string; params: string; kinds: (kinds: ReadonlySet<string>) => boolean; body: string }[] = (() => {
  const tests = template("FIELD_TESTS");
  if (!ts.isObjectLiteralExpression(tests)) throw new Error("FIELD_TESTS is an object literal");
  return tests.properties.map((p) => {
    if (!ts.isPropertyAssignment(p) || !ts.isArrowFunction(p.initializer) || !ts.isArrowFunction(p.initializer.body)) throw new Error(`${p.name?.getText()}: a factory of a closure`);
    const name = p.name.getText();
    const kinds = TEST_KINDS[name];
    if (kinds === undefined) throw new Error(`${name}: no kinds in TEST_KINDS`);
    const doc = ts.getJSDocCommentsAndTags(p).map((d) => (ts.isJSDoc(d) ? ts.getTextOfJSDocComment(d.comment) ?? "" : "")).join(" ");
    return { name, doc, params: p.initializer.parameters.slice(0, -1).map((x) => x.getText()).join(", "), kinds, body: p.initializer.body.getText() };
  });
})();

/** One slot's closures (`CLONE_SLOT` of the templates module), indented as a slot of the array. */
const CLONE_TEMPLATE = template("CLONE_SLOT").getText().replaceAll("\n", "\n  ");

/** The column step's loop (`COLUMN_STEP` of the templates module), `KEY` its field name. */
const COLUMN_STEP_BODY = (() => {
  const step = template("COLUMN_STEP");
  if (!ts.isArrowFunction(step)) throw new Error("COLUMN_STEP is an arrow function");
  return step.body.getText();
})();

/** The text of src/evaluate/generated/field-tests.ts. */
export function fieldTestsSource(): string {
  const factory = (t: (typeof TEST_TEMPLATES)[number], read: string, indent: string): string =>
    `(key: string, ${t.params}, general: General): General =>\n${indent}  ${t.body.replaceAll("READ", read).replaceAll("\n    ", `\n${indent}  `)}`;
  const entries = [...schemaFields()].map(([name, kinds]) => {
    const key = JSON.stringify(name);
    const tests = TEST_TEMPLATES.filter((t) => t.kinds(kinds));
    return [`  [${key}, {`, ...tests.map((t) => `    ${t.name}: ${factory(t, `(d as Rec)[${key}]`, "    ")},`), "  }],"].join("\n");
  });
  const iface = TEST_TEMPLATES.map((t) => `  /** ${t.doc} */\n  readonly ${t.name}: (key: string, ${t.params}, general: General) => General;`);
  const keyed = TEST_TEMPLATES.map((t) => `  ${t.name}: ${factory(t, "(d as Rec)[key]", "  ")},`);
  return `// Generated by scripts/field-code.ts (npm run generate): do not edit.
/**
 * The fused tests of \`evaluate\` (\`fast.ts\`) per field name of the built-in schemas, each with
 * property reads of its own (see scripts/field-code.ts), and the same tests for any other key.
 * Each takes the key (the generated ones know theirs), the test's constants, and the general closure
 * that decides whatever the test does not (data that is not a plain object, other kinds).
 */
import { readsEmpty } from "../../semantics/table.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type General = (d: unknown, f?: any) => boolean;
${PRELUDE}
/** The fused tests of one key; a field name has those its types' kinds need. */
export interface FieldTests {
${iface.join("\n")}
}

/** The tests for any key, read as a variable. */
export const KEYED_TESTS: FieldTests = ${WITH_PROTO("FieldTests", `({\n${keyed.join("\n")}\n})`)};

/** The tests generated for each field name of the built-in schemas. */
export const FIELD_TESTS: ReadonlyMap<string, Partial<FieldTests>> = ${WITH_PROTO("ReadonlyMap<string, Partial<FieldTests>>", `new Map<string, Partial<FieldTests>>([\n${entries.join("\n")}\n])`)};
`;
}

/**
 * What the generated files declare first: two casts. The plain-object check's prototype,
 * \`OBJECT_PROTO\`, is a parameter of the function that builds each file's closures (\`WITH_PROTO\`):
 * the build turns a module's top-level \`const\` into a \`var\`, a slot V8 reads again at every check,
 * where a parameter that is never assigned is a constant to its optimizing compiler, which then folds
 * the check into the datum's map check.
 */
const PRELUDE = `type Proto = { __proto__?: unknown };
type Rec = Record<string, unknown>;
`;

/** Wraps \`body\` (an expression of type \`type\`) in a function of \`OBJECT_PROTO\`, called with \`Object.prototype\`. */
const WITH_PROTO = (type: string, body: string): string => `((OBJECT_PROTO: object): ${type} =>\n  ${body})(Object.prototype)`;

/** The text of src/evaluate/generated/column-steps.ts. */
export function columnStepsSource(): string {
  const steps = schemaFieldNames().map((name) => {
    const key = JSON.stringify(name);
    return `  [${key}, (col, n) => ${COLUMN_STEP_BODY.replaceAll("KEY", key)}],`;
  });
  return `// Generated by scripts/field-code.ts (npm run generate): do not edit.
/**
 * A column step per field name of the built-in schemas, each with property reads of its own (see
 * scripts/field-code.ts): replaces each entry of a column (\`columns.ts\`) by the value of the key in
 * it when it is a plain object, else by \`NOT_PLAIN\`.
 */

/** A column's entry for an item whose path meets something that is not a plain object. */
export const NOT_PLAIN: unique symbol = Symbol("not plain");

/** Replaces \`col[i]\`, for \`i\` below \`n\`, by the value of one key in it, or \`NOT_PLAIN\`. */
export type ColumnStep = (col: unknown[], n: number) => void;

${PRELUDE}
export const COLUMN_STEPS: ReadonlyMap<string, ColumnStep> = ${WITH_PROTO("ReadonlyMap<string, ColumnStep>", `new Map<string, ColumnStep>([\n${steps.join("\n")}\n])`)};
`;
}

/**
 * Copies of the closures on `evaluate`'s path that call other closures. A call site in code shared by
 * every filter sees every filter's callees and V8 neither inlines nor predicts it (a junction's call
 * of its operands, the entry's call of the program, a path's property reads and its test); each copy
 * of the source is a site of its own. Each compiled filter takes one slot of copies, so up to
 * `CLONES` filters are each called through code that sees only them (measured: per-item `evaluate`
 * over Q1–Q6 2.1× a hand-written predicate with one copy, 1.5× with a copy per filter).
 */
export const CLONES = 32;

/** The text of src/evaluate/generated/clones.ts. */
export function clonesSource(): string {
  const slots = Array.from({ length: CLONES }, () => `  ${CLONE_TEMPLATE},`);
  return `// Generated by scripts/field-code.ts (npm run generate): do not edit.
/**
 * ${CLONES} copies of the closures on \`evaluate\`'s path that call other closures, one slot of them per
 * compiled filter (\`nextClones\`), so that V8 sees each filter's calls and reads apart (see
 * scripts/field-code.ts). The slots are identical but for being separate source.
 */
import type { EvaluationBudget } from "../budget.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type P = (d: unknown, f?: any) => boolean;
type Entry = (d: unknown, budget?: EvaluationBudget) => boolean;
type Test = (v: unknown) => boolean;
${PRELUDE}
/** One slot of closures. */
export interface Clones {
  /** \`evaluate\`: \`run\` without a budget (none running either), else \`slow\`. */
  readonly entry: (run: P, slow: Entry, meter: { budget: EvaluationBudget | undefined }) => Entry;
  /**
   * An entry that answers its first call through \`first\` and compiles its program on its second
   * (\`compile\` gives the program's \`entry\`).
   */
  readonly lazy: (compile: () => Entry, first: Entry) => Entry;
  /**
   * How many of \`items\` the program \`run\` accepts, one call per item (no budget running): each slot's
   * loop sees one program, which V8 inlines into it.
   */
  readonly count: (run: P) => (items: ArrayLike<unknown>) => number;
  readonly and2: (a: P, b: P) => P;
  readonly or2: (a: P, b: P) => P;
  readonly and3: (a: P, b: P, c: P) => P;
  readonly or3: (a: P, b: P, c: P) => P;
  readonly and4: (a: P, b: P, c: P, e: P) => P;
  readonly or4: (a: P, b: P, c: P, e: P) => P;
  readonly andN: (runs: readonly P[]) => P;
  readonly orN: (runs: readonly P[]) => P;
  readonly not: (run: P) => P;
  /**
   * A path of plain objects read to its last key, then tested; anything else (a non-plain object on
   * the way, an absent last key unless \`absentIsZero\`) goes to \`general\`.
   */
  readonly path1: (k0: string, absentIsZero: boolean, test: Test, negated: boolean, general: P) => P;
  readonly path2: (k0: string, k1: string, absentIsZero: boolean, test: Test, negated: boolean, general: P) => P;
  readonly path3: (k0: string, k1: string, k2: string, absentIsZero: boolean, test: Test, negated: boolean, general: P) => P;
  readonly path4: (k0: string, k1: string, k2: string, k3: string, absentIsZero: boolean, test: Test, negated: boolean, general: P) => P;
  readonly pathN: (keys: readonly string[], absentIsZero: boolean, test: Test, negated: boolean, general: P) => P;
}

const SLOTS: readonly Clones[] = ${WITH_PROTO("Clones[]", `[\n${slots.join("\n")}\n]`)};

let next = 0;

/** The slot of closures of the next compiled filter (round robin). */
export function nextClones(): Clones {
  const slot = SLOTS[next]!;
  next = (next + 1) % SLOTS.length;
  return slot;
}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, text] of [
    ["column-steps.ts", columnStepsSource()],
    ["field-tests.ts", fieldTestsSource()],
    ["clones.ts", clonesSource()],
  ] as const) {
    const target = fileURLToPath(new URL(`../src/evaluate/generated/${file}`, import.meta.url));
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  }
}
