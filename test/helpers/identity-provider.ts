/**
 * A tiny OIDC-style identity provider for tests: an RSA key pair, its JWKS served by node:http on
 * 127.0.0.1 (port 0), a signer for real JWTs (jose), honest or forged, and an OAuth2 token
 * endpoint (RFC 6749 §4.4 client credentials, secret in the form or in Basic auth) for the
 * clients it is started with.
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

/** A client of the token endpoint: its secret, and the JWT claims its tokens carry. */
export interface ProviderClient {
  readonly secret: string;
  readonly sub: string;
  readonly groups?: readonly string[];
}

export interface IdentityProvider {
  readonly jwksUri: string;
  /** `POST` here with `grant_type=client_credentials` (RFC 6749 §4.4). */
  readonly tokenEndpoint: string;
  /** Token requests served so far (granted or not), with the form fields each sent. */
  readonly tokenRequests: ReadonlyArray<Readonly<Record<string, string>>>;
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

export async function startIdentityProvider(clients: Readonly<Record<string, ProviderClient>> = {}): Promise<IdentityProvider> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const publicPem = await exportSPKI(publicKey);
  let fetches = 0;
  const tokenRequests: Record<string, string>[] = [];
  const grant = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const form = Object.fromEntries(new URLSearchParams(text));
    tokenRequests.push(form);
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent) : [form['client_id'], form['client_secret']];
    const client = id === undefined ? undefined : clients[id];
    const answer = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    if (form['grant_type'] !== 'client_credentials') return void answer(400, { error: 'unsupported_grant_type' });
    if (!client || client.secret !== secret) return void answer(401, { error: 'invalid_client', error_description: 'unknown client or wrong secret' });
    const token = await provider.sign({ sub: client.sub, groups: [...(client.groups ?? [])] });
    answer(200, { access_token: token, token_type: 'Bearer', expires_in: 3600, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' });
  };
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/oauth/token') {
      grant(req, res).catch(() => res.writeHead(500).end());
      return;
    }
    fetches++;
    if (provider.down) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const jwksUri = `${base}/jwks.json`;
  const provider: IdentityProvider = {
    jwksUri,
    tokenEndpoint: `${base}/oauth/token`,
    tokenRequests,
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
