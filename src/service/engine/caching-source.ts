/**
 * A ManifestSource that decodes each manifest slice once: concurrent requests for the same slice
 * share one read (coalescing), finished slices live in a byte-bounded LRU. Keys name every input
 * a slice depends on; nothing here depends on a caller's credentials.
 */
import type { ComputeCache } from '../../cache/index.js';
import type { ManifestFile } from '../../iceberg/index.js';
import { metricMapBytes, type EntriesRequest, type ManifestIndex, type ManifestSlice, type ManifestSource } from '../../planner/index.js';
import type { Metrics } from '../../observability/index.js';

export interface ManifestCaches {
  readonly slices: ComputeCache<ManifestSlice>;
  readonly lists: ComputeCache<readonly ManifestFile[]>;
  /** How many caches split a snapshot's data manifests between them (planning workers each hold their share); 1 by default. */
  readonly shares?: number;
}

export function cachingManifestSource(base: ManifestSource, caches: ManifestCaches, tableKey: string, metrics?: Pick<Metrics, 'manifestReads'>): ManifestSource {
  const cache = caches.slices;
  // A snapshot whose data manifests would not fit in the cache (with the column stats the read
  // keeps) is read whole without keeping the slices: an LRU smaller than a sequential scan only
  // churns (every read of the next plan misses) and holds the memory for nothing. Ranges
  // (plan-task redemptions) are kept either way. A planning worker's cache holds its share of
  // the manifests only, so it is judged against that share.
  const shares = Math.max(1, caches.shares ?? 1);
  let dataEntries = 0;
  return {
    async manifests(snapshot) {
      const list = await caches.lists.get(JSON.stringify([tableKey, String(snapshot.snapshotId), snapshot.manifestList ?? snapshot.manifests ?? []]), () =>
        base.manifests(snapshot),
      );
      dataEntries = estimatedDataEntries(list);
      return list;
    },
    read(manifest, request) {
      const identity = [
        tableKey,
        ...manifestIdentity(manifest),
        request.schema.schemaId,
        [...request.specsById.keys()],
        request.statsFieldIds ? [...request.statsFieldIds].sort((a, b) => a - b) : 'all',
      ];
      const wholeKey = JSON.stringify([...identity, 'whole', 'no-hint']);
      const range = request.range;
      // A range of a manifest whose whole slice is stored (the plan that cut the range read it) is
      // cut from that slice: the same entries, inheritance applied alike, without decoding again.
      // Only when its block hint is one that slice's blocks give: a forged hint is read as given
      // (and refused) by this server as by any other, so every replica answers a string alike.
      const whole = range !== undefined ? cache.peek(wholeKey) : undefined;
      const fromWhole = range !== undefined && whole !== undefined && (request.index === undefined || hintAgrees(request.index, whole.index));
      // the whole manifest's key and read, or the range's (with its hint); counted alike either way
      let key = wholeKey;
      let asked: EntriesRequest = request;
      if (fromWhole) {
        const { range: _range, index: _index, ...wholeRequest } = request;
        asked = wholeRequest;
      } else if (range !== undefined || request.index !== undefined) {
        key = JSON.stringify([
          ...identity,
          range ? [range.start, range.end] : 'whole',
          // A block hint comes from a plan-task string: a different (or forged) hint never shares an entry.
          request.index ? request.index.blocks.map((b) => [b.offset, b.byteLength, b.firstEntry, String(b.nextRowId ?? '')]) : 'no-hint',
        ]);
      }
      const slice = cache.get(
        key,
        () => {
          metrics?.manifestReads.inc();
          return base.read(manifest, asked);
        },
        { store: range !== undefined || estimatedSliceBytes(dataEntries / shares, request) <= cache.maxBytes },
      );
      return fromWhole ? slice.then((s) => ({ entries: s.entries.slice(range!.start, range!.end), index: s.index })) : slice;
    },
  };
}

/**
 * Whether every block of a plan task's hint starts at a block of `index` (offset, first entry, next
 * row id) and spans a run of its blocks exactly (batches.ts withBlockHint cuts hints so).
 */
function hintAgrees(hint: ManifestIndex, index: ManifestIndex): boolean {
  return hint.blocks.every((h) => {
    let i = index.blocks.findIndex((b) => b.offset === h.offset);
    const first = index.blocks[i];
    if (first === undefined || first.firstEntry !== h.firstEntry || first.nextRowId !== h.nextRowId) return false;
    let bytes = 0;
    while (bytes < h.byteLength && i < index.blocks.length) bytes += index.blocks[i++]!.byteLength;
    return bytes === h.byteLength;
  });
}

/** A cached entry without its path or metric maps (see sliceBytes), and a path's usual length. */
const ENTRY_BYTES = 700;
const PATH_CHARS = 50;
/** Raw metric map bytes per entry and stats column kept (sliceBytes' calibration: ~2,270 for 20). */
const STATS_COLUMN_BYTES = 110;

/** Entries per byte of manifest file when the list does not count them (about 130 bytes an entry). */
const ENTRIES_PER_BYTE = 1 / 100;

/** Entries in the data manifests of a list. */
function estimatedDataEntries(list: readonly ManifestFile[]): number {
  let entries = 0;
  for (const m of list) {
    if (m.content !== 0) continue;
    const counted = m.addedFilesCount !== undefined && m.existingFilesCount !== undefined && m.deletedFilesCount !== undefined;
    entries += counted ? m.addedFilesCount! + m.existingFilesCount! + m.deletedFilesCount! : Number(m.length) * ENTRIES_PER_BYTE;
  }
  return entries;
}

/**
 * What that many entries would take as cached slices (sliceBytes' lower end). A read that keeps
 * any column's stats holds every column's: its metric maps stay raw bytes until first read
 * (lazy-metric-map.ts), and the maps a plan never reads (column sizes, say) keep theirs, so a
 * filter on one column costs about what every column's stats do (measured on the bench's
 * 100,000-file table: ~3,000 bytes an entry with one filter column, not the ~900 its one column
 * would take decoded; sized as one column, its slices were stored, churned the cache and evicted
 * the unfiltered plan's).
 */
function estimatedSliceBytes(entries: number, request: EntriesRequest): number {
  // each field id at any depth may carry stats (top-level fields undercount nested schemas)
  const statsColumns = request.statsFieldIds?.size === 0 ? 0 : request.schema.highestFieldId();
  return entries * (ENTRY_BYTES + 2 * PATH_CHARS + statsColumns * STATS_COLUMN_BYTES);
}

/** What a manifest's entries inherit from its list entry (spec "Sequence Number Inheritance"). */
function manifestIdentity(m: ManifestFile): string[] {
  return [m.path, String(m.length), String(m.specId), String(m.sequenceNumber), String(m.addedSnapshotId), String(m.firstRowId ?? '')];
}

/** Rough retained size of a manifest list. */
export function manifestListBytes(list: readonly ManifestFile[]): number {
  let bytes = 256;
  for (const m of list) bytes += 300 + m.path.length * 2 + (m.partitions?.length ?? 0) * 96;
  return bytes;
}

/**
 * Rough retained size of a slice: the cache bound is about memory, so over-estimate. Calibrated
 * with a heap measurement (gc, then heapUsed and external before and after holding 20 slices of the
 * bench's synthetic table): 830 bytes per entry without stats, ~3,100 with 20 columns' stats.
 */
export function sliceBytes(slice: ManifestSlice): number {
  let bytes = 256 + slice.index.blocks.length * 64;
  for (const e of slice.entries) {
    const f = e.file;
    bytes += ENTRY_BYTES + f.filePath.length * 2;
    // metric maps may still be raw bytes (decoded on first read): sized without decoding them
    for (const m of [f.columnSizes, f.valueCounts, f.nullValueCounts, f.nanValueCounts, f.lowerBounds, f.upperBounds]) bytes += metricMapBytes(m);
  }
  return bytes;
}
