export { createFilesystemCatalog, type FilesystemCatalogOptions } from './filesystem-catalog.js';
