/**
 * A tiny OIDC-style identity provider for tests: an RSA key pair, its JWKS served by node:http on
 * 127.0.0.1 (port 0), and a signer for real JWTs (jose), honest or forged.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import type { JwtConfig } from '../../src/config/index.js';

export const ISSUER = 'https://idp.test';
export const AUDIENCE = 'icefront';
export const KID = 'key-1';

export interface SignOptions {
  readonly alg?: string;
  readonly kid?: string;
  readonly issuer?: string;
  readonly audience?: string;
  /** Seconds from now; negative: already expired; null: no `exp` claim. Default one hour. */
  readonly expiresIn?: number | null;
  /** Sign with this key instead of the provider's (a stranger's key, or an HMAC secret). */
  readonly key?: CryptoKey | Uint8Array;
}

export interface IdentityProvider {
  readonly jwksUri: string;
  /** The public key as PEM (SPKI), for `public-key-file`. */
  readonly publicPem: string;
  /** JWKS requests served so far. */
  readonly fetches: number;
  /** While set, the JWKS answers 503. */
  down: boolean;
  sign(claims: JWTPayload, options?: SignOptions): Promise<string>;
  /** An `alg: none` token: header and claims, no signature. */
  unsigned(claims: JWTPayload): string;
  /** A `JwtConfig` for this provider (JWKS mode) with `overrides` applied. */
  config(overrides?: Partial<JwtConfig>): JwtConfig;
  close(): Promise<void>;
}

export async function startIdentityProvider(): Promise<IdentityProvider> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const publicPem = await exportSPKI(publicKey);
  let fetches = 0;
  const server = http.createServer((req, res) => {
    fetches++;
    if (provider.down) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  const provider: IdentityProvider = {
    jwksUri,
    publicPem,
    get fetches() {
      return fetches;
    },
    down: false,
    async sign(claims, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? KID, typ: 'JWT' })
        .setIssuer(options.issuer ?? ISSUER)
        .setAudience(options.audience ?? AUDIENCE)
        .setIssuedAt(now - 60);
      if (options.expiresIn !== null) jwt.setExpirationTime(now + (options.expiresIn ?? 3600));
      return jwt.sign(options.key ?? privateKey);
    },
    unsigned(claims) {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}.`;
    },
    config(overrides = {}) {
      return {
        jwksUri,
        issuer: ISSUER,
        audience: [AUDIENCE],
        principalClaim: 'sub',
        rolesClaim: 'groups',
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        clockToleranceSeconds: 5,
        jwksTimeoutMs: 2000,
        jwksCacheMs: 60_000,
        ...overrides,
      };
    },
    async close() {
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
  return provider;
}
