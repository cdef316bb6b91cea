/**
 * Writes table metadata as Java's TableMetadataParser.toJson does (key order, v1's duplicate
 * `schema`/`partition-spec`), with exact 64-bit ids and unknown keys kept, and never a JSON
 * null for an absent optional field. Serialise the result with `stringifyJson`.
 */
import type { Snapshot } from './snapshot.js';
import type { SnapshotLogEntry, TableMetadata } from './table-metadata.js';
import { currentSchema, defaultSpec } from './metadata-lookup.js';
import { schemaToJson } from './schema.js';
import { partitionFieldsToJson, partitionSpecToJson } from './partition-spec.js';
import { sortOrderToJson } from './sort-order.js';
import { snapshotRefToJson, snapshotToJson } from './snapshot.js';
import { encryptedKeyToJson, partitionStatisticsFileToJson, statisticsFileToJson } from './statistics.js';
import { setKey, type JsonObject } from './json-fields.js';

export interface TableMetadataJsonOptions {
  /**
   * REST loadTable `snapshots` parameter: `all` (default) or `refs`, which keeps only snapshots
   * referenced by a branch or tag (Java TableMetadata.Builder.suppressHistoricalSnapshots; the
   * statistics of suppressed snapshots go with them, the snapshot log stays).
   */
  readonly snapshots?: 'all' | 'refs';
}

export function tableMetadataToJson(meta: TableMetadata, opts: TableMetadataJsonOptions = {}): unknown {
  return tableMetadataModel(meta, opts, MODEL_LISTS);
}

/**
 * How the two long lists of a table's metadata, its snapshots and its snapshot log, become JSON:
 * each entry a JSON model (`tableMetadataToJson`), or each list one piece of text
 * (table-metadata-text.ts).
 */
export interface MetadataLists {
  snapshots(list: readonly Snapshot[]): unknown;
  snapshotLog(list: readonly SnapshotLogEntry[]): unknown;
}

const MODEL_LISTS: MetadataLists = {
  snapshots: (list) => list.map(snapshotToJson),
  snapshotLog: (list) => list.map(snapshotLogEntryToJson),
};

export function snapshotLogEntryToJson(e: SnapshotLogEntry): unknown {
  return { 'timestamp-ms': e.timestampMs, 'snapshot-id': e.snapshotId };
}

/** The JSON model of `meta`, its snapshots and snapshot log written by `lists`. */
export function tableMetadataModel(meta: TableMetadata, opts: TableMetadataJsonOptions, lists: MetadataLists): unknown {
  const v = meta.formatVersion;
  const out: JsonObject = { 'format-version': v };
  if (meta.tableUuid !== undefined) out['table-uuid'] = meta.tableUuid;
  out['location'] = meta.location;
  if (v > 1) out['last-sequence-number'] = meta.lastSequenceNumber;
  out['last-updated-ms'] = meta.lastUpdatedMs;
  out['last-column-id'] = meta.lastColumnId;
  // Java: v1 also writes the current schema as `schema` for older readers
  if (v === 1) out['schema'] = schemaToJson(currentSchema(meta));
  out['current-schema-id'] = meta.currentSchemaId;
  out['schemas'] = meta.schemas.map(schemaToJson);
  // Java: v1 also writes the default spec's fields as `partition-spec` for older readers
  if (v === 1) out['partition-spec'] = partitionFieldsToJson(defaultSpec(meta));
  out['default-spec-id'] = meta.defaultSpecId;
  out['partition-specs'] = meta.partitionSpecs.map(partitionSpecToJson);
  out['last-partition-id'] = meta.lastPartitionId;
  out['default-sort-order-id'] = meta.defaultSortOrderId;
  out['sort-orders'] = meta.sortOrders.map(sortOrderToJson);
  out['properties'] = { ...meta.properties };
  // Java writes -1 for "none" before v3 and null from v3; v3 omits it here (never null)
  if (meta.currentSnapshotId !== undefined) out['current-snapshot-id'] = meta.currentSnapshotId;
  else if (v < 3) out['current-snapshot-id'] = -1;
  if (meta.nextRowId !== undefined) out['next-row-id'] = meta.nextRowId;
  if (meta.encryptionKeys.length > 0) out['encryption-keys'] = meta.encryptionKeys.map(encryptedKeyToJson);

  const refs: JsonObject = {};
  for (const [name, ref] of Object.entries(meta.refs)) setKey(refs, name, snapshotRefToJson(ref));
  out['refs'] = refs;

  let keep: (snapshotId: bigint) => boolean = () => true;
  if (opts.snapshots === 'refs') {
    const referenced = new Set(Object.values(meta.refs).map((r) => r.snapshotId));
    keep = (id) => referenced.has(id);
  }
  out['snapshots'] = lists.snapshots(opts.snapshots === 'refs' ? meta.snapshots.filter((s) => keep(s.snapshotId)) : meta.snapshots);
  out['statistics'] = meta.statistics.filter((s) => keep(s.snapshotId)).map(statisticsFileToJson);
  out['partition-statistics'] = meta.partitionStatistics
    .filter((s) => keep(s.snapshotId))
    .map(partitionStatisticsFileToJson);
  out['snapshot-log'] = lists.snapshotLog(meta.snapshotLog);
  out['metadata-log'] = meta.metadataLog.map((e) => ({ 'timestamp-ms': e.timestampMs, 'metadata-file': e.metadataFile }));
  for (const [k, val] of Object.entries(meta.extra)) if (!Object.hasOwn(out, k)) setKey(out, k, val);
  return out;
}
