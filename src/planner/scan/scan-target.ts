/**
 * Which snapshot(s) a scan reads and which schema its filter binds to (Java DataTableScan,
 * BaseIncrementalAppendScan; wire-format §12 step 1 and §12.8).
 */
import { fail } from '../../errors/index.js';
import {
  currentSchema,
  currentSnapshot,
  snapshotById,
  snapshotSchema,
  type Schema,
  type Snapshot,
  type TableMetadata,
} from '../../iceberg/index.js';
import { scanNamesResolve } from './referenced-fields.js';
import type { ScanRequest } from './scan-request.js';

export type ScanTarget =
  /** The table has no snapshot to read: the plan is empty. */
  | { readonly kind: 'empty'; readonly schema: Schema }
  | { readonly kind: 'snapshot'; readonly snapshot: Snapshot; readonly schema: Schema }
  /** Files added by the append snapshots in (start, end]. */
  | {
      readonly kind: 'incremental';
      readonly snapshot: Snapshot;
      readonly appendSnapshotIds: ReadonlySet<bigint>;
      readonly schema: Schema;
    };

export function resolveScanTarget(meta: TableMetadata, request: ScanRequest): ScanTarget {
  if (request.endSnapshotId !== undefined) return incremental(meta, request);
  if (request.snapshotId !== undefined) {
    const snapshot = requireSnapshot(meta, request.snapshotId, 'snapshot-id');
    // A time-travel scan binds to the snapshot's schema when asked (Java SnapshotUtil.schemaFor).
    const schema = request.useSnapshotSchema ? snapshotSchema(meta, snapshot) : pinnedScanSchema(meta, snapshot, request);
    return { kind: 'snapshot', snapshot, schema };
  }
  // Spec PlanTableScanRequest: with no snapshot given, plan the latest snapshot of `main`.
  const snapshot = currentSnapshot(meta);
  const schema = currentSchema(meta);
  return snapshot ? { kind: 'snapshot', snapshot, schema } : { kind: 'empty', schema };
}

/**
 * `use-snapshot-schema: false` with a snapshot id. pyiceberg sends false even when it time
 * travels, and names the snapshot's own columns (wire-format §4); the reference server binds a
 * pinned snapshot to that snapshot's schema whatever the flag says (§9). So: the current schema
 * when every name the scan uses is one of its columns (a branch scan, as the spec intends), else
 * the snapshot's schema when every name is one of its columns (a column renamed or dropped
 * since), else the current schema, whose error names the missing column.
 */
function pinnedScanSchema(meta: TableMetadata, snapshot: Snapshot, request: ScanRequest): Schema {
  const current = currentSchema(meta);
  if (scanNamesResolve(request, current)) return current;
  const atSnapshot = snapshotSchema(meta, snapshot);
  return scanNamesResolve(request, atSnapshot) ? atSnapshot : current;
}

// Spec PlanTableScanRequest: start-snapshot-id is exclusive, end-snapshot-id inclusive; only
// `append` snapshots contribute (Java BaseIncrementalAppendScan).
function incremental(meta: TableMetadata, request: ScanRequest): ScanTarget {
  const end = requireSnapshot(meta, request.endSnapshotId!, 'end-snapshot-id');
  const start = request.startSnapshotId;
  if (start !== undefined) requireSnapshot(meta, start, 'start-snapshot-id');
  const ids = new Set<bigint>();
  let found = start === undefined;
  const seen = new Set<bigint>();
  for (let s: Snapshot | undefined = end; s && !seen.has(s.snapshotId); s = parentOf(meta, s)) {
    if (s.snapshotId === start) {
      found = true;
      break;
    }
    seen.add(s.snapshotId);
    if (s.summary['operation'] === 'append') ids.add(s.snapshotId);
  }
  if (!found)
    throw fail('INVALID_SCAN', `Invalid scan: start-snapshot-id ${start} is not an ancestor of end-snapshot-id ${end.snapshotId}`);
  return { kind: 'incremental', snapshot: end, appendSnapshotIds: ids, schema: currentSchema(meta) };
}

function parentOf(meta: TableMetadata, s: Snapshot): Snapshot | undefined {
  return s.parentSnapshotId === undefined ? undefined : snapshotById(meta, s.parentSnapshotId);
}

function requireSnapshot(meta: TableMetadata, id: bigint, key: string): Snapshot {
  const snapshot = snapshotById(meta, id);
  if (!snapshot) throw fail('INVALID_SCAN', `Invalid scan: ${key} ${id} is not a snapshot of this table`);
  return snapshot;
}
