/**
 * What both entries of the package export alike (src/index.ts, the synchronous one, and src/web.ts):
 * the AST's types, the error classes and codes, and the schemas. None of it compiles a pattern, so it
 * is shared without bringing the regular-expression engine (src/index.ts).
 */
export type { Ast, Binding, CollectionExpr, Expr, Literal, MatchExpr, MatchOp, Segment, Selector, Span, AndExpr, OrExpr, NotExpr } from "./syntax/ast.js";
export {
  FilterError,
  FilterSyntaxError,
  FilterTypeError,
  FilterEvaluationError,
  renderCodeFrame,
  lineColumn,
  type FilterErrorCode,
  type SyntaxErrorCode,
  type TypeErrorCode,
  type TypeErrorDetail,
  type EvaluationErrorCode,
} from "./errors.js";
export { schemas, t, typeName, fieldOf, type Schema, type Type, type RecordType } from "./semantics/schema.js";
