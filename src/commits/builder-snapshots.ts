/**
 * Snapshots, refs and statistics in Java's TableMetadata.Builder: addSnapshot (sequence numbers,
 * v3 row lineage), setRef (the `main` branch moves the current snapshot and the snapshot log),
 * removeRef, removeSnapshots (with the refs and statistics that pointed at them), set/remove
 * (partition) statistics.
 */
import { fail } from '../errors/index.js';
import { MAIN_BRANCH, type PartitionStatisticsFile, type Snapshot, type SnapshotRef, type StatisticsFile } from '../iceberg/index.js';
import type { MetadataBuilder } from './builder-state.js';
import type { UpdateOf } from './updates.js';

// Java TableMetadata.MIN_FORMAT_VERSION_ROW_LINEAGE
const MIN_FORMAT_VERSION_ROW_LINEAGE = 3;

/**
 * Java RetryableValidationException: the request carries values the table has moved past. Java
 * 1.11's CatalogHandlers.commit answers it as CommitFailedException ("Validation failed, please
 * retry"), so the client refreshes and retries; a create answers it as a ValidationException.
 */
function stale(b: MetadataBuilder, message: string): never {
  if (b.staleAs === 'COMMIT_FAILED') throw fail('COMMIT_FAILED', `Validation failed, please retry: ${message}`);
  throw fail(b.staleAs, message);
}

export function addSnapshot(b: MetadataBuilder, snapshot: Snapshot): void {
  if (b.schemas.length === 0) throw fail('VALIDATION_FAILED', 'Attempting to add a snapshot before a schema is added');
  if (b.specs.length === 0) throw fail('VALIDATION_FAILED', 'Attempting to add a snapshot before a partition spec is added');
  if (b.sortOrders.length === 0) throw fail('VALIDATION_FAILED', 'Attempting to add a snapshot before a sort order is added');
  if (b.snapshotsById.has(snapshot.snapshotId)) {
    throw fail('VALIDATION_FAILED', `Snapshot already exists for id: ${snapshot.snapshotId}`);
  }
  // spec "Sequence Numbers": from v2 a new snapshot's is above the table's (a first snapshot without parent is exempt)
  if (!(b.formatVersion === 1 || snapshot.sequenceNumber > b.lastSequenceNumber || snapshot.parentSnapshotId === undefined)) {
    stale(b, `Cannot add snapshot with sequence number ${snapshot.sequenceNumber} older than last sequence number ${b.lastSequenceNumber}`);
  }
  b.lastSequenceNumber = snapshot.sequenceNumber;
  b.snapshots.push(snapshot);
  b.snapshotsById.set(snapshot.snapshotId, snapshot);
  b.record({ kind: 'add-snapshot', snapshotId: snapshot.snapshotId });

  // spec "Row Lineage": a v3 snapshot starts at or after the table's next-row-id, which moves past its added rows
  if (b.formatVersion >= MIN_FORMAT_VERSION_ROW_LINEAGE) {
    if (snapshot.firstRowId === undefined) throw fail('VALIDATION_FAILED', 'Cannot add a snapshot: first-row-id is null');
    if (snapshot.firstRowId < b.nextRowId) {
      stale(b, `Cannot add a snapshot, first-row-id is behind table next-row-id: ${snapshot.firstRowId} < ${b.nextRowId}`);
    }
    b.nextRowId += snapshot.addedRows ?? 0n;
  }
}

/** Java SnapshotRef.Builder: retention settings are positive, and a tag has no snapshot retention. */
export function snapshotRefOf(update: UpdateOf<'set-snapshot-ref'>): SnapshotRef {
  const { type, minSnapshotsToKeep, maxSnapshotAgeMs, maxRefAgeMs } = update;
  if (minSnapshotsToKeep !== undefined) {
    if (type === 'tag') throw fail('ILLEGAL_ARGUMENT', 'Tags do not support setting minSnapshotsToKeep');
    if (minSnapshotsToKeep <= 0) throw fail('ILLEGAL_ARGUMENT', 'Min snapshots to keep must be greater than 0');
  }
  if (maxSnapshotAgeMs !== undefined) {
    if (type === 'tag') throw fail('ILLEGAL_ARGUMENT', 'Tags do not support setting maxSnapshotAgeMs');
    if (maxSnapshotAgeMs <= 0n) throw fail('ILLEGAL_ARGUMENT', 'Max snapshot age must be greater than 0 ms');
  }
  if (maxRefAgeMs !== undefined && maxRefAgeMs <= 0n) throw fail('ILLEGAL_ARGUMENT', 'Max reference age must be greater than 0');
  return {
    snapshotId: update.snapshotId,
    type,
    ...(minSnapshotsToKeep !== undefined && { minSnapshotsToKeep }),
    ...(maxSnapshotAgeMs !== undefined && { maxSnapshotAgeMs }),
    ...(maxRefAgeMs !== undefined && { maxRefAgeMs }),
  };
}

function sameRef(a: SnapshotRef, b: SnapshotRef): boolean {
  return (
    a.snapshotId === b.snapshotId &&
    a.type === b.type &&
    a.minSnapshotsToKeep === b.minSnapshotsToKeep &&
    a.maxSnapshotAgeMs === b.maxSnapshotAgeMs &&
    a.maxRefAgeMs === b.maxRefAgeMs
  );
}

/**
 * Java Builder.setRef. Setting `main` makes its snapshot current and logs it: at the snapshot's
 * own timestamp when this change added it, else (a rollback) at the time of this change.
 */
export function setRef(b: MetadataBuilder, name: string, ref: SnapshotRef): void {
  const existing = b.refs.get(name);
  if (existing !== undefined && sameRef(existing, ref)) return;
  const snapshot = b.snapshotsById.get(ref.snapshotId);
  if (snapshot === undefined) throw fail('VALIDATION_FAILED', `Cannot set ${name} to unknown snapshot: ${ref.snapshotId}`);
  if (name === MAIN_BRANCH) {
    b.currentSnapshotId = ref.snapshotId;
    const now = b.now();
    const timeOfChange = b.isAddedSnapshot(ref.snapshotId) ? snapshot.timestampMs : now;
    b.snapshotLog.push({ timestampMs: timeOfChange, snapshotId: ref.snapshotId });
  }
  b.refs.set(name, ref);
  b.record({ kind: 'set-snapshot-ref', name, snapshotId: ref.snapshotId });
}

/** Java Builder.removeRef: removing `main` (even one that is not there) leaves no current snapshot. */
export function removeRef(b: MetadataBuilder, name: string): void {
  if (name === MAIN_BRANCH) b.currentSnapshotId = undefined;
  if (b.refs.delete(name)) b.other('remove-snapshot-ref');
}

/** Java Builder.removeSnapshots: ids not in the table are ignored; refs left dangling go too. */
export function removeSnapshots(b: MetadataBuilder, snapshotIds: readonly bigint[]): void {
  const remove = new Set(snapshotIds);
  // Java sizes its list of kept snapshots as (snapshots − ids to remove): more ids than snapshots fails there
  if (remove.size > b.snapshots.length) {
    throw fail('ILLEGAL_ARGUMENT', `arraySize cannot be negative but was: ${b.snapshots.length - remove.size}`);
  }
  const retained: Snapshot[] = [];
  for (const snapshot of b.snapshots) {
    const id = snapshot.snapshotId;
    if (remove.has(id)) {
      b.snapshotsById.delete(id);
      b.record({ kind: 'remove-snapshots', snapshotId: id });
      removeStatistics(b, id);
      removePartitionStatistics(b, id);
    } else {
      retained.push(snapshot);
    }
  }
  b.snapshots = retained;
  const dangling = [...b.refs].filter(([, ref]) => !b.snapshotsById.has(ref.snapshotId)).map(([name]) => name);
  for (const name of dangling) removeRef(b, name);
}

/** Java Builder.setStatistics: the file replaces whatever statistics that snapshot had (a change even when equal). */
export function setStatistics(b: MetadataBuilder, file: StatisticsFile): void {
  b.statistics = replaceForSnapshot(b.statistics, file);
  b.other('set-statistics');
}

export function removeStatistics(b: MetadataBuilder, snapshotId: bigint): void {
  const kept = b.statistics.filter((f) => f.snapshotId !== snapshotId);
  if (kept.length === b.statistics.length) return;
  b.statistics = kept;
  b.other('remove-statistics');
}

export function setPartitionStatistics(b: MetadataBuilder, file: PartitionStatisticsFile): void {
  b.partitionStatistics = replaceForSnapshot(b.partitionStatistics, file);
  b.other('set-partition-statistics');
}

export function removePartitionStatistics(b: MetadataBuilder, snapshotId: bigint): void {
  const kept = b.partitionStatistics.filter((f) => f.snapshotId !== snapshotId);
  if (kept.length === b.partitionStatistics.length) return;
  b.partitionStatistics = kept;
  b.other('remove-partition-statistics');
}

/** Java keeps statistics per snapshot id (a map of lists); here in order, the new file where the old ones were. */
function replaceForSnapshot<T extends { readonly snapshotId: bigint }>(files: readonly T[], file: T): T[] {
  const at = files.findIndex((f) => f.snapshotId === file.snapshotId);
  const kept = files.filter((f) => f.snapshotId !== file.snapshotId);
  if (at < 0) return [...kept, file];
  kept.splice(at, 0, file);
  return kept;
}
