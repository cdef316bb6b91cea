/**
 * Partition and sort transforms by name (spec "Partition Transforms"). Only the model lives
 * here; applying a transform to values is planner/transforms' job.
 */
import type { IcebergType } from './types.js';

export type TransformKind =
  | 'identity'
  | 'bucket'
  | 'truncate'
  | 'year'
  | 'month'
  | 'day'
  | 'hour'
  | 'void'
  | 'unknown';

export interface Transform {
  readonly kind: TransformKind;
  /** N of bucket[N], W of truncate[W]. */
  readonly param?: number;
  /** The transform string as written in metadata. */
  readonly text: string;
}

const PARAMETERISED = /^\s*(bucket|truncate)\[\s*(\d+)\s*\]\s*$/i;
const SIMPLE: ReadonlySet<string> = new Set(['identity', 'year', 'month', 'day', 'hour', 'void']);

/**
 * Java Transforms.fromString: names are case-insensitive and anything unrecognised becomes an
 * UnknownTransform (kept, never applied). A bucket count or truncate width that is not a
 * positive int is treated as unknown too, rather than failing the whole table.
 */
export function parseTransform(text: string): Transform {
  const m = PARAMETERISED.exec(text);
  if (m) {
    const param = Number(m[2]);
    if (param > 0 && param <= 2 ** 31 - 1) {
      return { kind: m[1]!.toLowerCase() as 'bucket' | 'truncate', param, text };
    }
    return { kind: 'unknown', text };
  }
  const lower = text.trim().toLowerCase();
  if (SIMPLE.has(lower)) return { kind: lower as TransformKind, text };
  return { kind: 'unknown', text };
}

const INT: IcebergType = { kind: 'int' };
const DATE: IcebergType = { kind: 'date' };

/**
 * Spec "Partition Transforms" result types: bucket/year/month/hour → int, day → date;
 * identity, truncate, void and unknown transforms keep the source type.
 */
export function transformResultType(transform: Transform, sourceType: IcebergType): IcebergType {
  switch (transform.kind) {
    case 'bucket':
    case 'year':
    case 'month':
    case 'hour':
      return INT;
    case 'day':
      return DATE;
    default:
      return sourceType;
  }
}
