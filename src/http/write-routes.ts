/**
 * Handlers of the mutations (REST spec createNamespace … commitTransaction) on the catalogs
 * Icefront keeps itself; an upstream's go to the upstream before any handler (request-route.ts).
 * Each answers as the spec says: 200 with its body, or 204 without one.
 */
import { ENDPOINTS, type Service } from '../service/index.js';
import { readCatalogPath, type RouteHandler } from './catalog-routes.js';
import { queryParam } from './request-params.js';
import { sendJson } from './reply.js';

export function writeRoutes(service: Service): ReadonlyMap<string, RouteHandler> {
  const writes = service.writes;
  return new Map<string, RouteHandler>([
    [
      ENDPOINTS.createNamespace,
      async (ctx) => {
        const { prefix } = readCatalogPath(ctx);
        return sendJson(ctx.reply, 200, await writes.createNamespace(prefix, ctx.request.body));
      },
    ],
    [
      ENDPOINTS.dropNamespace,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        await writes.dropNamespace(prefix, namespace);
        return ctx.reply.code(204).send();
      },
    ],
    [
      ENDPOINTS.updateNamespace,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        return sendJson(ctx.reply, 200, await writes.updateNamespace(prefix, namespace, ctx.request.body));
      },
    ],
    [
      ENDPOINTS.createTable,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        return sendJson(ctx.reply, 200, await writes.createTable(prefix, namespace, ctx.request.body));
      },
    ],
    [
      ENDPOINTS.registerTable,
      async (ctx) => {
        const { prefix, namespace } = readCatalogPath(ctx);
        return sendJson(ctx.reply, 200, await writes.registerTable(prefix, namespace, ctx.request.body));
      },
    ],
    [
      ENDPOINTS.updateTable,
      async (ctx) => {
        const { prefix, namespace, table } = readCatalogPath(ctx);
        return sendJson(ctx.reply, 200, await writes.updateTable(prefix, { namespace, name: table }, ctx.request.body));
      },
    ],
    [
      ENDPOINTS.dropTable,
      async (ctx) => {
        const { prefix, namespace, table } = readCatalogPath(ctx);
        await writes.dropTable(prefix, { namespace, name: table }, queryParam(ctx.request.query, 'purgeRequested'));
        return ctx.reply.code(204).send();
      },
    ],
    [
      ENDPOINTS.renameTable,
      async (ctx) => {
        const { prefix } = readCatalogPath(ctx);
        await writes.renameTable(prefix, ctx.request.body);
        return ctx.reply.code(204).send();
      },
    ],
    [
      ENDPOINTS.commitTransaction,
      async (ctx) => {
        const { prefix } = readCatalogPath(ctx);
        await writes.commitTransaction(prefix, ctx.request.body);
        return ctx.reply.code(204).send();
      },
    ],
  ]);
}
