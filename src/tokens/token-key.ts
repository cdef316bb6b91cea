/**
 * The HMAC key for plan tasks and plan ids, from config `planning.token-secret`. Every replica
 * must derive the same key from the same secret (Gravitino design §5.15: a per-replica key makes
 * strings verifiable only where they were issued, i.e. intermittent 404s behind a load balancer).
 */
import type { PlanningConfig } from '../config/index.js';
import { assertKey } from './envelope.js';

/** The key to pass to the codecs, or undefined when no secret is configured (unsigned strings). */
export function tokenKey(planning: PlanningConfig): Buffer | undefined {
  if (planning.tokenSecret === undefined) return undefined;
  const key = Buffer.from(planning.tokenSecret, 'utf8');
  assertKey(key);
  return key;
}
