export { createSqlCatalog, type SqlCatalogParts } from './sql-catalog.js';
export { openSqlStore } from './open-sql-store.js';
export type { SqlCatalogStore, SqlObjectKind, SqlObjectName, SqlRecord, SqlStoreOptions, SqlSwap } from './sql-store.js';
export { redactUri } from './sql-uri.js';
