/**
 * Manifest pruning on partition summaries (Java `ManifestEvaluator.forRowFilter`;
 * wire-format.md §12.1). The row filter is projected inclusively onto the manifest's spec, NOTs
 * rewritten, and bound to the partition struct; each predicate then reads the summary at its
 * field's position. Summary bounds are Appendix D bytes of the partition field's result type and
 * are null when every value is null (or NaN).
 */
import type { Expression, ManifestFile, PartitionFieldSummary, PartitionSpec, Schema } from '../../iceberg/index.js';
import { boundCodec, comparableKey, compareTruncated, type BoundCodec, type Comparable } from './bound-codec.js';
import type { BoundPredicate } from './bound.js';
import {
  comparesUuidBounds,
  compileTree,
  ROWS_CANNOT_MATCH,
  ROWS_MIGHT_MATCH,
  withUuidFallback,
  type Check,
} from './compile-tree.js';
import { boundProjection } from './projections.js';
import { rewriteNot } from './rewrite-not.js';

type Summaries = readonly PartitionFieldSummary[];

/** ManifestEvaluator.IN_PREDICATE_LIMIT: larger sets are not checked against bounds. */
export const IN_PREDICATE_LIMIT = 200;

const MIGHT: Check<Summaries> = () => ROWS_MIGHT_MATCH;

export class ManifestEvaluator {
  readonly #check: (summaries: Summaries) => boolean;

  /** Throws INVALID_FILTER when the filter does not bind to the schema. */
  constructor(spec: PartitionSpec, schema: Schema, filter: Expression, caseSensitive = true) {
    const bound = rewriteNot(boundProjection('inclusive', filter, spec, schema, caseSensitive));
    this.#check = withUuidFallback(compileTree(bound, compileSummaryPredicate), comparesUuidBounds(bound));
  }

  /** False only when no data file tracked by the manifest can contain a matching row. */
  mightMatch(manifest: ManifestFile): boolean {
    const summaries = manifest.partitions;
    // no partition summaries: nothing is known
    if (summaries === undefined || summaries === null) return ROWS_MIGHT_MATCH;
    return this.#check(summaries);
  }
}

function isFloating(pred: BoundPredicate): boolean {
  return pred.term.type.kind === 'float' || pred.term.type.kind === 'double';
}

// ManifestEvaluator.allValuesAreNull: a float column whose NaN flag is unknown may hold NaN
function allValuesAreNull(s: PartitionFieldSummary, floating: boolean): boolean {
  const allNull = s.containsNull && s.lowerBound == null;
  return allNull && floating ? s.containsNan != null && !s.containsNan : allNull;
}

function compileSummaryPredicate(pred: BoundPredicate): Check<Summaries> {
  // projections only produce plain references to top-level partition fields
  if (pred.term.kind !== 'ref' || pred.term.accessor === null) return MIGHT;
  const pos = pred.term.accessor[0]!;
  const floating = isFloating(pred);
  if (pred.kind === 'unary') {
    switch (pred.op) {
      case 'is-null':
        return (ss) => (ss[pos]?.containsNull === false ? ROWS_CANNOT_MATCH : ROWS_MIGHT_MATCH);
      case 'not-null':
        return (ss) => !(ss[pos] !== undefined && allValuesAreNull(ss[pos], floating));
      case 'is-nan':
        return (ss) => {
          const s = ss[pos];
          if (s === undefined) return ROWS_MIGHT_MATCH;
          if (s.containsNan != null && !s.containsNan) return ROWS_CANNOT_MATCH;
          return !allValuesAreNull(s, floating);
        };
      case 'not-nan':
        // all NaN: NaN seen, no null, and no bounds
        return (ss) => {
          const s = ss[pos];
          return !(s !== undefined && s.containsNan === true && !s.containsNull && s.lowerBound == null);
        };
    }
  }
  const codec = boundCodec(pred.term.type);
  if (codec === undefined) return MIGHT;
  if (pred.kind === 'literal') return compileLiteral(pred.op, pos, codec, codec.prepare(pred.literal), floating);
  return compileSet(pred.op, pos, codec, pred.literals.map((v) => codec.prepare(v)), floating);
}

/**
 * The single value of a partition field across the manifest (ManifestEvaluator.uniqueValue): no
 * nulls, for floats known to have no NaN, and equal bounds.
 */
function uniqueValue(s: PartitionFieldSummary | undefined, codec: BoundCodec, floating: boolean): Comparable | undefined {
  if (s === undefined || s.containsNull) return undefined;
  if (floating && (s.containsNan == null || s.containsNan)) return undefined;
  if (s.lowerBound == null || s.upperBound == null) return undefined;
  const lower = codec.decode(s.lowerBound);
  const upper = codec.decode(s.upperBound);
  if (lower === undefined || upper === undefined || codec.compare(lower, upper, false) !== 0) return undefined;
  return lower;
}

function compileLiteral(
  op: BoundPredicate['op'],
  pos: number,
  codec: BoundCodec,
  lit: Comparable,
  floating: boolean,
): Check<Summaries> {
  // lowerBound == null means every value is null: no comparison can match
  const lowerCmp = (ss: Summaries, signed: boolean, cannot: (cmp: number) => boolean): boolean => {
    const s = ss[pos];
    if (s === undefined) return ROWS_MIGHT_MATCH;
    if (s.lowerBound == null) return ROWS_CANNOT_MATCH;
    const lower = codec.decode(s.lowerBound);
    return lower === undefined || !cannot(codec.compare(lower, lit, signed));
  };
  const upperCmp = (ss: Summaries, signed: boolean, cannot: (cmp: number) => boolean): boolean => {
    const s = ss[pos];
    if (s === undefined) return ROWS_MIGHT_MATCH;
    if (s.upperBound == null) return ROWS_CANNOT_MATCH;
    const upper = codec.decode(s.upperBound);
    return upper === undefined || !cannot(codec.compare(upper, lit, signed));
  };
  switch (op) {
    case 'lt':
      return (ss, signed) => lowerCmp(ss, signed, (cmp) => cmp >= 0);
    case 'lt-eq':
      return (ss, signed) => lowerCmp(ss, signed, (cmp) => cmp > 0);
    case 'gt':
      return (ss, signed) => upperCmp(ss, signed, (cmp) => cmp <= 0);
    case 'gt-eq':
      return (ss, signed) => upperCmp(ss, signed, (cmp) => cmp < 0);
    case 'eq':
      // a lower bound without an upper one is malformed (Java would fail): only the lower is used
      return (ss, signed) =>
        lowerCmp(ss, signed, (cmp) => cmp > 0) && (ss[pos]?.upperBound == null || upperCmp(ss, signed, (cmp) => cmp < 0));
    case 'not-eq':
      // bounds need not be values, so only a single known value can rule out not-eq
      return (ss, signed) => {
        const value = uniqueValue(ss[pos], codec, floating);
        return value === undefined || codec.compare(value, lit, signed) !== 0;
      };
    case 'starts-with':
      // bounds truncated to the prefix length in bytes, compared unsigned
      return (ss) => {
        const s = ss[pos];
        if (s === undefined) return ROWS_MIGHT_MATCH;
        if (s.lowerBound == null) return ROWS_CANNOT_MATCH;
        if (compareTruncated(s.lowerBound, lit as Uint8Array) > 0) return ROWS_CANNOT_MATCH;
        return s.upperBound == null || compareTruncated(s.upperBound, lit as Uint8Array) >= 0;
      };
    case 'not-starts-with':
      // cannot match only when both bounds start with the prefix (and there is no null)
      return (ss) => {
        const s = ss[pos];
        if (s === undefined || s.containsNull || s.lowerBound == null || s.upperBound == null) return ROWS_MIGHT_MATCH;
        const prefix = lit as Uint8Array;
        const startsWith = (b: Uint8Array): boolean => b.length >= prefix.length && compareTruncated(b, prefix) === 0;
        return !(startsWith(s.lowerBound) && startsWith(s.upperBound));
      };
    default:
      return MIGHT;
  }
}

function compileSet(
  op: 'in' | 'not-in',
  pos: number,
  codec: BoundCodec,
  literals: readonly Comparable[],
  floating: boolean,
): Check<Summaries> {
  if (op === 'not-in') {
    const keys = new Set(literals.map(comparableKey));
    return (ss) => {
      const value = uniqueValue(ss[pos], codec, floating);
      return value === undefined || !keys.has(comparableKey(value));
    };
  }
  return (ss, signed) => {
    const s = ss[pos];
    if (s === undefined) return ROWS_MIGHT_MATCH;
    if (s.lowerBound == null) return ROWS_CANNOT_MATCH;
    if (literals.length > IN_PREDICATE_LIMIT) return ROWS_MIGHT_MATCH;
    const lower = codec.decode(s.lowerBound);
    const upper = s.upperBound == null ? undefined : codec.decode(s.upperBound);
    if (lower === undefined) return ROWS_MIGHT_MATCH;
    // might match when some literal lies within [lower, upper]
    for (const v of literals) {
      if (codec.compare(lower, v, signed) <= 0 && (upper === undefined || codec.compare(upper, v, signed) >= 0)) {
        return ROWS_MIGHT_MATCH;
      }
    }
    return ROWS_CANNOT_MATCH;
  };
}
