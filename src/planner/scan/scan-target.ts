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
  /**
   * Files added by the append snapshots in (start, end]: `snapshot` is the end, `appends` the
   * append snapshots of the range, oldest first, whose own manifest lists the scan reads.
   */
  | {
      readonly kind: 'incremental';
      readonly snapshot: Snapshot;
      readonly appends: readonly Snapshot[];
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

/**
 * Spec PlanTableScanRequest: start-snapshot-id is exclusive, end-snapshot-id inclusive; only
 * `append` snapshots contribute (Java BaseIncrementalAppendScan.appendsBetween over
 * SnapshotUtil.ancestorsBetween). As Java's fromSnapshotExclusive checks
 * (SnapshotUtil.isParentAncestorOf), start must be the parent of one of end's ancestors, so a
 * start expired since still bounds the range; unlike Java, start == end is the empty range
 * (start, end], which ancestorsBetween itself yields, rather than an error.
 */
function incremental(meta: TableMetadata, request: ScanRequest): ScanTarget {
  const end = requireSnapshot(meta, request.endSnapshotId!, 'end-snapshot-id');
  const start = request.startSnapshotId;
  const appends: Snapshot[] = [];
  let found = start === undefined || start === end.snapshotId;
  const seen = new Set<bigint>();
  for (let s: Snapshot | undefined = start === end.snapshotId ? undefined : end; s && !seen.has(s.snapshotId); s = parentOf(meta, s)) {
    seen.add(s.snapshotId);
    if (s.summary['operation'] === 'append') appends.push(s);
    if (start !== undefined && s.parentSnapshotId === start) {
      found = true;
      break;
    }
  }
  if (!found)
    throw fail('INVALID_SCAN', `Invalid scan: start-snapshot-id ${start} is not an ancestor of end-snapshot-id ${end.snapshotId}`);
  appends.reverse();
  return { kind: 'incremental', snapshot: end, appends, schema: currentSchema(meta) };
}

function parentOf(meta: TableMetadata, s: Snapshot): Snapshot | undefined {
  return s.parentSnapshotId === undefined ? undefined : snapshotById(meta, s.parentSnapshotId);
}

function requireSnapshot(meta: TableMetadata, id: bigint, key: string): Snapshot {
  const snapshot = snapshotById(meta, id);
  if (!snapshot) throw fail('INVALID_SCAN', `Invalid scan: ${key} ${id} is not a snapshot of this table`);
  return snapshot;
}
