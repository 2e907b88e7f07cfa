/**
 * fast-check arbitraries: random ASTs of the language (built from the node types, not from text),
 * random JSON data over the same names, and random job list entries.
 */
import fc from "fast-check";
import type { Binding, Expr, Literal, MatchExpr, MatchOp, Segment, Selector } from "../../src/index.js";

const SPAN = { start: 0, end: 0 };

/** Names, including every keyword (they are contextual). */
export const NAMES = ["a", "b", "x", "y", "Tags", "Meta", "in", "not", "and", "or", "is", "any", "all", "as", "contains", "matches", "empty", "nil", "k/v", "v2"];
/** Field names of the job schema, plus some that are not. */
export const JOB_NAMES = ["ID", "Status", "Priority", "Datacenters", "JobSummary", "Summary", "web", "Running", "Children", "Pending", "Stop", "Multiregion", "Type", "CreateIndex", "SubmitTime", "Regions"];

const goQuote = (s: string): string => JSON.stringify(s).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
const POINTER_PART = /^[\p{L}\p{N}\-_.~:|]+$/u;

function segmentArb(names: readonly string[]): fc.Arbitrary<Segment> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...names).map((name): Segment => ({ kind: "name", name, span: SPAN })) },
    { weight: 1, arbitrary: fc.nat(12).map((n): Segment => ({ kind: "index", name: String(n), span: SPAN })) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(fc.constantFrom(...names), fc.string({ maxLength: 4 }))
        .filter((name) => !name.includes('"'))
        .map((name): Segment => ({ kind: "key", name, raw: goQuote(name), span: SPAN })),
    },
  );
}

export function selectorArb(names: readonly string[]): fc.Arbitrary<Selector> {
  const path = fc
    .tuple(fc.constantFrom(...names), fc.array(segmentArb(names), { maxLength: 2 }))
    .map(([first, rest]): Selector => ({
      kind: "selector",
      form: "path",
      segments: [{ kind: "name", name: first, span: SPAN }, ...rest],
      raw: "",
      span: SPAN,
    }));
  const pointer = fc
    .array(fc.constantFrom(...names.filter((n) => POINTER_PART.test(n)), "0", "1"), { minLength: 1, maxLength: 3 })
    .map((parts): Selector => ({
      kind: "selector",
      form: "pointer",
      segments: parts.map((name) => ({ kind: "key", name, raw: "", span: SPAN })),
      raw: `"/${parts.join("/")}"`,
      span: SPAN,
    }));
  return fc.oneof({ weight: 5, arbitrary: path }, { weight: 1, arbitrary: pointer });
}

function wordOf(s: Selector): Literal {
  if (s.form === "pointer") return { kind: "literal", type: "pointer", raw: s.raw, text: s.segments.map((x) => x.name).join("/"), span: SPAN };
  const raw = s.segments.map((seg, i) => (seg.kind === "key" ? `[${seg.raw}]` : i === 0 ? seg.name : `.${seg.name}`)).join("");
  return { kind: "literal", type: "word", raw, text: s.segments.map((x) => x.name).join("."), span: SPAN };
}

const numberRaw = fc
  .tuple(fc.boolean(), fc.oneof(fc.constant("0"), fc.integer({ min: 1, max: 99999 }).map(String)), fc.option(fc.stringMatching(/^[0-9]{1,3}$/), { nil: undefined }))
  .map(([neg, int, frac]) => `${neg ? "-" : ""}${int}${frac ? `.${frac}` : ""}`);

const TEXTS = ["", "a", "dc1", "running", "0x10", "1_000", "TRUE", "t", "1.5", "-1", "inf", "NaN", "1e3", "web-1", "é", "日本", "a b", "q\"uote", "line\nbreak", "^a", "(", "x{2,}", "9007199254740993", "(?i)WEB", "a|b", "[a-c]+q"];

export function literalArb(names: readonly string[]): fc.Arbitrary<Literal> {
  const text = fc.oneof(fc.constantFrom(...TEXTS), fc.string({ maxLength: 6 }));
  return fc.oneof(
    numberRaw.map((raw): Literal => ({ kind: "literal", type: "number", raw, text: raw, span: SPAN })),
    // A double-quoted string ends at the next quote whatever precedes it: `"` is only writable in backticks.
    text.filter((t) => !t.includes('"')).map((t): Literal => {
      const raw = goQuote(t);
      // A JSON-Pointer-shaped string is the pointer quirk, not a string.
      if (/^"(?:\/[\p{L}\p{N}\-_.~:|]+)*"$/u.test(raw)) {
        const parts = raw === '""' ? [""] : raw.slice(2, -1).split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
        return { kind: "literal", type: "pointer", raw, text: parts.join("/"), span: SPAN };
      }
      return { kind: "literal", type: "string", raw, text: t, span: SPAN };
    }),
    text.filter((t) => !t.includes("`")).map((t): Literal => ({ kind: "literal", type: "string", raw: `\`${t}\``, text: t.replace(/\r/g, ""), span: SPAN })),
    selectorArb(names).map(wordOf),
  );
}

const VALUE_OPS: MatchOp[] = ["==", "!=", "contains", "not contains", "matches", "not matches", "in", "not in"];
const UNARY_OPS: MatchOp[] = ["is empty", "is not empty", "is nil", "is not nil"];

export function matchArb(names: readonly string[]): fc.Arbitrary<MatchExpr> {
  const withValue = fc.tuple(selectorArb(names), fc.constantFrom(...VALUE_OPS), literalArb(names)).map(
    ([selector, op, value]): MatchExpr => ({ kind: "match", op, selector, value, opSpan: SPAN, span: SPAN }),
  );
  const unary = fc.tuple(selectorArb(names), fc.constantFrom(...UNARY_OPS)).map(([selector, op]): MatchExpr => ({ kind: "match", op, selector, opSpan: SPAN, span: SPAN }));
  return fc.oneof({ weight: 3, arbitrary: withValue }, { weight: 1, arbitrary: unary });
}

const BIND_NAMES = ["v", "k", "i", "el", "x"];
const bindingArb: fc.Arbitrary<Binding> = fc.oneof(
  fc.constantFrom(...BIND_NAMES).map((name): Binding => ({ mode: "default", name })),
  fc.constantFrom(...BIND_NAMES).map((index): Binding => ({ mode: "index", index })),
  fc.constantFrom(...BIND_NAMES).map((value): Binding => ({ mode: "value", value })),
  fc.tuple(fc.constantFrom(...BIND_NAMES), fc.constantFrom(...BIND_NAMES)).map(([index, value]): Binding => ({ mode: "index-value", index, value })),
);

/** Random expressions over `names`; collection bodies also refer to their bound names. */
export function exprArb(names: readonly string[], maxDepth = 4): fc.Arbitrary<Expr> {
  const { expr } = fc.letrec<{ expr: Expr; leaf: Expr }>((tie) => ({
    leaf: matchArb(names),
    expr: fc.oneof(
      { depthSize: "small", maxDepth, withCrossShrink: true },
      { weight: 4, arbitrary: tie("leaf") },
      { weight: 1, arbitrary: tie("expr").map((operand): Expr => ({ kind: "not", operand, span: SPAN })) },
      { weight: 1, arbitrary: fc.array(tie("expr"), { minLength: 2, maxLength: 3 }).map((operands): Expr => ({ kind: "and", operands, span: SPAN })) },
      { weight: 1, arbitrary: fc.array(tie("expr"), { minLength: 2, maxLength: 3 }).map((operands): Expr => ({ kind: "or", operands, span: SPAN })) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom("any", "all") as fc.Arbitrary<"any" | "all">, selectorArb(names), bindingArb, tie("expr"))
          // `any in as ...` is a match, not a collection: the reference reads it so.
          .filter(([, s]) => !(s.form === "path" && s.segments.length === 1 && ["in", "contains", "matches"].includes(s.segments[0]!.name)))
          .map(([quantifier, selector, binding, body]): Expr => ({ kind: "collection", quantifier, selector, binding, body, span: SPAN })),
      },
    ),
  }));
  return expr;
}

/** Drops spans so ASTs compare by structure. */
export function withoutSpans(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutSpans);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== "span" && k !== "opSpan") out[k] = withoutSpans(x);
    return out;
  }
  return v;
}

/** Random JSON data whose keys come from `names` (and the corpus's favourite values). */
export function jsonArb(names: readonly string[]): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(
    fc.constantFrom(...TEXTS),
    fc.constantFrom(0, 1, -1, 1.5, 16, 50, 2 ** 53, 1e21),
    fc.boolean(),
    fc.constant(null),
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 3 },
      { weight: 3, arbitrary: scalar },
      { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...names, "0", "1"), tie("value"), { maxKeys: 4 }) },
    ),
  }));
  return fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 6 });
}

/** Random job list entries (fields present or absent, summaries with random groups). */
export const jobArb: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    ID: fc.constantFrom("web-1", "/x", "api", ""),
    Status: fc.constantFrom("running", "pending", "dead"),
    Type: fc.constantFrom("service", "batch", "system"),
    Priority: fc.constantFrom(0, 50, 100, 2 ** 53 + 1),
    Stop: fc.boolean(),
    CreateIndex: fc.nat(20),
    SubmitTime: fc.constantFrom(0, 1_700_000_000_000_000_000n),
    Datacenters: fc.oneof(fc.constant(null), fc.array(fc.constantFrom("dc1", "dc2", "*"), { maxLength: 3 })),
    Multiregion: fc.constantFrom(null, { Strategy: { MaxParallel: 1 }, Regions: [{ Name: "east" }] }),
    JobSummary: fc.oneof(
      fc.constant(null),
      fc.record({
        Children: fc.oneof(fc.constant(null), fc.record({ Pending: fc.nat(3), Running: fc.nat(3), Dead: fc.nat(3) })),
        Summary: fc.dictionary(fc.constantFrom("web", "api", "0", "Running"), fc.record({ Running: fc.nat(3), Queued: fc.nat(3) }, { requiredKeys: [] }), { maxKeys: 3 }),
      }, { requiredKeys: [] }),
    ),
  },
  { requiredKeys: [] },
);
