/**
 * Entry pruning on a file's partition tuple (Java `ManifestGroup`: `new Evaluator(
 * spec.partitionType(), Projections.inclusive(spec).project(rowFilter))`): the exact evaluator
 * applied to the inclusive projection of the row filter under the file's spec.
 */
import type { Expression, LiteralValue, PartitionSpec, Schema } from '../../iceberg/index.js';
import { rowCheck } from './evaluator.js';
import { boundProjection } from './projections.js';

export class PartitionEvaluator {
  readonly #matches: (partition: ReadonlyArray<LiteralValue | null>) => boolean;

  /** Throws INVALID_FILTER when the filter does not bind to the schema. */
  constructor(spec: PartitionSpec, schema: Schema, filter: Expression, caseSensitive = true) {
    this.#matches = rowCheck(boundProjection('inclusive', filter, spec, schema, caseSensitive));
  }

  /**
   * False only when no row of a file with this partition tuple (spec field order, values of the
   * partition result types) can match the filter.
   */
  matches(partition: ReadonlyArray<LiteralValue | null>): boolean {
    return this.#matches(partition);
  }
}
