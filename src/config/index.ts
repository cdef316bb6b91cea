export type {
  Config,
  ServerConfig,
  PlanningConfig,
  TracingConfig,
  CatalogConfig,
  FilesystemCatalogConfig,
  SqlCatalogConfig,
  RestCatalogConfig,
  UpstreamTlsConfig,
  PlanningMode,
  UpstreamAuth,
  S3StorageConfig,
  LocalStorageConfig,
  LocationRemap,
  AuthConfig,
  PrincipalLimitsConfig,
  StaticTokenConfig,
  JwtConfig,
  AllowRule,
  Access,
} from './types.js';
export { loadConfigFile, parseConfig, DEFAULTS } from './load.js';
export { ASYMMETRIC_JWT_ALGORITHMS, AUTH_DEFAULTS } from './auth.js';
