export type { Catalog, Namespace, TableIdentifier, LoadedTable } from './catalog.js';
