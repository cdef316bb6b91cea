/**
 * Table updates from their JSON form, as Java's MetadataUpdateParser.fromJson reads them (action
 * lower-cased, legacy `updated`/`removed` accepted, the deprecated `last-column-id` and
 * set-statistics `snapshot-id` read but unused). Every refusal is BAD_REQUEST naming the field.
 */
import { fail } from '../errors/index.js';
import {
  parseEncryptedKey,
  parsePartitionSpec,
  parsePartitionStatisticsFile,
  parseSchema,
  parseSnapshot,
  parseSortOrder,
  parseStatisticsFile,
  type PartitionSpec,
  type Schema,
  type Snapshot,
  type SortOrder,
  type StatisticsFile,
} from '../iceberg/index.js';
import {
  asArray,
  asObject,
  at,
  badRequest,
  fromRequest,
  hasMember,
  intList,
  isObject,
  longList,
  optInt,
  optLong,
  reqInt,
  reqLong,
  reqObject,
  reqString,
  reqValue,
  stringList,
  stringMapOf,
  type JsonObject,
} from './request-json.js';
import { validateSchema } from './schema-rules.js';
import type { TableUpdate } from './updates.js';

export function parseUpdate(json: unknown, path: string): TableUpdate {
  const obj = asObject(json, path);
  const action = reqString(obj, 'action', path).toLowerCase();
  switch (action) {
    case 'assign-uuid':
      return { action, uuid: reqString(obj, 'uuid', path) };
    case 'upgrade-format-version':
      return { action, formatVersion: reqInt(obj, 'format-version', path) };
    case 'add-schema': {
      const schema = parseRequestSchema(reqValue(obj, 'schema', path), at(path, 'schema'));
      const lastColumnId = optInt(obj, 'last-column-id', path);
      return { action, schema, ...(lastColumnId !== undefined && { lastColumnId }) };
    }
    case 'set-current-schema':
      return { action, schemaId: reqInt(obj, 'schema-id', path) };
    case 'add-spec':
      return { action, spec: parseRequestSpec(reqValue(obj, 'spec', path), at(path, 'spec')) };
    case 'set-default-spec':
      return { action, specId: reqInt(obj, 'spec-id', path) };
    case 'add-sort-order':
      return { action, sortOrder: parseRequestSortOrder(reqValue(obj, 'sort-order', path), at(path, 'sort-order')) };
    case 'set-default-sort-order':
      return { action, sortOrderId: reqInt(obj, 'sort-order-id', path) };
    case 'add-snapshot':
      return { action, snapshot: parseRequestSnapshot(reqValue(obj, 'snapshot', path), at(path, 'snapshot')) };
    case 'set-snapshot-ref':
      return parseSetSnapshotRef(obj, path);
    case 'remove-snapshots':
      return { action, snapshotIds: unique(longList(reqValue(obj, 'snapshot-ids', path), at(path, 'snapshot-ids'))) };
    case 'remove-snapshot-ref':
      return { action, refName: reqString(obj, 'ref-name', path) };
    case 'set-location':
      return { action, location: reqString(obj, 'location', path) };
    case 'set-properties': {
      // the spec names it `updates`; Java first wrote `updated` and reads both (`updates` wins)
      const key = !hasMember(obj, 'updates') && hasMember(obj, 'updated') ? 'updated' : 'updates';
      return { action, updates: stringMapOf(reqValue(obj, key, path), at(path, key)) };
    }
    case 'remove-properties': {
      const key = !hasMember(obj, 'removals') && hasMember(obj, 'removed') ? 'removed' : 'removals';
      return { action, removals: unique(stringList(reqValue(obj, key, path), at(path, key))) };
    }
    case 'set-statistics': {
      optLong(obj, 'snapshot-id', path);
      return { action, statistics: parseRequestStatistics(reqObject(obj, 'statistics', path), at(path, 'statistics')) };
    }
    case 'remove-statistics':
      return { action, snapshotId: reqLong(obj, 'snapshot-id', path) };
    case 'set-partition-statistics': {
      const p = at(path, 'partition-statistics');
      const partitionStatistics = fromRequest(() => parsePartitionStatisticsFile(reqObject(obj, 'partition-statistics', path), p));
      return { action, partitionStatistics };
    }
    case 'remove-partition-statistics':
      return { action, snapshotId: reqLong(obj, 'snapshot-id', path) };
    case 'remove-partition-specs':
      return { action, specIds: unique(intList(reqValue(obj, 'spec-ids', path), at(path, 'spec-ids'))) };
    case 'remove-schemas':
      return { action, schemaIds: unique(intList(reqValue(obj, 'schema-ids', path), at(path, 'schema-ids'))) };
    case 'add-encryption-key': {
      const encryptionKey = fromRequest(() => parseEncryptedKey(reqObject(obj, 'encryption-key', path), at(path, 'encryption-key')));
      return { action, encryptionKey };
    }
    case 'remove-encryption-key':
      return { action, keyId: reqString(obj, 'key-id', path) };
    case 'add-view-version':
    case 'set-current-view-version':
      throw badRequest(at(path, 'action'), `is a view update, which a table cannot apply: ${JSON.stringify(action)}`);
    default:
      throw badRequest(at(path, 'action'), `is not a table update: ${JSON.stringify(action)}`);
  }
}

function parseSetSnapshotRef(obj: JsonObject, path: string): TableUpdate {
  const refName = reqString(obj, 'ref-name', path);
  const snapshotId = reqLong(obj, 'snapshot-id', path);
  // Java SnapshotRefType.fromString: case-insensitive
  const type = reqString(obj, 'type', path).toLowerCase();
  if (type !== 'branch' && type !== 'tag') throw badRequest(at(path, 'type'), `must be "branch" or "tag", got ${JSON.stringify(type)}`);
  const minSnapshotsToKeep = optInt(obj, 'min-snapshots-to-keep', path);
  const maxSnapshotAgeMs = optLong(obj, 'max-snapshot-age-ms', path);
  const maxRefAgeMs = optLong(obj, 'max-ref-age-ms', path);
  return {
    action: 'set-snapshot-ref',
    refName,
    snapshotId,
    type,
    ...(minSnapshotsToKeep !== undefined && { minSnapshotsToKeep }),
    ...(maxSnapshotAgeMs !== undefined && { maxSnapshotAgeMs }),
    ...(maxRefAgeMs !== undefined && { maxRefAgeMs }),
  };
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/**
 * A client's statistics file (Java StatisticsFileParser.fromJson): `blob-metadata` is a required
 * array and each blob lists its `fields`; Java's model has no key metadata, so none is kept.
 */
function parseRequestStatistics(obj: JsonObject, path: string): StatisticsFile {
  const blobs = asArray(reqValue(obj, 'blob-metadata', path), at(path, 'blob-metadata'));
  blobs.forEach((b, i) => reqValue(asObject(b, at(at(path, 'blob-metadata'), i)), 'fields', at(at(path, 'blob-metadata'), i)));
  const { keyMetadata: _dropped, ...file } = fromRequest(() => parseStatisticsFile(obj, path));
  return file;
}

/** A schema a client sent (Java SchemaParser.fromJson, whose Schema constructor validates it). */
export function parseRequestSchema(json: unknown, path: string): Schema {
  const schema = fromRequest(() => parseSchema(asObject(json, path), path));
  validateSchema(schema);
  return schema;
}

/**
 * A client's partition spec (Java PartitionSpecParser.fromJson to an UnboundPartitionSpec): field
 * ids either all given or all missing (then assigned from 1000).
 */
export function parseRequestSpec(json: unknown, path: string): PartitionSpec {
  const obj = asObject(json, path);
  const spec = fromRequest(() => parsePartitionSpec(obj, path));
  const fields = asArray(obj['fields'], at(path, 'fields'));
  const withIds = fields.filter((f) => isObject(f) && hasMember(f, 'field-id')).length;
  if (withIds !== 0 && withIds !== fields.length) {
    throw badRequest(at(path, 'fields'), `has missing field IDs: ${fields.length - withIds} missing of ${fields.length} fields`);
  }
  // Java's parser reads `source-id` alone; a bound spec carries no `source-ids`
  return { specId: spec.specId, fields: spec.fields.map(({ sourceId, fieldId, name, transform }) => ({ sourceId, fieldId, name, transform })) };
}

/** A client's sort order (Java SortOrderParser.fromJson to an UnboundSortOrder). */
export function parseRequestSortOrder(json: unknown, path: string): SortOrder {
  const order = fromRequest(() => parseSortOrder(asObject(json, path), path));
  return {
    orderId: order.orderId,
    fields: order.fields.map(({ transform, sourceId, direction, nullOrder }) => ({ transform, sourceId, direction, nullOrder })),
  };
}

/**
 * A client's snapshot (Java SnapshotParser.fromJson and BaseSnapshot's checks): row-lineage
 * counts are non-negative, `added-rows` comes with `first-row-id` (IllegalArgumentException); a
 * summary without `operation` reads as `overwrite`; keys Java does not know are not kept.
 */
export function parseRequestSnapshot(json: unknown, path: string): Snapshot {
  const parsed = fromRequest(() => parseSnapshot(asObject(json, path), path));
  const { firstRowId, addedRows, keyId, ...rest } = parsed;
  const snapshot: Snapshot = { ...rest, extra: {} };
  const summary =
    Object.keys(snapshot.summary).length > 0 && snapshot.summary['operation'] === undefined
      ? { operation: 'overwrite', ...snapshot.summary }
      : snapshot.summary;
  // Java: an embedded manifest list (v1 `manifests`) carries no row lineage and no key id
  if (snapshot.manifestList === undefined) return { ...snapshot, summary };
  if (firstRowId !== undefined && firstRowId < 0n) {
    throw fail('ILLEGAL_ARGUMENT', `Invalid first-row-id (cannot be negative): ${firstRowId}`);
  }
  if (addedRows !== undefined && addedRows < 0n) throw fail('ILLEGAL_ARGUMENT', `Invalid added-rows (cannot be negative): ${addedRows}`);
  if (firstRowId !== undefined && addedRows === undefined) {
    throw fail('ILLEGAL_ARGUMENT', 'Invalid added-rows (required when first-row-id is set): null');
  }
  return {
    ...snapshot,
    summary,
    ...(firstRowId !== undefined && { firstRowId, addedRows: addedRows! }),
    ...(keyId !== undefined && { keyId }),
  };
}
