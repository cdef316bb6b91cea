/**
 * The mutable working copy of Java's TableMetadata.Builder: started from a table's metadata
 * (buildFrom) or from nothing (buildFromEmpty), changed by the builder-*.ts steps, turned into
 * new immutable metadata by builder-finish.ts. It records its changes as Java does, because
 * `-1` resolution, the snapshot log and "did anything change" all read them.
 */
import type { ErrorCode } from '../errors/index.js';
import type {
  EncryptedKey,
  PartitionSpec,
  PartitionStatisticsFile,
  Schema,
  Snapshot,
  SnapshotLogEntry,
  SnapshotRef,
  SortOrder,
  StatisticsFile,
} from '../iceberg/index.js';
import type { CommitClock, TableVersion } from './api.js';

/** What Java's `changes` list records, as far as the builder reads it back. */
export type Change =
  | { readonly kind: 'add-schema'; readonly schemaId: number }
  | { readonly kind: 'add-spec'; readonly specId: number }
  | { readonly kind: 'add-sort-order'; readonly orderId: number }
  | { readonly kind: 'add-snapshot'; readonly snapshotId: bigint }
  | { readonly kind: 'set-snapshot-ref'; readonly name: string; readonly snapshotId: bigint }
  | { readonly kind: 'remove-snapshots'; readonly snapshotId: bigint }
  | { readonly kind: 'other'; readonly action: string };

// Java TableMetadata.DEFAULT_TABLE_FORMAT_VERSION
export const DEFAULT_FORMAT_VERSION = 2;

export class MetadataBuilder {
  readonly base: TableVersion | undefined;
  readonly clock: CommitClock;
  /** What a stale sequence number or first-row-id is (Java RetryableValidationException). */
  readonly staleAs: ErrorCode;

  formatVersion: number;
  uuid: string | undefined;
  location: string | undefined;
  lastSequenceNumber: bigint;
  lastColumnId: number;
  currentSchemaId: number;
  schemas: Schema[];
  defaultSpecId: number;
  specs: PartitionSpec[];
  lastAssignedPartitionId: number;
  defaultSortOrderId: number;
  sortOrders: SortOrder[];
  readonly properties: Map<string, string>;
  /** Undefined: no current snapshot (Java -1). */
  currentSnapshotId: bigint | undefined;
  snapshots: Snapshot[];
  readonly snapshotsById: Map<bigint, Snapshot>;
  readonly refs: Map<string, SnapshotRef>;
  statistics: StatisticsFile[];
  partitionStatistics: PartitionStatisticsFile[];
  nextRowId: bigint;
  encryptionKeys: EncryptedKey[];
  readonly snapshotLog: SnapshotLogEntry[];
  lastUpdatedMs: number | undefined;

  readonly changes: Change[] = [];
  lastAddedSchemaId: number | undefined;
  lastAddedSpecId: number | undefined;
  lastAddedOrderId: number | undefined;

  constructor(base: TableVersion | undefined, clock: CommitClock, staleAs: ErrorCode, emptyFormatVersion = DEFAULT_FORMAT_VERSION) {
    this.base = base;
    this.clock = clock;
    this.staleAs = staleAs;
    const m = base?.metadata;
    // Java Builder(TableMetadata base) copies everything; Builder(int formatVersion) starts with a random uuid and empty lists
    this.formatVersion = m?.formatVersion ?? emptyFormatVersion;
    this.uuid = m === undefined ? clock.newUuid() : m.tableUuid;
    this.location = m?.location;
    this.lastSequenceNumber = m?.lastSequenceNumber ?? 0n;
    this.lastColumnId = m?.lastColumnId ?? 0;
    this.currentSchemaId = m?.currentSchemaId ?? 0;
    this.schemas = [...(m?.schemas ?? [])];
    this.defaultSpecId = m?.defaultSpecId ?? 0;
    this.specs = [...(m?.partitionSpecs ?? [])];
    this.lastAssignedPartitionId = m?.lastPartitionId ?? 0;
    this.defaultSortOrderId = m?.defaultSortOrderId ?? 0;
    this.sortOrders = [...(m?.sortOrders ?? [])];
    this.properties = new Map(Object.entries(m?.properties ?? {}));
    this.currentSnapshotId = m?.currentSnapshotId;
    this.snapshots = [...(m?.snapshots ?? [])];
    this.snapshotsById = new Map(this.snapshots.map((s) => [s.snapshotId, s]));
    this.refs = new Map(Object.entries(m?.refs ?? {}));
    this.statistics = [...(m?.statistics ?? [])];
    this.partitionStatistics = [...(m?.partitionStatistics ?? [])];
    // Java reads next-row-id only from v3 metadata and starts every other table at 0
    this.nextRowId = m?.nextRowId ?? 0n;
    this.encryptionKeys = [...(m?.encryptionKeys ?? [])];
    this.snapshotLog = [...(m?.snapshotLog ?? [])];
  }

  /** Java: lastUpdatedMillis is taken once, when a change first needs it (setRef on main, else build). */
  now(): number {
    this.lastUpdatedMs ??= this.clock.now();
    return this.lastUpdatedMs;
  }

  record(change: Change): void {
    this.changes.push(change);
  }

  other(action: string): void {
    this.changes.push({ kind: 'other', action });
  }

  schemaById(id: number): Schema | undefined {
    return this.schemas.find((s) => s.schemaId === id);
  }

  currentSchema(): Schema | undefined {
    return this.schemaById(this.currentSchemaId);
  }

  /** Java changes(AddSnapshot.class).anyMatch(…): was this snapshot added by this change? */
  isAddedSnapshot(snapshotId: bigint): boolean {
    return this.changes.some((c) => c.kind === 'add-snapshot' && c.snapshotId === snapshotId);
  }
}
