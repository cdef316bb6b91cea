/**
 * Corrections for files written by Iceberg 0.10.0 and earlier, whose date and timestamp
 * transforms produced values one too large for pre-1970 values (day(1969-12-31T10:00) was 0,
 * not -1). Java `ProjectionUtil.fixInclusiveTimeProjection` / `fixStrictTimeProjection`;
 * wire-format.md §12.3. Values are the int results of year/month/day/hour.
 */
import type { ProjectedShape } from './projected.js';

function withNegativesPlusOne(values: readonly unknown[]): { values: number[]; changed: boolean } {
  // Java builds a HashSet here, so the result is de-duplicated only when something was added
  const set = new Set<number>();
  let changed = false;
  for (const v of values as readonly number[]) {
    set.add(v);
    if (v < 0) {
      changed = true;
      set.add(v + 1);
    }
  }
  return { values: [...set], changed };
}

// ProjectionUtil.fixInclusiveTimeProjection: widen so the old, one-too-large values still match
export function fixInclusiveTimeProjection(projected: ProjectedShape | null): ProjectedShape | null {
  if (projected === null || projected.kind === 'unary') return projected;
  if (projected.kind === 'set') {
    if (projected.op === 'not-in') return null;
    const fixed = withNegativesPlusOne(projected.values);
    return fixed.changed ? { kind: 'set', op: 'in', values: fixed.values } : projected;
  }
  const v = projected.value as number;
  switch (projected.op) {
    case 'lt':
    case 'lt-eq':
      return v < 0 ? { kind: 'literal', op: projected.op, value: v + 1 } : projected;
    case 'eq':
      return v < 0 ? { kind: 'set', op: 'in', values: [v, v + 1] } : projected;
    case 'not-eq':
      return null;
    default:
      return projected;
  }
}

// ProjectionUtil.fixStrictTimeProjection: narrow so the old values cannot claim a false match
export function fixStrictTimeProjection(projected: ProjectedShape | null): ProjectedShape | null {
  if (projected === null || projected.kind === 'unary') return projected;
  if (projected.kind === 'set') {
    if (projected.op === 'in') return null;
    const fixed = withNegativesPlusOne(projected.values);
    return fixed.changed ? { kind: 'set', op: 'not-in', values: fixed.values } : projected;
  }
  const v = projected.value as number;
  switch (projected.op) {
    case 'lt':
    case 'lt-eq':
      return projected;
    case 'gt':
    case 'gt-eq':
      return v <= 0 ? { kind: 'literal', op: projected.op, value: v + 1 } : projected;
    case 'not-eq':
      return v < 0 ? { kind: 'set', op: 'not-in', values: [v, v + 1] } : projected;
    default:
      return null;
  }
}
