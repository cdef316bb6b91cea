export {
  termRef,
  type BoundExpression,
  type BoundLiteralPredicate,
  type BoundPredicate,
  type BoundReference,
  type BoundSetPredicate,
  type BoundTerm,
  type BoundTransform,
  type BoundUnaryPredicate,
} from './bound.js';
export { bind } from './bind.js';
export { rewriteNot } from './rewrite-not.js';
export { evaluate, evalTerm, testPredicate } from './evaluator.js';
export { boundExpressionToJson, boundExpressionToString } from './bound-format.js';
export { valueKey } from './value-key.js';
