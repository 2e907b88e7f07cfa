/**
 * Writes src/evaluate/generated/column-steps.ts, field-tests.ts and clones.ts: `npm run generate`. A
 * test checks that they are current.
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
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { schemas, type Type } from "../src/semantics/schema.js";

/** Every field name of a record reachable from the built-in schemas, sorted, with the kinds of its types. */
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
  for (const schema of Object.values(schemas)) visit(schema);
  return new Map([...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Every field name of a record reachable from the built-in schemas, sorted. */
export function schemaFieldNames(): string[] {
  return [...schemaFields().keys()];
}

/**
 * The fused tests, one template each: its parameters, the names it is generated for (by the kinds of
 * their types; the JSON tests also serve data without a schema, where the same names hold the same
 * kinds of values), and its body, where READ is the field's value in the plain datum \`d\`. Each
 * returns the predicate; \`general\` decides whatever the test does not.
 */
const TEST_TEMPLATES: readonly { name: string; doc: string; params: string; kinds: (kinds: ReadonlySet<string>) => boolean; body: string }[] = [
  {
    name: "equalString",
    doc: "A typed string field \`== text\` (text not empty: an absent field is \"\" and never equal).",
    params: "text: string, negated: boolean",
    kinds: (k) => k.has("string"),
    body: "(d, f) => (d != null && (d as Proto).__proto__ === OBJECT_PROTO ? (READ === text) !== negated : general(d, f))",
  },
  {
    name: "equalBool",
    doc: "A typed bool field \`== literal\`; \`flip\` is the literal's value equal to the negation.",
    params: "flip: boolean",
    kinds: (k) => k.has("bool"),
    body: "(d, f) => (d != null && (d as Proto).__proto__ === OBJECT_PROTO ? (READ === true) !== flip : general(d, f))",
  },
  {
    name: "equalInteger",
    doc: "A typed integer field \`== x\` (\`big\` its exact value): numbers, bigints, absent as 0.",
    params: "x: number, big: bigint, negated: boolean",
    kinds: (k) => k.has("int") || k.has("uint"),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        return (typeof v === "number" ? v === x : typeof v === "bigint" ? v === big : x === 0) !== negated;
      }
      return general(d, f);
    }`,
  },
  {
    name: "emptyString",
    doc: "A typed string field \`is empty\` (absent and mistyped values read as \"\").",
    params: "negated: boolean",
    kinds: (k) => k.has("string"),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        return (typeof v !== "string" || v.length === 0) !== negated;
      }
      return general(d, f);
    }`,
  },
  {
    name: "inStrings",
    doc: "\`text in\` a typed list of strings (an element that is not a string reads as \"\").",
    params: "text: string, negated: boolean",
    kinds: (k) => k.has("list of string"),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        return (Array.isArray(v) && (text === "" ? readsEmpty(v) : v.includes(text))) !== negated;
      }
      return general(d, f);
    }`,
  },
  {
    name: "memberString",
    doc: "A typed string field in a set of texts (none empty).",
    params: "set: ReadonlySet<unknown>",
    kinds: (k) => k.has("string"),
    body: "(d, f) => (d != null && (d as Proto).__proto__ === OBJECT_PROTO ? set.has(READ) : general(d, f))",
  },
  {
    name: "memberFewStrings",
    doc: "A typed string field equal to one of three texts (none empty; repeat one for two): three comparisons beat a set's lookup.",
    params: "a: string, b: string, c: string",
    kinds: (k) => k.has("string"),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        return v === a || v === b || v === c;
      }
      return general(d, f);
    }`,
  },
  {
    name: "jsonEquals",
    doc: "A JSON value \`== literal\`: strings, and numbers and bools where the literal converts (\`x\`, \`b\`).",
    params: "text: string, x: number | undefined, b: boolean | undefined, negated: boolean",
    kinds: () => true,
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string") return (v === text) !== negated;
        if (typeof v === "number" && x !== undefined) return (v === x) !== negated;
        if (typeof v === "boolean" && b !== undefined) return (v === b) !== negated;
      }
      return general(d, f);
    }`,
  },
  {
    name: "jsonEqualsBool",
    doc: "A JSON value \`== literal\` where the literal converts to the bool \`b\` (its text \`text\`, its number \`x\` if any): bools first.",
    params: "text: string, x: number | undefined, b: boolean, negated: boolean",
    kinds: (k) => k.has("bool"),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (v === true || v === false) return (v === b) !== negated;
        if (typeof v === "string") return (v === text) !== negated;
        if (typeof v === "number" && x !== undefined) return (v === x) !== negated;
      }
      return general(d, f);
    }`,
  },
  {
    name: "jsonEqualsNumber",
    doc: "A JSON value \`== literal\` where the literal converts to the number \`x\` and to no bool: numbers first.",
    params: "text: string, x: number, negated: boolean",
    kinds: (k) => k.has("int") || k.has("uint") || k.has("float"),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "number") return (v === x) !== negated;
        if (typeof v === "string") return (v === text) !== negated;
      }
      return general(d, f);
    }`,
  },
  {
    name: "jsonIn",
    doc: "\`text in\` a JSON value: a string (when \`inStrings\`: the text holds no raw bytes), or a list whose elements before the first equal to \`text\` are strings; anything else generally.",
    params: "text: string, inStrings: boolean, negated: boolean",
    kinds: (k) => k.has("string") || [...k].some((x) => x.startsWith("list")),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string") {
          if (inStrings) return v.includes(text) !== negated;
        } else if (Array.isArray(v)) {
          for (let i = 0; i < v.length; i++) {
            const e: unknown = v[i];
            if (e === text) return !negated;
            if (typeof e !== "string") return general(d, f);
          }
          return negated;
        }
      }
      return general(d, f);
    }`,
  },
  {
    name: "jsonEmpty",
    doc: "A JSON value \`is empty\`: strings and lists; anything else (and absent keys) generally.",
    params: "negated: boolean",
    kinds: (k) => k.has("string") || [...k].some((x) => x.startsWith("list")),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string" || Array.isArray(v)) return (v.length === 0) !== negated;
      }
      return general(d, f);
    }`,
  },
  {
    name: "memberJson",
    doc: "A JSON value in a set of texts (none empty); values that are not strings generally.",
    params: "set: ReadonlySet<unknown>",
    kinds: (k) => k.has("string"),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string") return set.has(v);
      }
      return general(d, f);
    }`,
  },
  {
    name: "memberFewJson",
    doc: "A JSON value equal to one of three texts (none empty; repeat one for two); values that are not strings generally.",
    params: "a: string, b: string, c: string",
    kinds: (k) => k.has("string"),
    body: `(d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string") return v === a || v === b || v === c;
      }
      return general(d, f);
    }`,
  },
];

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
    return [
      `  [${key}, (col, n) => {`,
      "    for (let i = 0; i < n; i++) {",
      "      const v = col[i];",
      `      col[i] = v != null && (v as Proto).__proto__ === OBJECT_PROTO ? (v as Rec)[${key}] : NOT_PLAIN;`,
      "    }",
      "  }],",
    ].join("\n");
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

/** One slot's closures: each factory's returned arrow is the site that is copied. */
const CLONE_TEMPLATE = `{
    entry: (run, slow, meter) => (d, budget) => (budget === undefined && meter.budget === undefined ? run(d) : slow(d, budget)),
    // The compiled entry is a parameter (a \`let\` would cost a check for its temporal dead zone at each
    // call); one declared parameter, so that \`evaluate(d)\` passes as many arguments as it declares
    // (fewer make V8 pad the call): a budget, when given, is the second argument.
    // The first call answers through \`first\` (the interpreter: a filter run once costs no closures),
    // the second compiles the program.
    lazy: (compile, first) =>
      ((run: Entry | undefined, calls: number) =>
        function (this: unknown, d: unknown): boolean {
          // eslint-disable-next-line prefer-rest-params
          const budget = arguments.length > 1 ? (arguments[1] as EvaluationBudget | undefined) : undefined;
          if (run === undefined) {
            if (calls++ === 0) return first(d, budget);
            run = compile();
          }
          return run(d, budget);
        } as Entry)(undefined, 0),
    count: (run) => (items) => {
      let n = 0;
      for (let i = 0; i < items.length; i++) if (run(items[i])) n++;
      return n;
    },
    and2: (a, b) => (d, f) => a(d, f) && b(d, f),
    or2: (a, b) => (d, f) => a(d, f) || b(d, f),
    and3: (a, b, c) => (d, f) => a(d, f) && b(d, f) && c(d, f),
    or3: (a, b, c) => (d, f) => a(d, f) || b(d, f) || c(d, f),
    and4: (a, b, c, e) => (d, f) => a(d, f) && b(d, f) && c(d, f) && e(d, f),
    or4: (a, b, c, e) => (d, f) => a(d, f) || b(d, f) || c(d, f) || e(d, f),
    andN: (runs) => (d, f) => {
      for (let i = 0; i < runs.length; i++) if (!runs[i]!(d, f)) return false;
      return true;
    },
    orN: (runs) => (d, f) => {
      for (let i = 0; i < runs.length; i++) if (runs[i]!(d, f)) return true;
      return false;
    },
    not: (run) => (d, f) => !run(d, f),
    path1: (k0, absentIsZero, test, negated, general) => (d, f) => {
      if (!(d != null && (d as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const x = (d as Rec)[k0];
      return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
    },
    path2: (k0, k1, absentIsZero, test, negated, general) => (d, f) => {
      if (!(d != null && (d as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const v = (d as Rec)[k0];
      if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const x = (v as Rec)[k1];
      return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
    },
    path3: (k0, k1, k2, absentIsZero, test, negated, general) => (d, f) => {
      if (!(d != null && (d as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const v = (d as Rec)[k0];
      if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const w = (v as Rec)[k1];
      if (!(w != null && (w as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const x = (w as Rec)[k2];
      return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
    },
    path4: (k0, k1, k2, k3, absentIsZero, test, negated, general) => (d, f) => {
      if (!(d != null && (d as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const v = (d as Rec)[k0];
      if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const w = (v as Rec)[k1];
      if (!(w != null && (w as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const y = (w as Rec)[k2];
      if (!(y != null && (y as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const x = (y as Rec)[k3];
      return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
    },
    pathN: (keys, absentIsZero, test, negated, general) => {
      const n = keys.length - 1;
      const last = keys[n]!;
      return (d, f) => {
        let v: unknown = d;
        for (let i = 0; i < n; i++) {
          if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
          v = (v as Rec)[keys[i]!];
        }
        if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
        const x = (v as Rec)[last];
        return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
      };
    },
  }`;

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
