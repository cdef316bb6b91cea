export type {
  Config,
  ServerConfig,
  PlanningConfig,
  CatalogConfig,
  FilesystemCatalogConfig,
  RestCatalogConfig,
  UpstreamAuth,
  S3StorageConfig,
  LocalStorageConfig,
  LocationRemap,
} from './types.js';
export { loadConfigFile, parseConfig, DEFAULTS } from './load.js';
