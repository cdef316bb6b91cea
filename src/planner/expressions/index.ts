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
export { inclusiveProjection, strictProjection } from './projections.js';
export { IN_PREDICATE_LIMIT, ManifestEvaluator } from './manifest-evaluator.js';
export { InclusiveMetricsEvaluator, type MetricsEvaluatorOptions } from './metrics-evaluator.js';
export { PartitionEvaluator } from './partition-evaluator.js';
export { ResidualEvaluator } from './residual-evaluator.js';
