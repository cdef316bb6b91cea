/**
 * `POST /v1/oauth/tokens` (REST spec OAuth2 token endpoint, deprecated by iceberg#10537).
 * Icefront issues no tokens of its own. Iceberg Java and pyiceberg clients configured with a
 * `credential` ask for their first token before they read `/v1/config`, at their
 * `oauth2-server-uri`, by default `{uri}/v1/oauth/tokens`: so with `auth.jwt.token-endpoint` set
 * this route relays the request (RFC 6749 §4.4 client credentials, or any grant the provider
 * takes) to the provider, byte for byte, and its answer back (RFC 6749 §5.1/§5.2: JSON, `no-store`).
 * Nothing of either is logged. Without a token endpoint: 406, as before.
 */
import { request as undiciRequest } from 'undici';
import { fail } from '../errors/index.js';
import type { RouteHandler } from './catalog-routes.js';

/** An OAuth2 token answer is a few KiB; more is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;

export function tokenRoute(tokenEndpoint: string): RouteHandler {
  return async ({ request, reply }) => {
    const body = typeof request.body === 'string' ? request.body : '';
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    // client_secret_basic (RFC 6749 §2.3.1): the client's own credential for the provider
    const authorization = request.headers.authorization;
    if (typeof authorization === 'string' && /^Basic /i.test(authorization)) headers['authorization'] = authorization;
    let answer: Awaited<ReturnType<typeof undiciRequest>>;
    try {
      answer = await undiciRequest(tokenEndpoint, { method: 'POST', body, headers, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    } catch {
      throw fail('IDENTITY_PROVIDER_UNAVAILABLE', 'The identity provider\'s token endpoint (auth.jwt.token-endpoint) did not answer');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        answer.body.destroy();
        throw fail('UPSTREAM_BAD_GATEWAY', `The identity provider's token answer is larger than ${MAX_ANSWER_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    const type = String(answer.headers['content-type'] ?? '');
    if (!/^application\/(?:[\w.+-]*\+)?json\b/i.test(type) || answer.statusCode < 200 || (answer.statusCode >= 300 && answer.statusCode < 400))
      throw fail('UPSTREAM_BAD_GATEWAY', `The identity provider answered ${answer.statusCode} with ${type.split(';')[0] || 'no content type'}, not an OAuth2 token response`);
    return reply.code(answer.statusCode).headers({ 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' }).send(Buffer.concat(chunks));
  };
}
