export type { Principal, Levels } from './principal.js';
export { createAuthenticator, type Authenticator } from './authenticator.js';
export { AccessPolicy } from './policy.js';
export { PrincipalLimits } from './principal-limits.js';
export { describeAuth } from './summary.js';
