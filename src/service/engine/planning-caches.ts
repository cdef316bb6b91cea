/**
 * The caches of in-process planning, sized from one byte budget (`planning.cache-bytes`, or a
 * planning worker's share of it). `CACHE_SHARES` splits it: decoded manifest slices, manifest
 * lists and delete indexes here; the main thread keeps upstream plans being paged, /plan and
 * /tasks answers kept whole, and the bytes of the planning workers' reads from remote storage
 * (remote-bytes.ts).
 */
import { createComputeCache, type ComputeCache } from '../../cache/index.js';
import type { ManifestFile } from '../../iceberg/index.js';
import type { CacheMetrics, MetricCounter, Tracing } from '../../observability/index.js';
import type { DeleteFileIndex, ManifestSlice } from '../../planner/index.js';
import { manifestListBytes, sliceBytes, type ManifestCaches } from './caching-source.js';
import { shareOf, type PlanShare } from './plan-engine.js';

/**
 * The budget's split, sized on the bench's 100,000-file table of 20 columns at the default
 * 256 MiB: its slices with every column's stats pooled take ~126 MB (58% is 148 MiB, split between
 * the workers), a repeated unfiltered scan's answers ~36 MB (16% is 41 MiB), its 100 manifests'
 * bytes 13 MB (9%).
 */
export const CACHE_SHARES = {
  slices: 0.58,
  lists: 0.03,
  deleteIndexes: 0.07,
  upstreamPlans: 0.07,
  answers: 0.16,
  remoteFiles: 0.09,
} as const;

export interface PlanningCaches {
  readonly manifestCaches: ManifestCaches;
  readonly deleteIndexCache: ComputeCache<DeleteFileIndex>;
}

/** Where and how long a set of planning caches holds (createPlanningCaches). */
export interface PlanningCacheOptions {
  /** Spans for gets that wait on another's read (on the main thread only: workers record none). */
  readonly tracing?: Tracing;
  /** The share of a snapshot's data manifests these caches hold (a planning worker's); all of them when absent. */
  readonly share?: PlanShare;
  /** A value nobody has read for this long is dropped (`planning.cache-idle-seconds`); absent or 0: kept. */
  readonly idleMs?: number;
}

export function createPlanningCaches(
  budget: number,
  metrics: { readonly cache: CacheMetrics; readonly manifestReadsCoalesced: MetricCounter },
  { tracing, share, idleMs = 0 }: PlanningCacheOptions = {},
): PlanningCaches {
  const common = { ...(tracing && { tracing }), idleMs };
  const manifestMetrics: CacheMetrics = {
    ...metrics.cache,
    coalesced: (cache) => {
      metrics.cache.coalesced(cache);
      metrics.manifestReadsCoalesced.inc();
    },
  };
  const slices = createComputeCache<ManifestSlice>({ name: 'manifests', maxBytes: Math.floor(budget * CACHE_SHARES.slices), sizeOf: sliceBytes, metrics: manifestMetrics, ...common });
  const lists = createComputeCache<readonly ManifestFile[]>({ name: 'manifest-lists', maxBytes: Math.floor(budget * CACHE_SHARES.lists), sizeOf: manifestListBytes, metrics: metrics.cache, ...common });
  const deleteIndexCache = createComputeCache<DeleteFileIndex>({
    name: 'delete-index',
    maxBytes: Math.floor(budget * CACHE_SHARES.deleteIndexes),
    sizeOf: (index) => 1024 + index.size * 1024,
    metrics: metrics.cache,
    ...common,
  });
  const owns = share && share.count > 1 ? (m: ManifestFile) => shareOf(m.path, share.count) === share.index : undefined;
  return { manifestCaches: { slices, lists, ...(owns && { owns }) }, deleteIndexCache };
}
