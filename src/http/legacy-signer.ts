/**
 * `POST /v1/{catalog}/s3-signer/v1/aws/s3/sign`: the unprefixed S3 signer of Iceberg Java 1.11
 * and older (S3V4RestSignerClient's default endpoint `v1/aws/s3/sign`), reached through the
 * signer mount that catalogs/rest/signer-uri.ts writes into a `rest` catalog's configs in place
 * of a signer uri that was the upstream itself. The catalog is the path's; the request goes to
 * that catalog's upstream only, to `{upstream uri}/v1/aws/s3/sign`, with that upstream's auth
 * (Federation.signerTarget: its headers, timeout and admission), streamed and never retried. No other
 * path below the upstream is reachable through it.
 */
import { bindRequestLog } from './access-line.js';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { fail } from '../errors/index.js';
import type { Service } from '../service/index.js';
import { accessOf, type AccessContext } from './access.js';
import { FORWARDED_HEADERS, type Origin } from './origin.js';
import type { PassThrough } from './proxy/index.js';
import { assertJsonDepth, rawBodyOf, readBody } from './read-body.js';
import { decodeSegment, rawPath } from './request-params.js';

/** The route, in find-my-way syntax; `s3-signer` is signer-uri.ts's SIGNER_MOUNT. */
export const LEGACY_SIGNER_ROUTE = '/v1/:prefix/s3-signer/v1/aws/s3/sign';
/** The route as a request's endpoint (service/request-route.ts): below a prefix, streamed. */
export const LEGACY_SIGNER_ENDPOINT = 'POST /v1/{prefix}/s3-signer/v1/aws/s3/sign';
const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface LegacySignerOptions {
  readonly service: Service;
  readonly passThrough: PassThrough;
  readonly origin: Origin;
  readonly access?: AccessContext;
}

export function legacySignerRoute(options: LegacySignerOptions): RouteOptions {
  return { method: 'POST', url: LEGACY_SIGNER_ROUTE, handler: (request, reply) => sign(options, request, reply) };
}

async function sign({ service, passThrough, origin, access }: LegacySignerOptions, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const rawPrefix = rawPath(request.raw.url ?? '/').split('/')[2] ?? '';
  const prefix = decodeSegment(rawPrefix, 'BAD_REQUEST', 'prefix');
  if (!service.federation.has(prefix)) throw fail('NOT_FOUND', `No S3 signer for "${prefix}": it is not an upstream catalog`);
  bindRequestLog(request, undefined, { catalog: prefix, upstream: true });
  let body = rawBodyOf(request.raw);
  if (access) {
    body ??= await readBody(request.raw, request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT);
    authorizeSigning(access, request, prefix, body);
  }
  const caller = typeof request.headers.authorization === 'string' ? request.headers.authorization : undefined;
  const target = await service.federation.signerTarget(prefix, caller);
  const dropHeaders = origin.trusted(request.raw) ? target.dropHeaders : [...target.dropHeaders, ...FORWARDED_HEADERS];
  await target.admit(() => passThrough.forward(request, reply, { ...target, dropHeaders, ...(body !== undefined && { body }) }));
  return reply;
}

/**
 * The request names no table, only the catalog (its body names an S3 URL, which the upstream
 * signer must check): with auth on, the spec's sign rule (read for GET/HEAD, write otherwise)
 * applied catalog-wide — some read rule for the catalog, or some write rule.
 */
function authorizeSigning(access: AccessContext, request: FastifyRequest, catalog: string, body: string): void {
  const principal = accessOf(request)?.principal;
  if (!principal) throw fail('CREDENTIALS_MISSING', 'Authentication is required');
  let method: unknown;
  try {
    assertJsonDepth(body);
    method = (JSON.parse(body) as { method?: unknown } | null)?.method;
  } catch {
    throw fail('BAD_REQUEST', 'The signing request is not JSON, so what it signs cannot be authorized');
  }
  const reads = typeof method === 'string' && /^(GET|HEAD)$/i.test(method);
  const { policy } = access.auth;
  if (reads ? !policy.seesCatalog(principal, catalog) : !policy.writesSomewhere(principal, catalog))
    throw fail('ACCESS_DENIED', `Forbidden: ${principal.name} may not ${reads ? 'read in' : 'write to'} catalog "${catalog}" (no auth.allow rule allows it)`);
}
