/**
 * Java TableMetadata.Builder.build() and the TableMetadata constructor's checks: nothing changed
 * → the base as it was; else `last-updated-ms` is now, the previous metadata file joins the
 * metadata log (trimmed to write.metadata.previous-versions-max), the snapshot log drops
 * intermediate and removed snapshots, and the result is validated as Java validates it.
 */
import { fail } from '../errors/index.js';
import {
  MAIN_BRANCH,
  type FormatVersion,
  type MetadataLogEntry,
  type SnapshotLogEntry,
  type SnapshotRef,
  type TableMetadata,
} from '../iceberg/index.js';
import type { MetadataBuilder } from './builder-state.js';
import { SUPPORTED_FORMAT_VERSION } from './builder-table.js';
import { stripTrailingSlash } from './file-names.js';
import { checkSortOrderCompatibility } from './order-rules.js';
import { setKey } from './request-json.js';
import { checkSpecCompatibility } from './spec-rules.js';
import { METADATA_PREVIOUS_VERSIONS_MAX, METADATA_PREVIOUS_VERSIONS_MAX_DEFAULT, propertyAsInt } from './table-properties.js';

// Java TableMetadata.ONE_MINUTE: the clock skew tolerated between log entries
const ONE_MINUTE = 60_000;

export interface BuiltMetadata {
  readonly metadata: TableMetadata;
  /** False when no update changed anything (Java: `changes().isEmpty()`, no commit). */
  readonly changed: boolean;
}

export function finish(b: MetadataBuilder): BuiltMetadata {
  if (b.base !== undefined && b.changes.length === 0) return { metadata: b.base.metadata, changed: false };
  const lastUpdatedMs = b.now();

  const schema = b.currentSchema();
  if (schema === undefined) throw illegal(`Cannot find current schema ${b.currentSchemaId}: no schema has been added`);
  if (b.specs.length === 0) throw illegal('Partition specs cannot be null or empty');
  if (b.sortOrders.length === 0) throw illegal('Sort orders cannot be null or empty');
  const spec = b.specs.find((s) => s.specId === b.defaultSpecId);
  if (spec === undefined) throw illegal(`Cannot find default partition spec ${b.defaultSpecId}`);
  checkSpecCompatibility(spec, schema);
  const order = b.sortOrders.find((o) => o.orderId === b.defaultSortOrderId);
  if (order === undefined) throw illegal(`Cannot find default sort order ${b.defaultSortOrderId}`);
  checkSortOrderCompatibility(order, schema);

  const properties: Record<string, string> = {};
  for (const [k, v] of b.properties) setKey(properties, k, v);
  const metadataLog =
    b.base === undefined
      ? []
      : addPreviousFile(b.base.metadata.metadataLog, b.base.metadataLocation, b.base.metadata.lastUpdatedMs, properties);
  const snapshotLog = updateSnapshotLog(b);

  const v = b.formatVersion;
  if (v < 1 || v > SUPPORTED_FORMAT_VERSION) throw illegal(`Unsupported format version: v${v} (supported: v${SUPPORTED_FORMAT_VERSION})`);
  if (v > 1 && b.uuid === undefined) throw illegal(`UUID is required in format v${v}`);
  if (b.location === undefined) throw illegal(`Table location is required in format v${v}`);
  const location = stripTrailingSlash(b.location);
  if (v === 1 && b.lastSequenceNumber !== 0n) throw illegal(`Sequence number must be 0 in v1: ${b.lastSequenceNumber}`);
  for (const s of b.snapshots) {
    if (s.sequenceNumber > b.lastSequenceNumber) {
      throw fail(
        'VALIDATION_FAILED',
        `Invalid snapshot with sequence number ${s.sequenceNumber} greater than last sequence number ${b.lastSequenceNumber}`,
      );
    }
  }
  const refs: Record<string, SnapshotRef> = {};
  for (const [name, ref] of b.refs) {
    if (!b.snapshotsById.has(ref.snapshotId)) throw illegal(`Snapshot for reference ${name} does not exist in the existing snapshots list`);
    setKey(refs, name, ref);
  }
  checkMainBranch(b.currentSnapshotId, b.refs.get(MAIN_BRANCH));
  checkLogOrder(snapshotLog, lastUpdatedMs, 'snapshot log entries', 'before last snapshot log entry at');
  checkLogOrder(metadataLog, lastUpdatedMs, 'previous metadata log entries', 'before the latest metadata log entry timestamp');
  if (b.currentSnapshotId !== undefined && !b.snapshotsById.has(b.currentSnapshotId)) {
    throw illegal('Invalid table metadata: Cannot find current version');
  }

  const metadata: TableMetadata = {
    formatVersion: v as FormatVersion,
    ...(b.uuid !== undefined && { tableUuid: b.uuid }),
    location,
    lastSequenceNumber: b.lastSequenceNumber,
    lastUpdatedMs,
    lastColumnId: b.lastColumnId,
    schemas: b.schemas,
    currentSchemaId: b.currentSchemaId,
    partitionSpecs: b.specs,
    defaultSpecId: b.defaultSpecId,
    lastPartitionId: b.lastAssignedPartitionId,
    properties,
    ...(b.currentSnapshotId !== undefined && { currentSnapshotId: b.currentSnapshotId }),
    // Java writes from its model: keys it does not know (here `extra`) are not carried over
    snapshots: b.snapshots.map((s) => (Object.keys(s.extra).length === 0 ? s : { ...s, extra: {} })),
    snapshotLog,
    metadataLog,
    sortOrders: b.sortOrders,
    defaultSortOrderId: b.defaultSortOrderId,
    refs,
    statistics: b.statistics,
    partitionStatistics: b.partitionStatistics,
    // Java reads and writes next-row-id from v3 on only
    ...(v >= 3 && { nextRowId: b.nextRowId }),
    encryptionKeys: b.encryptionKeys,
    extra: {},
  };
  return { metadata, changed: true };
}

function illegal(message: string) {
  return fail('ILLEGAL_ARGUMENT', message);
}

/** Java TableMetadata.validateRefs: a current snapshot and the `main` branch agree. */
function checkMainBranch(current: bigint | undefined, main: SnapshotRef | undefined): void {
  if (current !== undefined) {
    if (main !== undefined && main.snapshotId !== current) {
      throw illegal(`Current snapshot ID does not match main branch (${current} != ${main.snapshotId})`);
    }
  } else if (main !== undefined) {
    throw illegal(`Current snapshot is not set, but main branch exists: ${main.snapshotId}`);
  }
}

/** Java's constructor: log entries in time order and none after last-updated-ms, each within a minute of skew. */
function checkLogOrder(log: readonly { readonly timestampMs: number }[], lastUpdatedMs: number, what: string, after: string): void {
  let last: number | undefined;
  for (const entry of log) {
    if (last !== undefined && entry.timestampMs - last < -ONE_MINUTE) throw illegal(`[BUG] Expected sorted ${what}.`);
    last = entry.timestampMs;
  }
  if (last !== undefined && lastUpdatedMs - last < -ONE_MINUTE) {
    throw illegal(`Invalid update timestamp ${lastUpdatedMs}: ${after} ${last}`);
  }
}

/**
 * Java Builder.addPreviousFile: the metadata file the change started from is logged at its
 * last-updated-ms, and the log keeps at most write.metadata.previous-versions-max entries (≥ 1).
 */
export function addPreviousFile(
  previous: readonly MetadataLogEntry[],
  metadataFile: string,
  timestampMs: number,
  properties: Readonly<Record<string, string>>,
): MetadataLogEntry[] {
  const maxSize = Math.max(1, propertyAsInt(properties, METADATA_PREVIOUS_VERSIONS_MAX, METADATA_PREVIOUS_VERSIONS_MAX_DEFAULT));
  const kept = previous.length >= maxSize ? previous.slice(previous.length - maxSize + 1) : [...previous];
  kept.push({ timestampMs, metadataFile });
  return kept;
}

/**
 * Java Builder.updateSnapshotLog: snapshots added and set as `main` in this change but no longer
 * current (intermediate) leave the log; when snapshots were removed, an entry for a missing
 * snapshot drops the whole history before it (a gap would make time travel wrong). The log must
 * then end with the current snapshot.
 */
function updateSnapshotLog(b: MetadataBuilder): readonly SnapshotLogEntry[] {
  const added = new Set<bigint>();
  const intermediate = new Set<bigint>();
  for (const c of b.changes) {
    if (c.kind === 'add-snapshot') added.add(c.snapshotId);
    else if (c.kind === 'set-snapshot-ref' && added.has(c.snapshotId) && c.name === MAIN_BRANCH && c.snapshotId !== b.currentSnapshotId) {
      intermediate.add(c.snapshotId);
    }
  }
  const removed = b.changes.some((c) => c.kind === 'remove-snapshots');
  if (intermediate.size === 0 && !removed) return b.snapshotLog;

  let log: SnapshotLogEntry[] = [];
  for (const entry of b.snapshotLog) {
    if (b.snapshotsById.has(entry.snapshotId)) {
      if (!intermediate.has(entry.snapshotId)) log.push(entry);
    } else if (removed) {
      log = [];
    }
  }
  const current = b.currentSnapshotId;
  if (current !== undefined && b.snapshotsById.has(current) && log.at(-1)?.snapshotId !== current) {
    // Java: Iterables.getLast (an empty log fails there too, with NoSuchElementException)
    throw fail('VALIDATION_FAILED', 'Cannot set invalid snapshot log: latest entry is not the current snapshot');
  }
  return log;
}
