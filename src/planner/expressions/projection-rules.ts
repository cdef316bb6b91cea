/**
 * Projection of one bound row predicate onto one partition field (Java `Transform.project` /
 * `projectStrict` of Identity, Bucket, Truncate, Dates, Timestamps, and `ProjectionUtil`;
 * wire-format.md §12.3). Inclusive: a row matching the predicate has a partition value matching
 * the projection. Strict: every row of a partition matching the projection matches the
 * predicate. Null means "no projection" (the caller uses true, or false for strict).
 */
import type { IcebergType, LiteralOp, PrimitiveValue, Transform } from '../../iceberg/index.js';
import { bucketOf, timeTransform, truncateValue } from '../transforms/index.js';
import type { BoundPredicate } from './bound.js';
import type { PartitionTarget } from './partition-targets.js';
import type { Projected, ProjectedShape } from './projected.js';
import { fixInclusiveTimeProjection, fixStrictTimeProjection } from './time-projection-fix.js';

export type ProjectionMode = 'inclusive' | 'strict';

type Apply = (v: PrimitiveValue) => PrimitiveValue;
type Step = (v: PrimitiveValue, delta: 1 | -1) => PrimitiveValue;

export function projectPredicate(mode: ProjectionMode, target: PartitionTarget, pred: BoundPredicate): Projected | null {
  const shape = projectShape(mode, target, pred);
  return shape === null ? null : { target, shape };
}

function projectShape(mode: ProjectionMode, target: PartitionTarget, pred: BoundPredicate): ProjectedShape | null {
  const term = pred.term;
  if (term.kind === 'transform' && term.transform.kind !== 'identity') {
    // ProjectionUtil.projectTransformPredicate: only onto a field with the same transform, which
    // is dropped (Java's Identity skips this check; wire-format.md §12.3 advises against that)
    return sameTransform(term.transform, target.transform) ? unchanged(pred) : null;
  }
  const t = target.transform;
  const source = target.sourceType;
  switch (t.kind) {
    case 'identity':
      // Identity.project = projectStrict: the same operation on the partition field
      return unchanged(pred);
    case 'bucket':
      return bucket(mode, pred, (v) => bucketOf(t.param!, source, v));
    case 'truncate':
      return truncate(mode, t.param!, source, pred);
    case 'year':
    case 'month':
    case 'day':
    case 'hour': {
      const unit = t.kind;
      const projected = integer(mode, pred, (v) => timeTransform(unit, source, v), stepFor(source));
      // Dates.project skips the fix for day on a date column: day(d) is d itself
      if (unit === 'day' && source.kind === 'date') return projected;
      return mode === 'inclusive' ? fixInclusiveTimeProjection(projected) : fixStrictTimeProjection(projected);
    }
    default:
      // void and unknown transforms (VoidTransform / UnknownTransform return null)
      return null;
  }
}

function sameTransform(a: Transform, b: Transform): boolean {
  // Java compares the transforms' toString(): the name and its parameter
  return a.kind === b.kind && a.param === b.param;
}

function unchanged(pred: BoundPredicate): ProjectedShape {
  switch (pred.kind) {
    case 'unary':
      return { kind: 'unary', op: pred.op };
    case 'literal':
      return { kind: 'literal', op: pred.op, value: pred.literal };
    case 'set':
      return { kind: 'set', op: pred.op, values: pred.literals };
  }
}

/** ProjectionUtil.transformSet: in projects inclusively, not-in strictly. */
function set(mode: ProjectionMode, pred: BoundPredicate, apply: Apply): ProjectedShape | null {
  if (pred.kind !== 'set' || pred.op !== (mode === 'inclusive' ? 'in' : 'not-in')) return null;
  return { kind: 'set', op: pred.op, values: pred.literals.map(apply) };
}

function lit(op: LiteralOp, value: PrimitiveValue): ProjectedShape {
  return { kind: 'literal', op, value };
}

// Bucket.project / projectStrict: only equality (inclusive) or inequality (strict) survives hashing
function bucket(mode: ProjectionMode, pred: BoundPredicate, apply: Apply): ProjectedShape | null {
  if (pred.kind === 'unary') return { kind: 'unary', op: pred.op };
  if (pred.kind === 'set') return set(mode, pred, apply);
  const wanted = mode === 'inclusive' ? 'eq' : 'not-eq';
  return pred.op === wanted ? lit(pred.op, apply(pred.literal)) : null;
}

function truncate(mode: ProjectionMode, width: number, source: IcebergType, pred: BoundPredicate): ProjectedShape | null {
  const apply: Apply = (v) => truncateValue(width, source, v) as PrimitiveValue;
  switch (source.kind) {
    case 'int':
    case 'long':
    case 'decimal':
      return integer(mode, pred, apply, stepFor(source));
    case 'string':
      return truncateString(mode, width, pred, apply);
    case 'binary':
      return array(mode, pred, apply);
    default:
      return null;
  }
}

/** The neighbouring value: Java int/long arithmetic (which wraps) or one unscaled decimal unit. */
function stepFor(type: IcebergType): Step {
  switch (type.kind) {
    case 'int':
    case 'date':
      return (v, d) => ((v as number) + d) | 0;
    case 'decimal':
      return (v, d) => (v as bigint) + BigInt(d);
    default:
      return (v, d) => BigInt.asIntN(64, (v as bigint) + BigInt(d));
  }
}

// ProjectionUtil.truncateInteger/Long/Decimal and their Strict variants
function integer(mode: ProjectionMode, pred: BoundPredicate, apply: Apply, step: Step): ProjectedShape | null {
  if (pred.kind === 'unary') return { kind: 'unary', op: pred.op };
  if (pred.kind === 'set') return set(mode, pred, apply);
  const v = pred.literal;
  if (mode === 'inclusive') {
    switch (pred.op) {
      case 'lt':
        return lit('lt-eq', apply(step(v, -1)));
      case 'lt-eq':
        return lit('lt-eq', apply(v));
      case 'gt':
        return lit('gt-eq', apply(step(v, 1)));
      case 'gt-eq':
        return lit('gt-eq', apply(v));
      case 'eq':
        return lit('eq', apply(v));
      default:
        return null;
    }
  }
  switch (pred.op) {
    case 'lt':
      return lit('lt', apply(v));
    case 'lt-eq':
      return lit('lt', apply(step(v, 1)));
    case 'gt':
      return lit('gt', apply(v));
    case 'gt-eq':
      return lit('gt', apply(step(v, -1)));
    case 'not-eq':
      return lit('not-eq', apply(v));
    default:
      // no strict projection for eq: neighbouring values share a partition
      return null;
  }
}

// ProjectionUtil.truncateArray / truncateArrayStrict (binary, and strings other than starts-with)
function array(mode: ProjectionMode, pred: BoundPredicate, apply: Apply): ProjectedShape | null {
  if (pred.kind === 'unary') return { kind: 'unary', op: pred.op };
  if (pred.kind === 'set') return set(mode, pred, apply);
  const v = apply(pred.literal);
  switch (pred.op) {
    case 'lt':
    case 'lt-eq':
      return lit(mode === 'inclusive' ? 'lt-eq' : 'lt', v);
    case 'gt':
    case 'gt-eq':
      return lit(mode === 'inclusive' ? 'gt-eq' : 'gt', v);
    case 'eq':
      return mode === 'inclusive' ? lit('eq', v) : null;
    case 'not-eq':
      return mode === 'strict' ? lit('not-eq', v) : null;
    case 'starts-with':
      return mode === 'inclusive' ? lit('starts-with', v) : null;
    default:
      return null;
  }
}

/**
 * Truncate.TruncateString: a prefix shorter than the width stays a prefix, one of exactly the
 * width becomes equality. Lengths count code points, as truncation does (Java compares UTF-16
 * lengths here, which wrongly turns a prefix with a surrogate pair into an equality).
 */
function truncateString(mode: ProjectionMode, width: number, pred: BoundPredicate, apply: Apply): ProjectedShape | null {
  if (pred.kind !== 'literal' || (pred.op !== 'starts-with' && pred.op !== 'not-starts-with')) {
    return array(mode, pred, apply);
  }
  const prefix = pred.literal as string;
  const length = codePointLength(prefix);
  const starts = pred.op === 'starts-with';
  if (length < width) return lit(pred.op, prefix);
  if (length === width) return lit(starts ? 'eq' : 'not-eq', prefix);
  if (starts) return mode === 'inclusive' ? lit('starts-with', apply(prefix)) : null;
  return mode === 'strict' ? lit('not-starts-with', apply(prefix)) : null;
}

/** Code points as `truncateCodePoints` counts them: a high surrogate takes the next unit with it. */
function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i += 1;
    n += 1;
  }
  return n;
}
