/**
 * What is recorded when a response is sent, per spec route: its duration in the metrics
 * histogram, its minute on the status page (observability/activity.ts), a plan's row there, and
 * the audit line of an audited operation (audit-line.ts). A route's hook does only what it needs:
 * a request of an unaudited route records two numbers and allocates nothing of its own.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Activity, Logger, Metrics, PlanRecord } from '../observability/index.js';
import { accessOf } from './access.js';
import { accessLineFields } from './access-line.js';
import { auditedOperations, decodedPathOf, responseBytes, writeAuditLine } from './audit-line.js';
import { errorOf } from './request-error.js';
import { outcomeOf, type RequestOutcome } from './request-outcome.js';

export interface RecordOptions {
  readonly metrics?: Metrics;
  readonly activity?: Activity;
  readonly audit?: Logger;
  /** The metrics' catalog label of a request ('' for none). */
  readonly catalogOf?: (request: FastifyRequest) => string;
}

/** Callback style: an async hook costs a promise and a turn per request. */
type OnResponse = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

/** The onResponse hook of the route `specPath`, or undefined when nothing is recorded. */
export function responseRecorder(options: RecordOptions, specPath: string): OnResponse | undefined {
  const { metrics, activity, audit, catalogOf } = options;
  if (!metrics && !activity && !audit) return undefined;
  const operations = auditedOperations(specPath);
  return (request, reply, done) => {
    const method = request.method;
    const status = reply.statusCode;
    // Request durations per spec route template and catalog (never the raw path: unbounded label values).
    metrics?.observeHttpRequest({ catalog: catalogOf?.(request) ?? '', route: specPath, method, status }, reply.elapsedTime / 1000);
    activity?.request(specPath, method, status, reply.elapsedTime);
    const operation = operations.get(method);
    if (operation !== undefined) {
      const outcome = outcomeOf(request.raw);
      if (audit) writeAuditLine(audit, operation, specPath, request, reply, outcome);
      if (activity && operation === 'plan') activity.plan(planRecord(specPath, request, reply, outcome));
    }
    done();
  };
}

function planRecord(specPath: string, request: FastifyRequest, reply: FastifyReply, outcome: RequestOutcome | undefined): Omit<PlanRecord, 'at'> {
  const { prefix: catalog, namespace, table } = decodedPathOf(specPath, request.raw.url ?? '/')?.path ?? { prefix: '', namespace: [], table: '' };
  const principal = accessOf(request)?.principal.name;
  const bytes = responseBytes(reply);
  const pruning = outcome?.pruning;
  const error = reply.statusCode >= 400 ? errorOf(request.raw) : undefined;
  // a plan passed through to an upstream that plans is the upstream's, and tells nothing more
  const plannedBy: PlanRecord['plannedBy'] = outcome?.plannedBy ?? (accessLineFields(request)?.upstream === true ? 'upstream' : undefined);
  return {
    catalog,
    namespace,
    table,
    status: reply.statusCode,
    durationMs: reply.elapsedTime,
    ...(principal !== undefined && { principal }),
    ...(outcome?.snapshotId !== undefined && { snapshotId: String(outcome.snapshotId) }),
    ...(pruning && pruning),
    ...(outcome?.tasks !== undefined && { tasks: outcome.tasks }),
    ...(outcome?.planTasks !== undefined && { planTasks: outcome.planTasks }),
    ...(bytes !== undefined && { responseBytes: bytes }),
    ...(plannedBy && { plannedBy }),
    ...(error && { reason: `${error.type}: ${error.message}` }),
  };
}
