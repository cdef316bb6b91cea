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
  /**
   * The data manifests this cache holds, when it holds a share (a planning worker's, by a hash
   * of the path): a snapshot is judged by what its own share would take, not by an even split.
   */
  readonly owns?: (manifest: ManifestFile) => boolean;
}

export function cachingManifestSource(base: ManifestSource, caches: ManifestCaches, tableKey: string, metrics?: Pick<Metrics, 'manifestReads'>): ManifestSource {
  const cache = caches.slices;
  // A snapshot whose data manifests would not fit in the cache (with the column stats the read
  // keeps) is read whole without keeping the slices: an LRU smaller than a sequential scan only
  // churns (every read of the next plan misses) and holds the memory for nothing. Ranges
  // (plan-task redemptions) are kept either way. A planning worker's cache holds its share of
  // the manifests only, so it is judged against that share: a hash splits 100 manifests 61/39
  // as readily as 50/50, and the larger share must fit, not the average.
  let dataEntries = 0;
  return {
    async manifests(snapshot) {
      const list = await caches.lists.get(JSON.stringify([tableKey, String(snapshot.snapshotId), snapshot.manifestList ?? snapshot.manifests ?? []]), () =>
        base.manifests(snapshot),
      );
      dataEntries = estimatedDataEntries(caches.owns ? list.filter(caches.owns) : list);
      return list;
    },
    read(manifest, request) {
      const range = request.range;
      // A data manifest's slice is kept with every column's stats, pooled (pooled-metrics.ts), when
      // the snapshot's slices would fit so: one slice then serves every filter, and a filter on a
      // column no plan asked about before decodes nothing. Else it keeps what this scan asks for.
      const keepsAll = manifest.content === 0 && estimatedSliceBytes(dataEntries, request, true) <= cache.maxBytes;
      const identity = (all: boolean) => [
        tableKey,
        ...manifestIdentity(manifest),
        request.schema.schemaId,
        [...request.specsById.keys()],
        all ? 'all-metrics' : request.statsFieldIds ? [...request.statsFieldIds].sort((a, b) => a - b) : 'all',
      ];
      const wholeKey = (all: boolean) => JSON.stringify([...identity(all), 'whole', 'no-hint']);
      // A range of a manifest whose whole slice is stored (the plan that cut the range read it) is
      // cut from that slice: the same entries, inheritance applied alike, without decoding again.
      // Only when its block hint is one that slice's blocks give: a forged hint is read as given
      // (and refused) by this server as by any other, so every replica answers a string alike. A
      // redemption may not know the snapshot's size (it reads no manifest list), so either kind
      // of whole slice will do.
      let all = keepsAll;
      let key = wholeKey(all);
      let fromWhole = false;
      if (range !== undefined) {
        for (const pooled of manifest.content === 0 ? [true, false] : [false]) {
          const whole = cache.peek(wholeKey(pooled));
          if (whole !== undefined && (request.index === undefined || hintAgrees(request.index, whole.index))) {
            all = pooled;
            key = wholeKey(pooled);
            fromWhole = true;
            break;
          }
        }
      }
      const { range: _range, index: _index, ...wholeRequest } = request;
      const asked: EntriesRequest = { ...(fromWhole ? wholeRequest : request), ...(all && { allMetrics: true }) };
      if (!fromWhole && (range !== undefined || request.index !== undefined)) {
        key = JSON.stringify([
          ...identity(keepsAll),
          range ? [range.start, range.end] : 'whole',
          // A block hint comes from a plan-task string: a different (or forged) hint never shares an entry.
          request.index ? request.index.blocks.map((b) => [b.offset, b.byteLength, b.firstEntry, String(b.nextRowId ?? '')]) : 'no-hint',
        ]);
      }
      const store = fromWhole || range !== undefined || estimatedSliceBytes(dataEntries, request, keepsAll) <= cache.maxBytes;
      const slice = cache.get(
        key,
        () => {
          metrics?.manifestReads.inc();
          return base.read(manifest, asked);
        },
        { store },
      );
      return fromWhole ? slice.then((s) => cut(s, range!.start, range!.end)) : slice;
    },
  };
}

/** Entries `[start, end)` of a slice, with their pooled stats. */
function cut(slice: ManifestSlice, start: number, end: number): ManifestSlice {
  const entries = slice.entries.slice(start, end);
  return slice.metrics ? { entries, index: slice.index, metrics: slice.metrics.slice(start, end) } : { entries, index: slice.index };
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

/**
 * A cached entry without its path or metric maps (see sliceBytes), and a path's usual length.
 * Measured (gc, then heapUsed before and after holding the entries of the bench table's 100
 * manifests): 623 bytes an entry with its 110-character path, 656 with its metric maps pooled.
 */
const ENTRY_BYTES = 560;
const PATH_CHARS = 50;
/** Raw metric map bytes per entry and stats column kept (sliceBytes' calibration: ~2,270 for 20). */
const STATS_COLUMN_BYTES = 110;
/** Pooled stats bytes per entry and column (the six maps of a long column), and the spans per entry. */
const POOLED_COLUMN_BYTES = 26;
const POOLED_ENTRY_BYTES = 28;

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
 * What that many entries would take as cached slices (sliceBytes' lower end), with every column's
 * stats pooled, or else with the stats the request keeps. Not pooled, a read that keeps any
 * column's stats holds every column's: its metric maps stay raw bytes until first read
 * (lazy-metric-map.ts), and the maps a plan never reads (column sizes, say) keep theirs, so a
 * filter on one column costs about what every column's stats do (measured on the bench's
 * 100,000-file table: ~3,000 bytes an entry with one filter column, not the ~900 its one column
 * would take decoded; sized as one column, its slices were stored, churned the cache and evicted
 * the unfiltered plan's).
 */
export function estimatedSliceBytes(entries: number, request: EntriesRequest, pooled: boolean): number {
  // each field id at any depth may carry stats (top-level fields undercount nested schemas)
  const columns = request.schema.highestFieldId();
  const stats = pooled ? POOLED_ENTRY_BYTES + columns * POOLED_COLUMN_BYTES : request.statsFieldIds?.size === 0 ? 0 : columns * STATS_COLUMN_BYTES;
  return entries * (ENTRY_BYTES + 2 * PATH_CHARS + stats);
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
 * Rough retained size of a slice: the cache bound is about memory, so over-estimate (a path is
 * counted at two bytes a character). Calibrated with heap measurements on the bench's synthetic
 * table: ~650 bytes per entry without stats, plus ~3,100 with 20 columns' stats in metric maps,
 * or their bytes (~500 for 20 columns) when pooled.
 */
export function sliceBytes(slice: ManifestSlice): number {
  let bytes = 256 + slice.index.blocks.length * 64 + (slice.metrics?.bytes ?? 0);
  for (const e of slice.entries) {
    const f = e.file;
    bytes += ENTRY_BYTES + f.filePath.length * 2;
    // metric maps may still be raw bytes (decoded on first read): sized without decoding them
    for (const m of [f.columnSizes, f.valueCounts, f.nullValueCounts, f.nanValueCounts, f.lowerBounds, f.upperBounds]) bytes += metricMapBytes(m);
  }
  return bytes;
}
