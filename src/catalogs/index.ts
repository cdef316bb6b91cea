export type { Catalog, Namespace, TableIdentifier, LoadedTable } from './catalog.js';
export { createFilesystemCatalog } from './filesystem/index.js';
export * from './rest/index.js';
