/**
 * File pruning on column metrics (Java `InclusiveMetricsEvaluator` + `InclusiveEvalVisitor`;
 * wire-format.md §12.2). The filter is NOT-rewritten and bound to the table schema; a file is
 * skipped only when its value/null/NaN counts or lower/upper bounds prove that no row matches.
 * Rules worth knowing: a NaN lower bound (ORC) is treated as unknown; `in` with more than 200
 * values is not checked; string bounds may be truncated (the upper one rounded up), which every
 * rule tolerates; transform terms use f(lower)/f(upper) only when f preserves order. Metrics that
 * contradict themselves (lower > upper, nulls > values) are ignored for that file (metrics-sanity.ts).
 */
import type { Expression, Schema } from '../../iceberg/index.js';
import { boundCodec, comparableKey, compareTruncated, type BoundCodec, type Comparable } from './bound-codec.js';
import { bind } from './bind.js';
import { termRef, type BoundPredicate } from './bound.js';
import {
  comparesUuidBounds,
  compileTree,
  ROWS_CANNOT_MATCH,
  ROWS_MIGHT_MATCH,
  withUuidFallback,
  type Check,
} from './compile-tree.js';
import { IN_PREDICATE_LIMIT } from './manifest-evaluator.js';
import {
  containsNaNsOnly,
  containsNullsOnly,
  mayContainNaN,
  mayContainNull,
  termAccess,
  type FileMetrics,
  type TermAccess,
} from './metrics-access.js';
import { contradictoryColumns, withoutColumnMetrics, type CheckedColumn } from './metrics-sanity.js';
import { rewriteNot } from './rewrite-not.js';

const MIGHT: Check<FileMetrics> = () => ROWS_MIGHT_MATCH;

export interface MetricsEvaluatorOptions {
  /** Told of each file whose metrics for filter columns contradict themselves (they are ignored). */
  readonly onContradiction?: (file: FileMetrics, fieldIds: readonly number[]) => void;
}

export class InclusiveMetricsEvaluator {
  readonly #check: (file: FileMetrics) => boolean;
  /** The columns the filter reads: their metrics are checked for contradictions first. */
  readonly #columns: readonly CheckedColumn[];
  readonly #onContradiction: MetricsEvaluatorOptions['onContradiction'];

  /** Throws INVALID_FILTER when the filter does not bind to the schema. */
  constructor(schema: Schema, filter: Expression, caseSensitive = true, options: MetricsEvaluatorOptions = {}) {
    const bound = bind(rewriteNot(filter), schema.asStruct(), caseSensitive);
    const columns = new Map<number, CheckedColumn>();
    const compile = (pred: BoundPredicate): Check<FileMetrics> => {
      const ref = termRef(pred.term);
      columns.set(ref.fieldId, { fieldId: ref.fieldId, codec: boundCodec(ref.type) });
      return compileMetricsPredicate(pred);
    };
    this.#check = withUuidFallback(compileTree(bound, compile), comparesUuidBounds(bound));
    this.#columns = [...columns.values()];
    this.#onContradiction = options.onContradiction;
  }

  /** False only when the file's metrics prove that no row in it matches the filter. */
  mightMatch(file: FileMetrics): boolean {
    if (file.recordCount === 0n) return ROWS_CANNOT_MATCH;
    // imported files may carry -1: nothing is known
    if (file.recordCount < 0n) return ROWS_MIGHT_MATCH;
    const contradictory = contradictoryColumns(file, this.#columns);
    if (contradictory.length === 0) return this.#check(file);
    this.#onContradiction?.(file, contradictory);
    return this.#check(withoutColumnMetrics(file, contradictory));
  }
}

function compileMetricsPredicate(pred: BoundPredicate): Check<FileMetrics> {
  const codec = boundCodec(pred.term.type);
  const term = termAccess(pred.term, codec);
  const id = term.fieldId;
  if (pred.kind === 'unary') {
    switch (pred.op) {
      case 'is-null':
        // counts of the column hold for the term only when non-null maps to non-null
        return (f) => !(term.nonNullPreserving && !mayContainNull(f, id));
      case 'not-null':
        return (f) => !containsNullsOnly(f, id);
      case 'is-nan':
        return (f) => !containsNullsOnly(f, id) && (!term.isReference || mayContainNaN(f, id));
      case 'not-nan':
        return (f) => !(term.isReference && containsNaNsOnly(f, id));
    }
  }
  if (codec === undefined) return MIGHT;
  if (pred.kind === 'set') {
    const literals = pred.literals.map((v) => codec.prepare(v));
    return pred.op === 'in' ? compileIn(term, codec, literals) : compileNotIn(term, codec, literals);
  }
  return compileLiteral(pred.op, term, codec, codec.prepare(pred.literal));
}

function isNaNBound(codec: BoundCodec, c: Comparable): boolean {
  return codec.floating && Number.isNaN(c);
}

/**
 * InclusiveEvalVisitor.uniqueValue: the term's single value in the file, known when it has no
 * nulls, no NaN (floats), and equal non-NaN bounds.
 */
function uniqueValue(f: FileMetrics, term: TermAccess, codec: BoundCodec): Comparable | undefined {
  if (!term.nonNullPreserving || mayContainNull(f, term.fieldId)) return undefined;
  const lower = term.lower(f);
  const upper = term.upper(f);
  if (lower === undefined || upper === undefined || isNaNBound(codec, lower) || isNaNBound(codec, upper)) return undefined;
  if (codec.floating && mayContainNaN(f, term.fieldId)) return undefined;
  return codec.compare(lower, upper, false) === 0 ? lower : undefined;
}

function compileLiteral(
  op: BoundPredicate['op'],
  term: TermAccess,
  codec: BoundCodec,
  lit: Comparable,
): Check<FileMetrics> {
  const id = term.fieldId;
  // all terms map null to null, so a column of only nulls (or only NaN) has no match
  const nothingComparable = (f: FileMetrics): boolean => containsNullsOnly(f, id) || containsNaNsOnly(f, id);
  // a NaN lower bound (written by ORC) says nothing
  const lowerCannot = (f: FileMetrics, signed: boolean, cannot: (cmp: number) => boolean): boolean => {
    const lower = term.lower(f);
    return lower !== undefined && !isNaNBound(codec, lower) && cannot(codec.compare(lower, lit, signed));
  };
  const upperCannot = (f: FileMetrics, signed: boolean, cannot: (cmp: number) => boolean): boolean => {
    const upper = term.upper(f);
    return upper !== undefined && cannot(codec.compare(upper, lit, signed));
  };
  switch (op) {
    case 'lt':
      return (f, signed) => !(nothingComparable(f) || lowerCannot(f, signed, (cmp) => cmp >= 0));
    case 'lt-eq':
      return (f, signed) => !(nothingComparable(f) || lowerCannot(f, signed, (cmp) => cmp > 0));
    case 'gt':
      return (f, signed) => !(nothingComparable(f) || upperCannot(f, signed, (cmp) => cmp <= 0));
    case 'gt-eq':
      return (f, signed) => !(nothingComparable(f) || upperCannot(f, signed, (cmp) => cmp < 0));
    case 'eq':
      return (f, signed) =>
        !(nothingComparable(f) || lowerCannot(f, signed, (cmp) => cmp > 0) || upperCannot(f, signed, (cmp) => cmp < 0));
    case 'not-eq':
      return (f, signed) => {
        const value = uniqueValue(f, term, codec);
        return value === undefined || codec.compare(value, lit, signed) !== 0;
      };
    case 'starts-with':
      return term.isReference ? compileStartsWith(term, lit as Uint8Array) : MIGHT;
    case 'not-starts-with':
      return compileNotStartsWith(term, lit as Uint8Array);
    default:
      return MIGHT;
  }
}

// bounds are compared with the prefix after truncation to its length (a truncated upper bound is
// rounded up, so it stays >= every value that starts with the prefix)
function compileStartsWith(term: TermAccess, prefix: Uint8Array): Check<FileMetrics> {
  return (f) => {
    if (containsNullsOnly(f, term.fieldId)) return ROWS_CANNOT_MATCH;
    const lower = term.lower(f) as Uint8Array | undefined;
    if (lower === undefined) return ROWS_MIGHT_MATCH;
    if (compareTruncated(lower, prefix) > 0) return ROWS_CANNOT_MATCH;
    const upper = term.upper(f) as Uint8Array | undefined;
    return upper === undefined || compareTruncated(upper, prefix) >= 0;
  };
}

// cannot match only when every value starts with the prefix: no nulls and both bounds do
function compileNotStartsWith(term: TermAccess, prefix: Uint8Array): Check<FileMetrics> {
  const startsWith = (b: Uint8Array): boolean => b.length >= prefix.length && compareTruncated(b, prefix) === 0;
  return (f) => {
    if (!term.nonNullPreserving || mayContainNull(f, term.fieldId)) return ROWS_MIGHT_MATCH;
    const lower = term.lower(f) as Uint8Array | undefined;
    const upper = term.upper(f) as Uint8Array | undefined;
    return lower === undefined || upper === undefined || !(startsWith(lower) && startsWith(upper));
  };
}

function compileIn(term: TermAccess, codec: BoundCodec, literals: readonly Comparable[]): Check<FileMetrics> {
  const id = term.fieldId;
  return (f, signed) => {
    if (containsNullsOnly(f, id) || containsNaNsOnly(f, id)) return ROWS_CANNOT_MATCH;
    if (literals.length > IN_PREDICATE_LIMIT) return ROWS_MIGHT_MATCH;
    const lower = term.lower(f);
    if (lower === undefined || isNaNBound(codec, lower)) return ROWS_MIGHT_MATCH;
    // a missing upper bound means unbounded
    const upper = term.upper(f);
    for (const v of literals) {
      if (codec.compare(lower, v, signed) <= 0 && (upper === undefined || codec.compare(upper, v, signed) >= 0)) {
        return ROWS_MIGHT_MATCH;
      }
    }
    return ROWS_CANNOT_MATCH;
  };
}

function compileNotIn(term: TermAccess, codec: BoundCodec, literals: readonly Comparable[]): Check<FileMetrics> {
  const keys = new Set(literals.map(comparableKey));
  return (f) => {
    const value = uniqueValue(f, term, codec);
    return value === undefined || !keys.has(comparableKey(value));
  };
}
