/**
 * Cuts a plan, in manifest order, into batches of at most `batchSize` tasks whose JSON stays
 * under `maxBytes` (Gravitino design §8.5.1: a batch is a run of manifest entries, possibly
 * spanning manifests). Each batch knows the entry ranges it covers, which is what its plan task
 * carries, so redeeming it reads only those slices.
 */
import type { FileTask, ManifestIndex, ManifestTasks, ScanTasksWriter } from '../../planner/index.js';

export interface BatchRange {
  readonly manifest: string;
  readonly start: number;
  readonly end: number;
  /** The Avro blocks holding the range: byte span, first entry ordinal, first row id (v3). */
  readonly offset?: number;
  readonly length?: number;
  readonly first?: number;
  readonly nextRowId?: bigint;
}

export interface Batch {
  readonly tasks: FileTask[];
  ranges: BatchRange[];
}

export interface BatchLimits {
  /** Tasks per batch; 0 = unbounded. */
  readonly batchSize: number;
  /** Bytes of task JSON per batch (a task larger than this still gets a batch of its own). */
  readonly maxBytes: number;
  /** Stop once the tasks cover this many rows (`min-rows-requested`). */
  readonly minRows?: bigint;
}

/** Room left in a response for its envelope (status, plan id, plan-task strings are counted by the caller). */
const ENVELOPE_BYTES = 256;

export function cutBatches(manifests: readonly ManifestTasks[], limits: BatchLimits, writer: ScanTasksWriter): Batch[] {
  const batches: Batch[] = [];
  let current: Batch = { tasks: [], ranges: [] };
  let bytes = ENVELOPE_BYTES;
  let rows = 0n;
  const full = (size: number) =>
    current.tasks.length > 0 &&
    ((limits.batchSize > 0 && current.tasks.length >= limits.batchSize) || bytes + size > limits.maxBytes);
  outer: for (const { manifest, tasks } of manifests) {
    for (const task of tasks) {
      // An upper bound: deletes shared by tasks of one batch are counted once per task.
      const size = writer.taskBytes(task);
      if (full(size)) {
        batches.push(current);
        current = { tasks: [], ranges: [] };
        bytes = ENVELOPE_BYTES;
      }
      current.tasks.push(task);
      bytes += size;
      const pos = task.data.position;
      const last = current.ranges[current.ranges.length - 1];
      if (last && last.manifest === manifest.path) current.ranges[current.ranges.length - 1] = { ...last, end: pos + 1 };
      else current.ranges.push({ manifest: manifest.path, start: pos, end: pos + 1 });
      rows += task.data.file.recordCount;
      if (limits.minRows !== undefined && rows >= limits.minRows) break outer;
    }
  }
  if (current.tasks.length > 0 || batches.length === 0) batches.push(current);
  const indexes = new Map(manifests.map((m) => [m.manifest.path, m.index] as const));
  for (const batch of batches) batch.ranges = batch.ranges.map((r) => withBlockHint(r, indexes.get(r.manifest)));
  return batches;
}

/** The byte span of the blocks covering a range, so redemption reads only those bytes. */
function withBlockHint(range: BatchRange, index: ManifestIndex | undefined): BatchRange {
  const covering = (entry: number) => index?.blocks.find((b) => b.firstEntry <= entry && entry < b.firstEntry + b.entryCount);
  const firstBlock = covering(range.start);
  const lastBlock = covering(range.end - 1);
  if (!firstBlock || !lastBlock || lastBlock.offset < firstBlock.offset) return range;
  return {
    ...range,
    offset: firstBlock.offset,
    length: lastBlock.offset + lastBlock.byteLength - firstBlock.offset,
    first: firstBlock.firstEntry,
    ...(firstBlock.nextRowId !== undefined && { nextRowId: firstBlock.nextRowId }),
  };
}
