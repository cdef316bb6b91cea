import { singleFlight, type SingleFlight } from '../../cache/index.js';
import type { UpstreamAuth } from '../../config/index.js';
import { fail } from '../../errors/index.js';
import type { UpstreamHttp } from './http-client.js';
import { isObject } from './upstream-config.js';

/** A token without `expires_in` is reused for this long (a 401 drops it sooner). */
const DEFAULT_TOKEN_LIFETIME_MS = 5 * 60_000;
/** Refresh this long before expiry (or at half-life for short-lived tokens). */
const REFRESH_MARGIN_MS = 30_000;

interface CachedToken {
  readonly header: string;
  readonly refreshAt: number;
}

/**
 * The Authorization Icefront sends to one upstream. forward: the caller's own header (this
 * upstream is the only one that ever sees it); bearer: the configured token; oauth2: a token
 * from the client-credentials grant (RFC 6749 §4.4), cached until shortly before `expires_in`,
 * fetched once for concurrent callers; failures are never cached. sigv4: none here, the upstream's
 * transport signs every request (UpstreamHttp's signer).
 */
export class UpstreamAuthenticator {
  #token: CachedToken | undefined;
  readonly #flight: SingleFlight<CachedToken>;

  constructor(
    private readonly auth: UpstreamAuth,
    private readonly http: UpstreamHttp,
    private readonly catalog: string,
    private readonly now: () => number,
  ) {
    this.#flight = singleFlight({ name: `upstream-token:${catalog}` });
  }

  async headers(callerAuthorization: string | undefined): Promise<Record<string, string>> {
    switch (this.auth.mode) {
      case 'forward':
        return callerAuthorization ? { authorization: callerAuthorization } : {};
      case 'bearer':
        return { authorization: `Bearer ${this.auth.token}` };
      case 'oauth2': {
        const cached = this.#token;
        if (cached && this.now() < cached.refreshAt) return { authorization: cached.header };
        const fresh = await this.#flight.run('token', () => this.#fetchToken());
        return { authorization: fresh.header };
      }
      case 'sigv4':
        // the transport signs each request last (sigv4-signer.ts): no header of the caller's goes
        return {};
    }
  }

  /** The upstream refused our token (401): the next call fetches a fresh one. */
  rejected(): void {
    this.#token = undefined;
  }

  /** Whether a 401 may be cured by a fresh token (only Icefront's own oauth2 identity). */
  get refreshable(): boolean {
    return this.auth.mode === 'oauth2';
  }

  async #fetchToken(): Promise<CachedToken> {
    if (this.auth.mode !== 'oauth2') throw fail('INTERNAL', 'not an oauth2 upstream');
    const { tokenUrl, clientId, clientSecret, scope } = this.auth;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    if (scope !== undefined) form.set('scope', scope);
    const url = new URL(tokenUrl);
    const what = 'the OAuth2 token request';
    const started = this.now();
    const res = await this.http.send('POST', { origin: url.origin, path: `${url.pathname}${url.search}` }, what, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    });
    const body = parseBody(res.body);
    if (res.status >= 500) {
      throw fail('UPSTREAM_UNAVAILABLE', `Catalog '${this.catalog}': the OAuth2 token endpoint failed (HTTP ${res.status})`);
    }
    if (res.status < 200 || res.status >= 300) {
      // RFC 6749 §5.2 `error` is a short code (invalid_client …); the body itself is never quoted
      const code = isObject(body) && typeof body['error'] === 'string' && /^[\w.-]{1,64}$/.test(body['error']) ? `, ${body['error']}` : '';
      throw fail(
        'UPSTREAM_BAD_GATEWAY',
        `Catalog '${this.catalog}': the OAuth2 token endpoint refused Icefront's client credentials (HTTP ${res.status}${code})`,
      );
    }
    const token = isObject(body) ? body['access_token'] : undefined;
    if (typeof token !== 'string' || token === '') {
      throw fail('UPSTREAM_BAD_GATEWAY', `Catalog '${this.catalog}': the OAuth2 token endpoint answered without an access_token`);
    }
    const expiresIn = isObject(body) ? Number(body['expires_in']) : NaN;
    const lifetime = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_TOKEN_LIFETIME_MS;
    const cached = { header: `Bearer ${token}`, refreshAt: started + Math.max(lifetime / 2, lifetime - REFRESH_MARGIN_MS) };
    this.#token = cached;
    return cached;
  }
}

function parseBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
