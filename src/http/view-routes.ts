/**
 * Handlers of the view endpoints (REST spec listViews … registerView) on the catalogs Icefront
 * keeps itself; an upstream's go to the upstream before any handler (request-route.ts). Each
 * answers as the spec says: 200 with its body, or 204 without one.
 */
import { ENDPOINTS, type Service } from '../service/index.js';
import type { TableIdentifier } from '../iceberg/index.js';
import { bindRequestLog } from './access-line.js';
import { readCatalogPath, type RouteContext, type RouteHandler } from './catalog-routes.js';
import { decodeSegment, queryParam, rawPathParams } from './request-params.js';
import { sendJson } from './reply.js';

/** The `{view}` path segment, decoded as a table name is (Java RESTUtil.decodeString), and bound to the request's logs. */
function viewOf(ctx: RouteContext): { prefix: string; identifier: TableIdentifier } {
  const { prefix, namespace } = readCatalogPath(ctx);
  const name = decodeSegment(rawPathParams(ctx.specPath, ctx.request.raw.url ?? '/')['view'] ?? '', 'INVALID_IDENTIFIER', 'view name');
  bindRequestLog(ctx.request, ctx.reply, { view: name });
  return { prefix, identifier: { namespace, name } };
}

function page(ctx: RouteContext) {
  const query = ctx.request.query;
  return { pageToken: queryParam(query, 'pageToken', 'INVALID_PAGE'), pageSize: queryParam(query, 'pageSize', 'INVALID_PAGE') };
}

export function viewRoutes(service: Service): ReadonlyMap<string, RouteHandler> {
  const views = service.views;
  return new Map<string, RouteHandler>([
    [
      ENDPOINTS.listViews,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        const keep = ctx.access?.keep;
        return sendJson(ctx.reply, 200, await views.listViews(prefix, namespace, page(ctx), keep && ((id) => keep(id.namespace))));
      },
    ],
    [
      ENDPOINTS.loadView,
      async (ctx) => {
        const { prefix, identifier } = viewOf(ctx);
        return sendJson(ctx.reply, 200, await views.loadView(prefix, identifier));
      },
    ],
    [
      // REST spec viewExists: 204, no body.
      ENDPOINTS.viewExists,
      async (ctx) => {
        const { prefix, identifier } = viewOf(ctx);
        await views.viewExists(prefix, identifier);
        return ctx.reply.code(204).send();
      },
    ],
    [
      ENDPOINTS.createView,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        return sendJson(ctx.reply, 200, await views.createView(prefix, namespace, ctx.request.body));
      },
    ],
    [
      ENDPOINTS.updateView,
      async (ctx) => {
        const { prefix, identifier } = viewOf(ctx);
        return sendJson(ctx.reply, 200, await views.updateView(prefix, identifier, ctx.request.body));
      },
    ],
    [
      ENDPOINTS.dropView,
      async (ctx) => {
        const { prefix, identifier } = viewOf(ctx);
        await views.dropView(prefix, identifier);
        return ctx.reply.code(204).send();
      },
    ],
    [
      ENDPOINTS.renameView,
      async (ctx) => {
        const { prefix } = readCatalogPath(ctx);
        await views.renameView(prefix, ctx.request.body);
        return ctx.reply.code(204).send();
      },
    ],
    [
      ENDPOINTS.registerView,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        return sendJson(ctx.reply, 200, await views.registerView(prefix, namespace, ctx.request.body));
      },
    ],
  ]);
}
