/**
 * Cuts a plan, in manifest order, into batches of at most `batchSize` tasks whose JSON stays
 * under `maxBytes` (Gravitino design §8.5.1: a batch is a run of manifest entries, possibly
 * spanning manifests). Each batch knows the entry ranges it covers, which is what its plan task
 * carries, so redeeming it reads only those slices.
 */
import type { ManifestIndex } from '../../planner/index.js';

/**
 * What cutting needs of one data manifest's share of a plan, in entry order: each kept task's
 * entry ordinal, the bytes its JSON adds to a response and its record count. Typed arrays, so a
 * planning worker hands them over without the tasks themselves.
 */
export interface SizedManifest {
  readonly path: string;
  /** Its place among the scan's data manifests (manifest-list order). */
  readonly ordinal: number;
  readonly index: ManifestIndex;
  readonly positions: Int32Array;
  readonly bytes: Int32Array;
  readonly rows: BigInt64Array;
}

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
  /** Tasks in the batch. */
  count: number;
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

export function cutBatches(manifests: readonly SizedManifest[], limits: BatchLimits): Batch[] {
  const batches: Batch[] = [];
  let current: Batch = { count: 0, ranges: [] };
  let bytes = ENVELOPE_BYTES;
  let rows = 0n;
  // the range being extended: entries [start, end) of `open`'s manifest in the current batch
  let open: SizedManifest | undefined;
  let start = 0;
  let end = 0;
  const closeRange = () => {
    if (open) current.ranges.push({ manifest: open.path, start, end });
    open = undefined;
  };
  const full = (size: number) =>
    current.count > 0 && ((limits.batchSize > 0 && current.count >= limits.batchSize) || bytes + size > limits.maxBytes);
  outer: for (const manifest of manifests) {
    closeRange();
    for (let i = 0; i < manifest.positions.length; i++) {
      // An upper bound: deletes shared by tasks of one batch are counted once per task.
      const size = manifest.bytes[i]!;
      if (full(size)) {
        closeRange();
        batches.push(current);
        current = { count: 0, ranges: [] };
        bytes = ENVELOPE_BYTES;
      }
      current.count++;
      bytes += size;
      const pos = manifest.positions[i]!;
      if (open) end = pos + 1;
      else [open, start, end] = [manifest, pos, pos + 1];
      if (limits.minRows !== undefined) {
        rows += manifest.rows[i]!;
        if (rows >= limits.minRows) break outer;
      }
    }
  }
  closeRange();
  if (current.count > 0 || batches.length === 0) batches.push(current);
  const indexes = new Map(manifests.map((m) => [m.path, m.index] as const));
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
