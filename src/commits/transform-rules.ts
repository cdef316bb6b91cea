/**
 * Partition and sort transforms as Java binds them (Transforms.fromString(type, text) and each
 * transform's canTransform): the canonical text Java writes, and which source types each accepts.
 */
import { fail } from '../errors/index.js';
import type { IcebergType } from '../iceberg/index.js';
import { isJavaPrimitive } from './schema-rules.js';

export type TransformName = 'identity' | 'bucket' | 'truncate' | 'year' | 'month' | 'day' | 'hour' | 'void' | 'unknown';

export interface BoundTransform {
  readonly name: TransformName;
  /** Java Transform.toString(): `bucket[16]`, `day`; an unknown transform keeps its text. */
  readonly text: string;
}

// Java Transforms.HAS_WIDTH
const HAS_WIDTH = /^(\w+)\[(\d+)\]$/;
const SIMPLE: ReadonlySet<string> = new Set(['identity', 'year', 'month', 'day', 'hour', 'void']);

/**
 * Java Transforms.fromString(type, text) (or fromString(text) without a source type): a bucket
 * count or truncate width must be a positive int, and a known transform must accept the source
 * type (IllegalArgumentException there, but UnsupportedOperationException for truncate).
 */
export function bindTransform(text: string, sourceType: IcebergType | undefined): BoundTransform {
  const width = HAS_WIDTH.exec(text);
  if (width) {
    const name = width[1]!.toLowerCase();
    if (name === 'bucket' || name === 'truncate') {
      const n = Number(width[2]);
      if (n > 2 ** 31 - 1) throw fail('ILLEGAL_ARGUMENT', `Invalid ${name} width: ${width[2]}`);
      if (n <= 0) {
        throw fail('ILLEGAL_ARGUMENT', name === 'bucket' ? `Invalid number of buckets: ${n} (must be > 0)` : `Invalid truncate width: ${n} (must be > 0)`);
      }
      const bound: BoundTransform = { name, text: `${name}[${n}]` };
      if (sourceType !== undefined && !canTransform(bound.name, sourceType)) {
        // Java Bucket.get(type, n) refuses with IllegalArgumentException, Truncate.get(type, w) with UnsupportedOperationException (406)
        if (name === 'bucket') throw fail('ILLEGAL_ARGUMENT', `Cannot bucket by type: ${typeText(sourceType)}`);
        throw fail('UNSUPPORTED_OPERATION', `Cannot truncate type: ${typeText(sourceType)}`);
      }
      return bound;
    }
  }
  const lower = text.toLowerCase();
  if (!SIMPLE.has(lower)) return { name: 'unknown', text };
  const bound: BoundTransform = { name: lower as TransformName, text: lower };
  // Java Identity.get(type) refuses only its UNSUPPORTED_TYPES; a nested source fails later, in checkCompatibility
  if (bound.name === 'identity') {
    if (sourceType !== undefined && IDENTITY_UNSUPPORTED.has(sourceType.kind)) {
      throw fail('ILLEGAL_ARGUMENT', `Unsupported type for identity: ${typeText(sourceType)}`);
    }
    return bound;
  }
  if (sourceType !== undefined && !canTransform(bound.name, sourceType)) {
    throw fail('ILLEGAL_ARGUMENT', `Cannot bind ${lower} to unsupported type: ${typeText(sourceType)}`);
  }
  return bound;
}

/** Each Java transform's canTransform(type). Void and unknown transforms accept anything. */
export function canTransform(name: TransformName, type: IcebergType): boolean {
  switch (name) {
    case 'identity':
      return isJavaPrimitive(type) && !IDENTITY_UNSUPPORTED.has(type.kind);
    case 'bucket':
      return BUCKET_TYPES.has(type.kind);
    case 'truncate':
      return TRUNCATE_TYPES.has(type.kind);
    case 'year':
    case 'month':
    case 'day':
      return type.kind === 'date' || TIMESTAMP_TYPES.has(type.kind);
    case 'hour':
      return TIMESTAMP_TYPES.has(type.kind);
    case 'void':
    case 'unknown':
      return true;
  }
}

// Java Identity.UNSUPPORTED_TYPES
const IDENTITY_UNSUPPORTED: ReadonlySet<string> = new Set(['variant', 'geometry', 'geography']);
const TIMESTAMP_TYPES: ReadonlySet<string> = new Set(['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns']);
const BUCKET_TYPES: ReadonlySet<string> = new Set([
  'int',
  'long',
  'date',
  'time',
  ...TIMESTAMP_TYPES,
  'string',
  'binary',
  'fixed',
  'decimal',
  'uuid',
]);
const TRUNCATE_TYPES: ReadonlySet<string> = new Set(['int', 'long', 'string', 'binary', 'decimal']);

export function typeText(type: IcebergType): string {
  switch (type.kind) {
    case 'decimal':
      return `decimal(${type.precision}, ${type.scale})`;
    case 'fixed':
      return `fixed[${type.length}]`;
    case 'struct':
    case 'list':
    case 'map':
      return type.kind;
    default:
      return type.raw ?? type.kind;
  }
}

/** Java Transform.toString() of a transform read from stored metadata (its text when it cannot be bound). */
export function transformText(text: string): string {
  try {
    return bindTransform(text, undefined).text;
  } catch {
    return text;
  }
}
