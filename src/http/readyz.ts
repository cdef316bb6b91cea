/**
 * GET /readyz: 200 when every `rest` upstream answered its last background check, else 503;
 * both name each catalog's state, so an operator sees which catalog holds readiness back and
 * why. A probe's state report, not an Iceberg error: the same document either way, with no URL,
 * header or credential in it (service/readiness.ts, catalogs/rest/upstream-probe.ts).
 */
import type { FastifyReply } from 'fastify';
import type { CatalogReadiness, ReadinessReport } from '../service/index.js';
import { sendJson } from './reply.js';

export function sendReadiness(reply: FastifyReply, report: ReadinessReport): FastifyReply {
  const catalogs: Record<string, Record<string, unknown>> = {};
  for (const [name, state] of report.catalogs) catalogs[name] = stateOf(state);
  const notReady = [...report.catalogs].filter(([, state]) => !state.ready).map(([name]) => name);
  // a probe answer is about this moment: never reused by a cache between the prober and Icefront
  reply.header('cache-control', 'no-store');
  return sendJson(reply, report.ready ? 200 : 503, { status: report.ready ? 'ready' : 'not-ready', 'not-ready': notReady, catalogs });
}

function stateOf(state: CatalogReadiness): Record<string, unknown> {
  return {
    ready: state.ready,
    ...(state.reason !== undefined && { reason: state.reason }),
    ...(state.status !== undefined && { status: state.status }),
    ...(state.message !== undefined && { message: state.message }),
    ...(state.latencyMs !== undefined && { 'latency-ms': state.latencyMs }),
    ...(state.checkedAt !== undefined && { 'checked-at': state.checkedAt }),
  };
}
