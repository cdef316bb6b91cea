/**
 * Table metadata for format v1, v2 and v3 (spec "Table Metadata"; REST spec `TableMetadata`),
 * read as Java's TableMetadataParser.fromJson does, more liberally where real writers differ
 * (python-formatted JSON, `current-snapshot-id: null`, missing optional lists, v1 without
 * `schemas`), strictly where a value is unusable. Unknown top-level keys are kept in `extra`.
 */
import { gunzipSync } from 'node:zlib';
import { isIcefrontError } from '../errors/index.js';
import { parseJson } from '../json/index.js';
import { parseSchema, type Schema } from './schema.js';
import { parsePartitionFields, parsePartitionSpec, type PartitionSpec } from './partition-spec.js';
import { UNSORTED_ORDER, parseSortOrder, type SortOrder } from './sort-order.js';
import { MAIN_BRANCH, parseSnapshot, parseSnapshotRef, type Snapshot, type SnapshotRef } from './snapshot.js';
import {
  parseEncryptedKey,
  parsePartitionStatisticsFile,
  parseStatisticsFile,
  type EncryptedKey,
  type PartitionStatisticsFile,
  type StatisticsFile,
} from './statistics.js';
import {
  asArray,
  asObject,
  at,
  invalid,
  optArray,
  optInt,
  optLong,
  optObject,
  optString,
  reqInt,
  reqLong,
  reqMillis,
  reqString,
  setKey,
  stringMap,
  type JsonObject,
} from './json-fields.js';

export type FormatVersion = 1 | 2 | 3;

export interface SnapshotLogEntry {
  readonly timestampMs: number;
  readonly snapshotId: bigint;
}

export interface MetadataLogEntry {
  readonly timestampMs: number;
  readonly metadataFile: string;
}

export interface TableMetadata {
  readonly formatVersion: FormatVersion;
  /** Required from v2; a few v1 writers omitted it. */
  readonly tableUuid?: string;
  readonly location: string;
  /** 0 for v1. */
  readonly lastSequenceNumber: bigint;
  readonly lastUpdatedMs: number;
  readonly lastColumnId: number;
  readonly schemas: readonly Schema[];
  readonly currentSchemaId: number;
  readonly partitionSpecs: readonly PartitionSpec[];
  readonly defaultSpecId: number;
  readonly lastPartitionId: number;
  readonly properties: Readonly<Record<string, string>>;
  /** Undefined when the table has no current snapshot (written as -1, or null/absent). */
  readonly currentSnapshotId?: bigint;
  readonly snapshots: readonly Snapshot[];
  readonly snapshotLog: readonly SnapshotLogEntry[];
  readonly metadataLog: readonly MetadataLogEntry[];
  readonly sortOrders: readonly SortOrder[];
  readonly defaultSortOrderId: number;
  readonly refs: Readonly<Record<string, SnapshotRef>>;
  readonly statistics: readonly StatisticsFile[];
  readonly partitionStatistics: readonly PartitionStatisticsFile[];
  /** v3 row lineage. */
  readonly nextRowId?: bigint;
  readonly encryptionKeys: readonly EncryptedKey[];
  /** Top-level keys this parser does not know, kept verbatim for round trips. */
  readonly extra: Readonly<Record<string, unknown>>;
}

const KNOWN_METADATA_KEYS: ReadonlySet<string> = new Set([
  'format-version',
  'table-uuid',
  'location',
  'last-sequence-number',
  'last-updated-ms',
  'last-column-id',
  'schema',
  'schemas',
  'current-schema-id',
  'partition-spec',
  'partition-specs',
  'default-spec-id',
  'last-partition-id',
  'default-sort-order-id',
  'sort-orders',
  'properties',
  'current-snapshot-id',
  'next-row-id',
  'encryption-keys',
  'refs',
  'snapshots',
  'statistics',
  'partition-statistics',
  'snapshot-log',
  'metadata-log',
]);

/** The text of a metadata file's bytes, gunzipped when gzip-compressed (`.gz.metadata.json`). */
export function metadataFileText(bytes: Uint8Array): string {
  const gz = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  return Buffer.from(gz ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Parses metadata JSON text (or an already parsed value from `parseJson`). */
export function parseTableMetadata(input: string | unknown): TableMetadata {
  let json = input;
  if (typeof input === 'string') {
    try {
      json = parseJson(input);
    } catch (err) {
      if (isIcefrontError(err, 'INVALID_JSON')) throw invalid('', `is not valid JSON: ${err.message}`);
      throw err;
    }
  }
  const obj = asObject(json, '');
  const formatVersion = reqInt(obj, 'format-version', '');
  if (formatVersion < 1 || formatVersion > 3) throw invalid('format-version', `is not supported: ${formatVersion}`);
  const v = formatVersion as FormatVersion;

  const tableUuid = optString(obj, 'table-uuid', '');
  // spec "Table Metadata Fields": table-uuid is required from v2
  if (tableUuid === undefined && v > 1) throw invalid('table-uuid', 'is missing');

  const { schemas, currentSchemaId } = readSchemas(obj, v);
  const { specs, defaultSpecId } = readSpecs(obj, v);
  // Java requires sort-orders from v2; without them every version reads as unsorted
  const sortOrdersJson = optArray(obj, 'sort-orders', '');
  const sortOrders = sortOrdersJson?.map((o, i) => parseSortOrder(o, at('sort-orders', i))) ?? [UNSORTED_ORDER];
  const snapshots = (optArray(obj, 'snapshots', '') ?? []).map((s, i) => parseSnapshot(s, at('snapshots', i)));

  // -1 (Java v1/v2), null (Java v3) and absent all mean "no current snapshot"
  const rawCurrent = optLong(obj, 'current-snapshot-id', '');
  const currentSnapshotId = rawCurrent === undefined || rawCurrent === -1n ? undefined : rawCurrent;
  if (currentSnapshotId !== undefined && !snapshots.some((s) => s.snapshotId === currentSnapshotId)) {
    throw invalid('current-snapshot-id', `names snapshot ${currentSnapshotId}, which is not in snapshots`);
  }

  const refsJson = optObject(obj, 'refs', '');
  const refs: Record<string, SnapshotRef> = {};
  if (refsJson !== undefined) {
    for (const [name, ref] of Object.entries(refsJson)) setKey(refs, name, parseSnapshotRef(ref, at('refs', name)));
  } else if (currentSnapshotId !== undefined) {
    // Java TableMetadataParser: without refs, the current snapshot is the main branch
    refs[MAIN_BRANCH] = { snapshotId: currentSnapshotId, type: 'branch' };
  }

  const extra: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(obj)) if (!KNOWN_METADATA_KEYS.has(k)) setKey(extra, k, val);
  const propertiesJson = optObject(obj, 'properties', '');
  const nextRowId = optLong(obj, 'next-row-id', '');
  return {
    formatVersion: v,
    ...(tableUuid !== undefined && { tableUuid }),
    location: reqString(obj, 'location', ''),
    lastSequenceNumber: v === 1 ? 0n : reqLong(obj, 'last-sequence-number', ''),
    lastUpdatedMs: reqMillis(obj, 'last-updated-ms', ''),
    lastColumnId: reqInt(obj, 'last-column-id', ''),
    schemas,
    currentSchemaId,
    partitionSpecs: specs,
    defaultSpecId,
    // Java: v1 metadata without last-partition-id uses the highest partition field id (999 if none)
    lastPartitionId:
      optInt(obj, 'last-partition-id', '') ??
      (v === 1 ? Math.max(999, ...specs.flatMap((s) => s.fields.map((f) => f.fieldId))) : missing('last-partition-id')),
    properties: propertiesJson === undefined ? {} : stringMap(propertiesJson, 'properties'),
    ...(currentSnapshotId !== undefined && { currentSnapshotId }),
    snapshots,
    snapshotLog: readLog(obj, 'snapshot-log', (e, p) => ({
      timestampMs: reqMillis(e, 'timestamp-ms', p),
      snapshotId: reqLong(e, 'snapshot-id', p),
    })),
    metadataLog: readLog(obj, 'metadata-log', (e, p) => ({
      timestampMs: reqMillis(e, 'timestamp-ms', p),
      metadataFile: reqString(e, 'metadata-file', p),
    })),
    sortOrders,
    defaultSortOrderId: optInt(obj, 'default-sort-order-id', '') ?? sortOrders[0]?.orderId ?? 0,
    refs,
    statistics: (optArray(obj, 'statistics', '') ?? []).map((s, i) => parseStatisticsFile(s, at('statistics', i))),
    partitionStatistics: (optArray(obj, 'partition-statistics', '') ?? []).map((s, i) =>
      parsePartitionStatisticsFile(s, at('partition-statistics', i)),
    ),
    ...(nextRowId !== undefined && { nextRowId }),
    encryptionKeys: (optArray(obj, 'encryption-keys', '') ?? []).map((k, i) =>
      parseEncryptedKey(k, at('encryption-keys', i)),
    ),
    extra,
  };
}

function missing(path: string): never {
  throw invalid(path, 'is missing');
}

function readSchemas(obj: JsonObject, v: FormatVersion): { schemas: Schema[]; currentSchemaId: number } {
  const list = optArray(obj, 'schemas', '');
  if (list === undefined) {
    // spec: v1 may carry only `schema`; v2+ must have `schemas`
    if (v > 1) missing('schemas');
    if (obj['schema'] === undefined || obj['schema'] === null) missing('schemas');
    const schema = parseSchema(obj['schema'], 'schema');
    return { schemas: [schema], currentSchemaId: schema.schemaId };
  }
  const schemas = list.map((s, i) => parseSchema(s, at('schemas', i)));
  let currentSchemaId = optInt(obj, 'current-schema-id', '');
  if (currentSchemaId === undefined) {
    // liberal for v1: fall back to the legacy `schema`'s id, or the only schema
    if (v > 1) missing('current-schema-id');
    const legacy = obj['schema'] === undefined || obj['schema'] === null ? undefined : parseSchema(obj['schema'], 'schema');
    currentSchemaId = legacy?.schemaId ?? (schemas.length === 1 ? schemas[0]!.schemaId : missing('current-schema-id'));
  }
  const id = currentSchemaId;
  if (!schemas.some((s) => s.schemaId === id)) {
    throw invalid('current-schema-id', `names schema ${id}, which is not in schemas`);
  }
  return { schemas, currentSchemaId: id };
}

function readSpecs(obj: JsonObject, v: FormatVersion): { specs: PartitionSpec[]; defaultSpecId: number } {
  const list = optArray(obj, 'partition-specs', '');
  if (list === undefined) {
    // spec: v1 may carry only the bare field list `partition-spec`, whose spec id is 0
    if (v > 1) missing('partition-specs');
    const fields = obj['partition-spec'];
    if (fields === undefined || fields === null) missing('partition-specs');
    return { specs: [{ specId: 0, fields: parsePartitionFields(fields, 'partition-spec') }], defaultSpecId: 0 };
  }
  const specs = list.map((s, i) => parsePartitionSpec(s, at('partition-specs', i)));
  const defaultSpecId = optInt(obj, 'default-spec-id', '') ?? (v === 1 && specs.length === 1 ? specs[0]!.specId : missing('default-spec-id'));
  if (!specs.some((s) => s.specId === defaultSpecId)) {
    throw invalid('default-spec-id', `names spec ${defaultSpecId}, which is not in partition-specs`);
  }
  return { specs, defaultSpecId };
}

function readLog<T>(obj: JsonObject, key: string, read: (e: JsonObject, path: string) => T): T[] {
  const list = obj[key];
  if (list === undefined || list === null) return [];
  return asArray(list, key).map((e, i) => read(asObject(e, at(key, i)), at(key, i)));
}
