export type { Catalog, LoadedTable } from './catalog.js';
export { createFilesystemCatalog } from './filesystem/index.js';
export * from './rest/index.js';
