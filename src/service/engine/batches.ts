/**
 * Cuts a plan, in manifest order, into batches of at most `batchSize` tasks whose JSON stays
 * under `maxBytes` (Gravitino design §8.5.1: a batch is a run of manifest entries, possibly
 * spanning manifests). Each batch knows the entry ranges it covers, which is what its plan task
 * carries, so redeeming it reads only those slices.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ManifestRange } from '../../iceberg/index.js';
import type { ManifestIndex } from '../../planner/index.js';
import type { ListedManifest } from '../../tokens/index.js';

/**
 * What cutting needs of one data manifest's share of a plan, in entry order: each kept task's
 * entry ordinal, the bytes its JSON adds to a response and its record count. Typed arrays, so a
 * planning worker hands them over without the tasks themselves.
 */
export interface SizedManifest {
  readonly path: string;
  /** Its manifest-list entry, as far as a plan task carries it. */
  readonly listed: ListedManifest;
  /** Its place among the scan's data manifests (manifest-list order). */
  readonly ordinal: number;
  readonly index: ManifestIndex;
  readonly positions: Int32Array;
  readonly bytes: Int32Array;
  readonly rows: BigInt64Array;
}

export interface Batch {
  /** Tasks in the batch. */
  count: number;
  /** Its slices of manifests: what its plan task carries (entries and the byte span of their blocks). */
  ranges: ManifestRange[];
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

/** Entries cut between two yields to the event loop (a few ms of work on a slow core). */
const ENTRIES_PER_TURN = 10_000;

export async function cutBatches(manifests: readonly SizedManifest[], limits: BatchLimits): Promise<Batch[]> {
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
  // It runs once per plan on the event loop, over every kept task: 100,000 of them were one
  // 30-50 ms block of every other request (issue #12 part 3), so it yields every few thousand.
  const { batchSize, maxBytes, minRows } = limits;
  let sinceYield = 0;
  outer: for (const manifest of manifests) {
    if (sinceYield >= ENTRIES_PER_TURN) {
      sinceYield = 0;
      await yieldToLoop();
    }
    sinceYield += manifest.positions.length;
    closeRange();
    const { positions, bytes: sizes, rows: counts } = manifest;
    for (let i = 0; i < positions.length; i++) {
      // An upper bound: deletes shared by tasks of one batch are counted once per task.
      const size = sizes[i]!;
      if (current.count > 0 && ((batchSize > 0 && current.count >= batchSize) || bytes + size > maxBytes)) {
        closeRange();
        batches.push(current);
        current = { count: 0, ranges: [] };
        bytes = ENVELOPE_BYTES;
      }
      current.count++;
      bytes += size;
      const pos = positions[i]!;
      if (open === undefined) {
        open = manifest;
        start = pos;
      }
      end = pos + 1;
      if (minRows !== undefined) {
        rows += counts[i]!;
        if (rows >= minRows) break outer;
      }
    }
  }
  closeRange();
  if (current.count > 0 || batches.length === 0) batches.push(current);
  const indexes = new Map(manifests.map((m) => [m.path, m.index] as const));
  for (const batch of batches) batch.ranges = batch.ranges.map((r) => withBlockHint(r, indexes.get(r.manifest)));
  return batches;
}

/** The block holding entry ordinal `entry`: blocks are in entry order, so a binary search. */
function blockOf(blocks: ManifestIndex['blocks'], entry: number): ManifestIndex['blocks'][number] | undefined {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const b = blocks[mid]!;
    if (entry < b.firstEntry) hi = mid - 1;
    else if (entry >= b.firstEntry + b.entryCount) lo = mid + 1;
    else return b;
  }
  return undefined;
}

/** The byte span of the blocks covering a range, so redemption reads only those bytes. */
function withBlockHint(range: ManifestRange, index: ManifestIndex | undefined): ManifestRange {
  if (!index) return range;
  const firstBlock = blockOf(index.blocks, range.start);
  const lastBlock = blockOf(index.blocks, range.end - 1);
  if (!firstBlock || !lastBlock || lastBlock.offset < firstBlock.offset) return range;
  return {
    ...range,
    offset: firstBlock.offset,
    length: lastBlock.offset + lastBlock.byteLength - firstBlock.offset,
    first: firstBlock.firstEntry,
    ...(firstBlock.nextRowId !== undefined && { nextRowId: firstBlock.nextRowId }),
  };
}
