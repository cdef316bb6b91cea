/**
 * Lookups over parsed TableMetadata: schemas, specs and snapshots by id, the current snapshot
 * (the `main` branch, else `current-snapshot-id`) and the schema a snapshot was written with.
 */
import type { TableMetadata } from './table-metadata.js';
import type { Schema } from './schema.js';
import type { PartitionSpec } from './partition-spec.js';
import type { SortOrder } from './sort-order.js';
import { MAIN_BRANCH, type Snapshot } from './snapshot.js';
import { invalid } from './json-fields.js';

export function schemaById(meta: TableMetadata, id: number): Schema | undefined {
  return meta.schemas.find((s) => s.schemaId === id);
}

/** The current schema; parseTableMetadata guarantees it exists. */
export function currentSchema(meta: TableMetadata): Schema {
  const schema = schemaById(meta, meta.currentSchemaId);
  if (schema === undefined) throw invalid('current-schema-id', `names schema ${meta.currentSchemaId}, which is not in schemas`);
  return schema;
}

export function specById(meta: TableMetadata, id: number): PartitionSpec | undefined {
  return meta.partitionSpecs.find((s) => s.specId === id);
}

/** The default partition spec; parseTableMetadata guarantees it exists. */
export function defaultSpec(meta: TableMetadata): PartitionSpec {
  const spec = specById(meta, meta.defaultSpecId);
  if (spec === undefined) throw invalid('default-spec-id', `names spec ${meta.defaultSpecId}, which is not in partition-specs`);
  return spec;
}

export function sortOrderById(meta: TableMetadata, id: number): SortOrder | undefined {
  return meta.sortOrders.find((o) => o.orderId === id);
}

export function snapshotById(meta: TableMetadata, id: bigint): Snapshot | undefined {
  return meta.snapshots.find((s) => s.snapshotId === id);
}

/**
 * The snapshot the `main` branch points at, else `current-snapshot-id`'s; undefined for a table
 * without snapshots. A ref naming a snapshot that is not in the metadata is an error.
 */
export function currentSnapshot(meta: TableMetadata): Snapshot | undefined {
  const main = meta.refs[MAIN_BRANCH];
  const id = main !== undefined && main.type === 'branch' ? main.snapshotId : meta.currentSnapshotId;
  if (id === undefined) return undefined;
  const snapshot = snapshotById(meta, id);
  if (snapshot === undefined) throw invalid(main ? 'refs.main' : 'current-snapshot-id', `names snapshot ${id}, which is not in snapshots`);
  return snapshot;
}

/**
 * The schema a snapshot was written with (spec "Snapshots": `schema-id`), falling back to the
 * current schema for snapshots from writers that did not record one.
 */
export function snapshotSchema(meta: TableMetadata, snapshot: Snapshot): Schema {
  if (snapshot.schemaId !== undefined) {
    const schema = schemaById(meta, snapshot.schemaId);
    if (schema !== undefined) return schema;
  }
  return currentSchema(meta);
}
