/**
 * The table properties commits read (Java TableProperties) and Java PropertyUtil's readers:
 * `Integer.parseInt` (a NumberFormatException is an IllegalArgumentException) and
 * `Boolean.parseBoolean` (only a case-insensitive "true" is true).
 */
import { fail } from '../errors/index.js';

export const FORMAT_VERSION = 'format-version';
export const METADATA_PREVIOUS_VERSIONS_MAX = 'write.metadata.previous-versions-max';
export const METADATA_PREVIOUS_VERSIONS_MAX_DEFAULT = 100;
export const METADATA_DELETE_AFTER_COMMIT_ENABLED = 'write.metadata.delete-after-commit.enabled';
export const METADATA_COMPRESSION = 'write.metadata.compression-codec';
export const WRITE_METADATA_LOCATION = 'write.metadata.path';
export const PARQUET_COMPRESSION = 'write.parquet.compression-codec';
// Java TableProperties.PARQUET_COMPRESSION_DEFAULT_SINCE_1_4_0: set explicitly on new tables
export const PARQUET_COMPRESSION_DEFAULT_SINCE_1_4_0 = 'zstd';
export const METRICS_MODE_COLUMN_CONF_PREFIX = 'write.metadata.metrics.column.';
export const METRICS_MAX_INFERRED_COLUMN_DEFAULTS = 'write.metadata.metrics.max-inferred-column-defaults';
export const COMMIT_PROPERTIES: readonly string[] = [
  'commit.retry.num-retries',
  'commit.retry.min-wait-ms',
  'commit.retry.max-wait-ms',
  'commit.retry.total-timeout-ms',
];
// Java EncryptionUtil.ENCRYPTION_TABLE_PROPERTIES: refused before v3
export const ENCRYPTION_TABLE_PROPERTIES: readonly string[] = ['encryption.key-id', 'encryption.data-key-length'];

/** Java TableProperties.RESERVED_PROPERTIES: they steer a create or update and are never stored. */
export const RESERVED_PROPERTIES: ReadonlySet<string> = new Set([
  FORMAT_VERSION,
  'uuid',
  'snapshot-count',
  'current-snapshot-id',
  'current-snapshot-summary',
  'current-snapshot-timestamp-ms',
  'current-schema',
  'default-partition-spec',
  'default-sort-order',
]);

/** Java Integer.parseInt: optional sign, decimal digits, within an int. */
export function parseJavaInt(text: string): number | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= -(2 ** 31) && n <= 2 ** 31 - 1 ? n : undefined;
}

/** Java PropertyUtil.propertyAsInt: a value that is not an int is an IllegalArgumentException. */
export function propertyAsInt(properties: Readonly<Record<string, string>>, key: string, fallback: number): number {
  const value = Object.hasOwn(properties, key) ? properties[key] : undefined;
  if (value === undefined) return fallback;
  const n = parseJavaInt(value);
  if (n === undefined) throw fail('ILLEGAL_ARGUMENT', `For input string: "${value}" (table property ${key})`);
  return n;
}

/** Java PropertyUtil.propertyAsBoolean (Boolean.parseBoolean). */
export function propertyAsBoolean(properties: Readonly<Record<string, string>>, key: string, fallback: boolean): boolean {
  const value = Object.hasOwn(properties, key) ? properties[key] : undefined;
  return value === undefined ? fallback : value.toLowerCase() === 'true';
}
