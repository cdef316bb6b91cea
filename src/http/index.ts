export { buildServer, type BuildServerOptions } from './server.js';
export { replaceCertificates } from './tls.js';
export type { ErrorModel, IcebergErrorResponse } from './error-response.js';
export { SPEC_PATHS, type SpecPath } from './spec-paths.js';
