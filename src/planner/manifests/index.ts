/**
 * Avro decoding of manifest lists and manifests (spec "Manifests", "Manifest Lists"), by
 * Iceberg field id. avsc stays private to this folder.
 */
export { readManifestList, readInlineManifests, type ReadManifestListOptions, type InlineManifestOptions } from './manifest-list.js';
export {
  readManifest,
  type EntryRange,
  type ManifestBlock,
  type ManifestIndex,
  type ManifestReadResult,
  type ReadManifestOptions,
} from './manifest-reader.js';
export type { ContainerStats } from './avro-container.js';
export { metricMapBytes } from './lazy-metric-map.js';
export type { PooledMetrics } from './pooled-metrics.js';
