export type { Catalog, CatalogViews, CatalogWrites, LoadedTable, LoadedView, StagedTable } from './catalog.js';
export { createFilesystemCatalog } from './filesystem/index.js';
export * from './rest/index.js';
export { createSqlCatalog, openSqlStore } from './sql/index.js';
