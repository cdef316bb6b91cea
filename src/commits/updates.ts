/**
 * Table metadata updates (REST spec `TableUpdate`; Java MetadataUpdate), as data. Specs and sort
 * orders are the client's, not yet bound to a schema (Java UnboundPartitionSpec /
 * UnboundSortOrder): the metadata builder binds them to the current schema when it applies them.
 */
import type {
  EncryptedKey,
  PartitionSpec,
  PartitionStatisticsFile,
  Schema,
  Snapshot,
  SnapshotRefType,
  SortOrder,
  StatisticsFile,
} from '../iceberg/index.js';

export type TableUpdate =
  | { readonly action: 'assign-uuid'; readonly uuid: string }
  | { readonly action: 'upgrade-format-version'; readonly formatVersion: number }
  /** `lastColumnId`: the deprecated wire field, read and ignored as Java 1.10+ does (it uses the schema's highest id). */
  | { readonly action: 'add-schema'; readonly schema: Schema; readonly lastColumnId?: number }
  /** -1: the schema added last in this change. */
  | { readonly action: 'set-current-schema'; readonly schemaId: number }
  | { readonly action: 'add-spec'; readonly spec: PartitionSpec }
  /** -1: the spec added last in this change. */
  | { readonly action: 'set-default-spec'; readonly specId: number }
  | { readonly action: 'add-sort-order'; readonly sortOrder: SortOrder }
  /** -1: the sort order added last in this change. */
  | { readonly action: 'set-default-sort-order'; readonly sortOrderId: number }
  | { readonly action: 'add-snapshot'; readonly snapshot: Snapshot }
  | {
      readonly action: 'set-snapshot-ref';
      readonly refName: string;
      readonly snapshotId: bigint;
      readonly type: SnapshotRefType;
      readonly minSnapshotsToKeep?: number;
      readonly maxSnapshotAgeMs?: bigint;
      readonly maxRefAgeMs?: bigint;
    }
  | { readonly action: 'remove-snapshots'; readonly snapshotIds: readonly bigint[] }
  | { readonly action: 'remove-snapshot-ref'; readonly refName: string }
  | { readonly action: 'set-location'; readonly location: string }
  | { readonly action: 'set-properties'; readonly updates: Readonly<Record<string, string>> }
  | { readonly action: 'remove-properties'; readonly removals: readonly string[] }
  /** The deprecated top-level `snapshot-id` is read and ignored, as Java does: `statistics.snapshot-id` counts. */
  | { readonly action: 'set-statistics'; readonly statistics: StatisticsFile }
  | { readonly action: 'remove-statistics'; readonly snapshotId: bigint }
  | { readonly action: 'set-partition-statistics'; readonly partitionStatistics: PartitionStatisticsFile }
  | { readonly action: 'remove-partition-statistics'; readonly snapshotId: bigint }
  | { readonly action: 'remove-partition-specs'; readonly specIds: readonly number[] }
  | { readonly action: 'remove-schemas'; readonly schemaIds: readonly number[] }
  | { readonly action: 'add-encryption-key'; readonly encryptionKey: EncryptedKey }
  | { readonly action: 'remove-encryption-key'; readonly keyId: string };

export type TableUpdateAction = TableUpdate['action'];

/** The update with this action. */
export type UpdateOf<A extends TableUpdateAction> = Extract<TableUpdate, { readonly action: A }>;
