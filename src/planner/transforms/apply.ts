import { fail } from '../../errors/index.js';
import { isPrimitive, type IcebergType, type LiteralValue, type Transform } from '../../iceberg/index.js';
import { bucketOf } from './bucket.js';
import { timeTransform } from './time.js';
import { truncateValue } from './truncate.js';

const BUCKET_SOURCES = new Set([
  'int', 'long', 'decimal', 'date', 'time', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns',
  'string', 'uuid', 'fixed', 'binary',
]);
const TRUNCATE_SOURCES = new Set(['int', 'long', 'decimal', 'string', 'binary']);
const DATE_SOURCES = new Set(['date', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns']);
const HOUR_SOURCES = new Set(['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns']);
const NOT_IDENTITY = new Set(['variant', 'geometry', 'geography']);

/**
 * Whether `transform` accepts a source column of `type` (spec "Partition Transforms" source
 * types). An unknown transform is assumed to accept any type, as Java's `UnknownTransform` does.
 */
export function canTransform(transform: Transform, type: IcebergType): boolean {
  switch (transform.kind) {
    case 'identity':
      return isPrimitive(type) && !NOT_IDENTITY.has(type.kind);
    case 'bucket':
      return BUCKET_SOURCES.has(type.kind);
    case 'truncate':
      return TRUNCATE_SOURCES.has(type.kind);
    case 'year':
    case 'month':
    case 'day':
      return DATE_SOURCES.has(type.kind);
    case 'hour':
      return HOUR_SOURCES.has(type.kind);
    case 'void':
    case 'unknown':
      return true;
  }
}

/** True when `a <= b` implies `t(a) <= t(b)` (Java `Transform.preservesOrder`): identity, truncate and the time transforms. */
export function preservesOrder(transform: Transform): boolean {
  switch (transform.kind) {
    case 'identity':
    case 'truncate':
    case 'year':
    case 'month':
    case 'day':
    case 'hour':
      return true;
    default:
      return false;
  }
}

/**
 * The partition value of `value` (internal representation, see `LiteralValue`) under
 * `transform` (spec "Partition Transforms"); null in gives null out, void always gives null.
 * bucket, year, month, day and hour give a number (day: days from 1970-01-01, i.e. a date);
 * identity and truncate keep the source representation. Throws UNSUPPORTED_OPERATION for an
 * unknown transform and INVALID_VALUE when the source type does not fit.
 */
export function applyTransform(transform: Transform, sourceType: IcebergType, value: unknown): LiteralValue | null {
  if (transform.kind === 'unknown') {
    throw fail('UNSUPPORTED_OPERATION', `Cannot apply unsupported transform: ${transform.text}`);
  }
  if (value === null || value === undefined || transform.kind === 'void') return null;
  if (!canTransform(transform, sourceType)) {
    throw fail('INVALID_VALUE', `Cannot apply ${transform.text} to a ${sourceType.kind} column`);
  }
  switch (transform.kind) {
    case 'identity':
      return value as LiteralValue;
    case 'bucket':
      return bucketOf(param(transform), sourceType, value);
    case 'truncate':
      return truncateValue(param(transform), sourceType, value);
    default:
      return timeTransform(transform.kind, sourceType, value);
  }
}

function param(transform: Transform): number {
  const n = transform.param;
  if (n === undefined || !Number.isInteger(n) || n <= 0) {
    throw fail('INVALID_VALUE', `Transform ${transform.text} needs a positive integer parameter`);
  }
  return n;
}
