/**
 * The planner's one entry point: pure Iceberg scan planning over a FileIO. Nothing here knows
 * about HTTP, fastify or upstream catalogs.
 */
export * from './scan/index.js';
export type { DeleteFileIndex } from './deletes/index.js';
export type { ManifestIndex, ManifestBlock, EntryRange, PooledMetrics } from './manifests/index.js';
export { metricMapBytes } from './manifests/index.js';
export { murmur3_32 } from './transforms/index.js';
