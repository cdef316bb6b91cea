import { createHash, timingSafeEqual } from 'node:crypto';
import type { StaticTokenConfig } from '../config/index.js';
import type { Principal } from './principal.js';

/**
 * Icefront's static bearer tokens, known only by their SHA-256. A presented token is hashed and
 * compared with every configured digest in constant time (crypto.timingSafeEqual over equal
 * 32-byte digests), without stopping at the first match, so timing tells nothing of which, or
 * whether any, digest shares a prefix with it.
 */
export class StaticTokens {
  readonly #entries: readonly { readonly digest: Buffer; readonly principal: Principal }[];

  constructor(tokens: readonly StaticTokenConfig[]) {
    this.#entries = tokens.map((t) => ({ digest: Buffer.from(t.sha256, 'hex'), principal: Object.freeze({ name: t.principal, roles: t.roles, via: 'token' as const }) }));
  }

  get size(): number {
    return this.#entries.length;
  }

  match(token: string): Principal | undefined {
    const digest = createHash('sha256').update(token, 'utf8').digest();
    let found: Principal | undefined;
    for (const entry of this.#entries) if (timingSafeEqual(digest, entry.digest) && found === undefined) found = entry.principal;
    return found;
  }
}
