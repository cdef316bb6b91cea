/**
 * Carries out the route of a request under the prefix of an upstream REST catalog, decided when
 * it arrived (service/request-route.ts): streamed to the upstream, read whole for a load-table
 * (whose config may need URLs pointing back at Icefront) or a listing the caller may see only part
 * of, checked first for a multi-table commit, or, for planning, answered by Icefront when the
 * catalog's planning mode says so. Forwarded bodies are streamed unread, except the ones the route
 * read (planning, and what authorization reads), which are re-sent as received.
 */
import { bindRequestLog } from './access-line.js';
import type { FastifyReply } from 'fastify';
import { fail } from '../errors/index.js';
import { TRACING_OFF, type Tracing } from '../observability/index.js';
import type { RequestRoute, Service } from '../service/index.js';
import type { RouteContext, RouteHandler } from './catalog-routes.js';
import type { PassThrough } from './proxy/index.js';
import { assertJsonDepth, rawBodyOf, readBody, rememberRawBody } from './read-body.js';
import { transactionTables } from './transaction-tables.js';
import { sendRelayedNegotiated } from './compression.js';
import { strongTags } from './conditional.js';
import { FORWARDED_HEADERS } from './origin.js';
import { decodeSegment, rawPath, rawPathParams } from './request-params.js';

/**
 * Where the prefix segment of `/v1/{prefix}/…` ends (the `/` after it), or -1 when the path is
 * not below a prefix.
 */
function prefixEnd(path: string): number {
  return path.startsWith('/v1/') ? path.indexOf('/', 4) : -1;
}

/** The client's raw path after `/v1/{prefix}`, with its raw query (only asked below a prefix). */
function rawRest(rawUrl: string): string {
  const path = rawPath(rawUrl);
  const query = rawUrl.indexOf('?');
  return `${path.slice(prefixEnd(path))}${query === -1 ? '' : rawUrl.slice(query)}`;
}

/**
 * The plan-task string of a /tasks body (REST spec FetchScanTasksRequest), or the decoded plan id
 * of a `…/plan/{plan-id}` path: what says whether Icefront issued what a planning request
 * redeems. Undefined for any other request, or one that names neither readably.
 */
function issuedString(ctx: RouteContext): string | undefined {
  const { request, specPath } = ctx;
  if (specPath.endsWith('/tasks')) {
    const body = request.body;
    const task = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)['plan-task'] : undefined;
    return typeof task === 'string' ? task : undefined;
  }
  const raw = rawPathParams(specPath, request.raw.url ?? '/')['plan-id'];
  if (raw === undefined) return undefined;
  try {
    return decodeSegment(raw, 'BAD_REQUEST', 'plan id');
  } catch {
    return undefined;
  }
}

const FORWARDED_TO_LOAD = ['if-none-match', 'x-iceberg-access-delegation', 'accept'];

/** fastify's own default, should a route carry no bodyLimit. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** `.` or `..`, raw or percent-encoded (any case): a segment a URL parser would resolve away. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

type UpstreamRoute = Extract<RequestRoute, { to: 'upstream' }>;

/**
 * Carries out a route to an upstream catalog (service/request-route.ts) in the way it names: a
 * planning request is Icefront's `handler` when the catalog's planning mode gives it to Icefront
 * (Service.answersPlanning); everything else goes to the upstream.
 */
export function toUpstream(
  ctx: RouteContext,
  route: UpstreamRoute,
  handler: RouteHandler | undefined,
  service: Service,
  passThrough: PassThrough,
  tracing: Tracing = TRACING_OFF,
): Promise<FastifyReply> {
  if (route.way !== 'planning' || !handler) return forwardToUpstream(ctx, route, service, passThrough, tracing);
  const authorization = typeof ctx.request.headers.authorization === 'string' ? ctx.request.headers.authorization : undefined;
  return service
    .answersPlanning(route.catalog, route.endpoint, issuedString(ctx), authorization)
    .then((here) => (here ? handler(ctx) : forwardToUpstream(ctx, route, service, passThrough, tracing)));
}

async function forwardToUpstream(ctx: RouteContext, route: UpstreamRoute, service: Service, passThrough: PassThrough, tracing: Tracing): Promise<FastifyReply> {
  const { request, reply } = ctx;
  const prefix = route.catalog;
  const url = request.raw.url ?? '/';
  // A forwarded path is never normalised (RFC 3986 §5.2.4 would turn `tables/%2e%2e` into the
  // namespace itself), so a dot segment cannot reach an upstream: it is refused.
  if (rawPath(url).split('/').some((segment) => DOT_SEGMENT.test(segment)))
    throw fail('BAD_REQUEST', 'A path segment may not be "." or ".." (raw or percent-encoded)');
  const caller = typeof request.headers.authorization === 'string' ? request.headers.authorization : undefined;
  bindRequestLog(request, undefined, { catalog: prefix, upstream: true });
  if (route.way === 'load-table') {
    const headers: Record<string, string> = { 'x-request-id': request.id };
    for (const name of FORWARDED_TO_LOAD) {
      const v = request.headers[name];
      if (typeof v === 'string') headers[name] = name === 'if-none-match' ? strongTags(v) : v;
    }
    const answer = await service.federation.loadTable(prefix, rawRest(url), caller, headers, ctx.origin.publicBaseUrl(request.raw));
    return sendRelayedNegotiated(request, reply, answer);
  }
  const keep = ctx.access?.keep;
  if (route.way === 'listing' && route.lists !== undefined && keep !== undefined) {
    // a namespace is an array of levels; a table or view is kept by its identifier's namespace
    const levels = (value: unknown): value is string[] => Array.isArray(value) && value.every((l) => typeof l === 'string');
    const keepEntry =
      route.lists === 'namespaces'
        ? (entry: unknown) => levels(entry) && keep(entry)
        : (entry: unknown) => {
            const ns = entry !== null && typeof entry === 'object' ? (entry as { namespace?: unknown }).namespace : undefined;
            return levels(ns) && keep(ns);
          };
    const answer = await service.federation.listing(prefix, rawRest(url), caller, route.lists, keepEntry, { 'x-request-id': request.id });
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  }
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  // A multi-table commit is checked before it leaves: every change names its table (transaction-tables.ts).
  let body = rawBodyOf(request.raw);
  if (route.way === 'commit') {
    if (body === undefined) {
      body = await readBody(request.raw, request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT);
      rememberRawBody(request.raw, body); // its audit line names the tables (audit-line.ts)
    }
    transactionTables(parsedJson(body));
  }
  const endpoint = route.endpoint;
  const found = await service.federation.target(prefix, endpoint, rawRest(url), caller);
  // The span covers the whole streamed exchange; its context is what the upstream gets as traceparent.
  await tracing.span(`upstream ${endpoint}`, { 'icefront.catalog': prefix, 'http.request.method': method }, async () => {
    // the upstream's logs name the request as Icefront's do (a caller's own sane X-Request-Id, or Icefront's)
    const setHeaders: Record<string, string> = { ...found.setHeaders, 'x-request-id': request.id };
    tracing.inject(setHeaders);
    const upstreamTarget = { ...found, setHeaders };
    // X-Forwarded-* reach the upstream only from a configured proxy; for anyone else the proxy sets them afresh
    const target = ctx.origin.trusted(request.raw) ? upstreamTarget : { ...upstreamTarget, dropHeaders: [...upstreamTarget.dropHeaders, ...FORWARDED_HEADERS] };
    // The turn is held until the client's response closes, so a streamed exchange counts as long as it lasts.
    await target.admit(() => passThrough.forward(request, reply, body === undefined ? target : { ...target, body }));
  });
  return reply;
}

/** A body read as text, as JSON (only to check it; what is forwarded is the text): not JSON → 400. */
function parsedJson(text: string): unknown {
  try {
    assertJsonDepth(text);
    return JSON.parse(text) as unknown;
  } catch {
    throw fail('BAD_REQUEST', 'The request body is not JSON');
  }
}
