export type { Config, ServerConfig, PlanningConfig, CatalogConfig, FilesystemCatalogConfig, LocationRemap } from './types.js';
export { loadConfigFile, parseConfig, DEFAULTS } from './load.js';
