import { bindRequestLog } from './access-line.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS, type CallerContext, type CatalogConfigResponse, type LoadTableResponse, type Service } from '../service/index.js';
import type { RequestAccess } from './access.js';
import { ifNoneMatchHits } from './conditional.js';
import { acceptsGzip, gzipFor, gzippedOnce, negotiatedHeaders, sendJsonNegotiated } from './compression.js';
import { sendJson } from './reply.js';
import type { Origin } from './origin.js';
import { decodeSegment, parseParentParam, queryParam, rawPathParams } from './request-params.js';
import { decodeCatalogPath, type CatalogPath } from './catalog-path.js';
import { noteOutcome } from './request-outcome.js';

/** What a route handler gets: the request, its reply, and the spec template it matched. */
export interface RouteContext {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly specPath: string;
  readonly origin: Origin;
  /** What authorization decided (absent when authentication is off). */
  readonly access?: RequestAccess;
}

/** A route's answer; a handler that answers in the request's own turn returns the reply itself. */
export type RouteHandler = (ctx: RouteContext) => Promise<FastifyReply> | FastifyReply;

/** The route's path parameters (decoded once per target, catalog-path.ts), bound to the request's logger. */
export function readCatalogPath(ctx: RouteContext): CatalogPath {
  const { path, bindings } = decodeCatalogPath(ctx.specPath, ctx.request.raw.url ?? '/');
  bindRequestLog(ctx.request, ctx.reply, bindings);
  return path;
}

/** The caller, for catalogs that authorize through an upstream; what its planning answers held is noted for the audit line. */
export function callerOf(ctx: RouteContext): CallerContext {
  const { authorization } = ctx.request.headers;
  const delegation = ctx.request.headers['x-iceberg-access-delegation'];
  const raw = ctx.request.raw;
  return {
    ...(typeof authorization === 'string' && { authorization }),
    ...(typeof delegation === 'string' && { accessDelegation: delegation }),
    ...(acceptsGzip(ctx.request.headers['accept-encoding']) && { takesGzip: true }),
    onOutcome: (outcome) => noteOutcome(raw, outcome),
  };
}

/**
 * A loaded table's answer: its ETag, then 304 when If-None-Match still matches it, else the body,
 * gzipped (once per loaded table) when the client accepts it and it is not tiny (the headers of
 * either form: compression.ts `negotiatedHeaders`).
 */
function answerLoadTable(ctx: RouteContext, loaded: LoadTableResponse): FastifyReply | Promise<FastifyReply> {
  if (loaded.currentSnapshotId !== undefined) noteOutcome(ctx.request.raw, { snapshotId: loaded.currentSnapshotId });
  const zip = gzipFor(ctx.request.headers['accept-encoding'], loaded.body.length);
  ctx.reply.headers(negotiatedHeaders({ etag: loaded.etag }, zip));
  if (ifNoneMatchHits(ctx.request.headers['if-none-match'], loaded.etag)) return ctx.reply.code(304).send();
  if (!zip) return ctx.reply.code(200).type('application/json').send(loaded.body);
  return gzippedOnce(loaded, loaded.body).then((bytes) => ctx.reply.code(200).type('application/json').header('content-encoding', 'gzip').send(bytes));
}

/** The `{plan-id}` path segment, decoded as Java's RESTUtil.decodeString does (wire-format §3). */
function planIdOf(ctx: RouteContext): string {
  const raw = rawPathParams(ctx.specPath, ctx.request.raw.url ?? '/')['plan-id'] ?? '';
  return decodeSegment(raw, 'BAD_REQUEST', 'plan id');
}

function page(ctx: RouteContext) {
  const query = ctx.request.query;
  return { pageToken: queryParam(query, 'pageToken', 'INVALID_PAGE'), pageSize: queryParam(query, 'pageSize', 'INVALID_PAGE') };
}

/**
 * Where clients configured with a `credential` get tokens (Java's and pyiceberg's
 * `oauth2-server-uri`, iceberg#10537): the identity provider's endpoint, as a default, in place of
 * any an upstream advertised.
 */
function withTokenEndpoint(config: CatalogConfigResponse, tokenEndpoint: string | undefined): CatalogConfigResponse {
  if (tokenEndpoint === undefined) return config;
  const { 'oauth2-server-uri': _upstreams, ...overrides } = config.overrides;
  return { ...config, defaults: { ...config.defaults, 'oauth2-server-uri': tokenEndpoint }, overrides };
}

/** Handlers of the endpoints Icefront serves, keyed by their advertised endpoint string. */
export function catalogRoutes(service: Service, tokenEndpoint?: string): ReadonlyMap<string, RouteHandler> {
  return new Map<string, RouteHandler>([
    [
      'GET /v1/config',
      async (ctx) => {
        const warehouse = queryParam(ctx.request.query, 'warehouse');
        if (warehouse !== undefined && service.federation.has(warehouse)) {
          const caller = typeof ctx.request.headers.authorization === 'string' ? ctx.request.headers.authorization : undefined;
          const config = await service.federation.config(warehouse, caller, ctx.origin.publicBaseUrl(ctx.request.raw));
          return sendJson(ctx.reply, 200, withTokenEndpoint(config, tokenEndpoint));
        }
        return sendJson(ctx.reply, 200, withTokenEndpoint(service.getConfig(warehouse), tokenEndpoint));
      },
    ],
    [
      ENDPOINTS.listNamespaces,
      async (ctx) => {
        const { prefix } = readCatalogPath(ctx);
        const parent = parseParentParam(queryParam(ctx.request.query, 'parent', 'INVALID_NAMESPACE'));
        return sendJson(ctx.reply, 200, await service.listNamespaces(prefix, parent, page(ctx), ctx.access?.keep));
      },
    ],
    [
      ENDPOINTS.loadNamespace,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        return sendJson(ctx.reply, 200, await service.loadNamespace(prefix, namespace));
      },
    ],
    [
      // REST spec namespaceExists: 204, no body.
      ENDPOINTS.namespaceExists,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        await service.loadNamespace(prefix, namespace);
        return ctx.reply.code(204).send();
      },
    ],
    [
      ENDPOINTS.listTables,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        const keep = ctx.access?.keep;
        return sendJson(ctx.reply, 200, await service.listTables(prefix, namespace, page(ctx), keep && ((id) => keep(id.namespace))));
      },
    ],
    [
      // REST spec loadTable: ETag on 200; If-None-Match that still matches → 304 without a body.
      ENDPOINTS.loadTable,
      (ctx) => {
        const { prefix, namespace, table } = readCatalogPath(ctx);
        const snapshots = queryParam(ctx.request.query, 'snapshots');
        const id = { namespace, name: table };
        // warm: answered from memory in the request's own turn (issue #12 part 2), else loaded
        const warm = service.loadedTable?.(prefix, id, snapshots);
        return warm ? answerLoadTable(ctx, warm) : service.loadTable(prefix, id, snapshots).then((loaded) => answerLoadTable(ctx, loaded));
      },
    ],
    [
      // REST spec tableExists: 204, no body.
      ENDPOINTS.tableExists,
      async (ctx) => {
        const { prefix, namespace, table } = readCatalogPath(ctx);
        const loaded = await service.loadTable(prefix, { namespace, name: table }, undefined);
        return ctx.reply.code(204).header('etag', loaded.etag).send();
      },
    ],
    [
      // REST spec planTableScan: 200 PlanTableScanResult.
      ENDPOINTS.planTableScan,
      async (ctx) => {
        const { prefix, namespace, table } = readCatalogPath(ctx);
        return sendJsonNegotiated(ctx.request, ctx.reply, 200, await service.planTableScan(prefix, { namespace, name: table }, ctx.request.body, callerOf(ctx)));
      },
    ],
    [
      ENDPOINTS.fetchPlanningResult,
      async (ctx) => {
        const { prefix, namespace, table } = readCatalogPath(ctx);
        const planId = planIdOf(ctx);
        return sendJsonNegotiated(ctx.request, ctx.reply, 200, await service.fetchPlanningResult(prefix, { namespace, name: table }, planId, callerOf(ctx)));
      },
    ],
    [
      // REST spec cancelPlanning: 204, no body.
      ENDPOINTS.cancelPlanning,
      async (ctx) => {
        const { prefix, namespace, table } = readCatalogPath(ctx);
        await service.cancelPlanning(prefix, { namespace, name: table }, planIdOf(ctx), callerOf(ctx));
        return ctx.reply.code(204).send();
      },
    ],
    [
      ENDPOINTS.fetchScanTasks,
      async (ctx) => {
        const { prefix, namespace, table } = readCatalogPath(ctx);
        return sendJsonNegotiated(ctx.request, ctx.reply, 200, await service.fetchScanTasks(prefix, { namespace, name: table }, ctx.request.body, callerOf(ctx)));
      },
    ],
  ]);
}
