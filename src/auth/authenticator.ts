import type { AuthConfig } from '../config/index.js';
import { fail } from '../errors/index.js';
import { createJwtVerifier, looksLikeJwt, type JwtVerifier } from './jwt-verifier.js';
import type { Principal } from './principal.js';
import { StaticTokens } from './static-tokens.js';

export interface Authenticator {
  /**
   * The principal an Authorization header proves. No header → CREDENTIALS_MISSING; anything but
   * one accepted bearer token → CREDENTIALS_INVALID; the provider's keys out of reach →
   * IDENTITY_PROVIDER_UNAVAILABLE. Messages never quote the token.
   */
  authenticate(authorization: string | undefined): Promise<Principal>;
  readonly staticTokens: number;
  /** Where JWT keys come from, when JWTs are accepted. */
  readonly jwtKeySource?: string;
}

/** RFC 6750 §2.1: `Bearer` (any case, RFC 9110 §11.1), one or more spaces, a b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
/** Longer than any real token; refused before it is hashed or parsed. */
const MAX_TOKEN_LENGTH = 16 * 1024;

export function createAuthenticator(config: AuthConfig): Authenticator {
  const tokens = new StaticTokens(config.tokens);
  const jwt: JwtVerifier | undefined = config.jwt && createJwtVerifier(config.jwt);
  return {
    staticTokens: tokens.size,
    ...(jwt && { jwtKeySource: jwt.keySource }),
    async authenticate(authorization) {
      if (authorization === undefined || authorization.trim() === '')
        throw fail('CREDENTIALS_MISSING', 'Authentication required: send Authorization: Bearer <token>');
      const token = BEARER.exec(authorization)?.[1];
      if (token === undefined || token.length > MAX_TOKEN_LENGTH) throw fail('CREDENTIALS_INVALID', 'Only an Authorization: Bearer <token> header is accepted');
      const known = tokens.match(token);
      if (known) return known;
      if (jwt && looksLikeJwt(token)) return jwt.verify(token);
      throw fail('CREDENTIALS_INVALID', 'Bearer token rejected: it is not a token Icefront accepts');
    },
  };
}
