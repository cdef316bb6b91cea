/**
 * The audit stream (docs/operations.md, "Audit stream"): one line per load-table, plan, plan
 * result, plan-task redemption and commit, written once when its response is sent, through a
 * logger of its own (`name: icefront.audit`) so operators can route it apart from the access
 * lines. Built from known values only (the route's path parameters, the principal's name, what
 * the answer held, status and length), so it goes through a child without redaction, as the
 * access line does: no header, credential, plan id or plan-task string is ever among them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LineFields, writeLine, type Logger } from '../observability/index.js';
import { accessOf } from './access.js';
import { accessLineFields, accessLineMembers } from './access-line.js';
import { decodeCatalogPath, type DecodedPath } from './catalog-path.js';
import type { RequestOutcome } from './request-outcome.js';
import { rawBodyOf } from './read-body.js';
import { transactionTables } from './transaction-tables.js';

const TABLE = '/v1/{prefix}/namespaces/{namespace}/tables/{table}';

/** The audited operations: spec route, method, name. */
const OPERATIONS: readonly (readonly [string, string, string])[] = [
  [TABLE, 'GET', 'load-table'],
  [`${TABLE}/plan`, 'POST', 'plan'],
  [`${TABLE}/plan/{plan-id}`, 'GET', 'plan-result'],
  [`${TABLE}/tasks`, 'POST', 'tasks'],
  [TABLE, 'POST', 'commit'],
  ['/v1/{prefix}/transactions/commit', 'POST', 'commit-transaction'],
];

export const AUDIT_LOGGER_NAME = 'icefront.audit';

/** The audit logger below `root`: its own name, no redaction (see above). */
export function auditLogger(root: Logger): Logger {
  return root.child({ name: AUDIT_LOGGER_NAME }, { redact: [] });
}

/** The audited operations of one spec route, by method (looked up per request without building a key). */
export function auditedOperations(specPath: string): ReadonlyMap<string, string> {
  return new Map(OPERATIONS.filter(([route]) => route === specPath).map(([, method, name]) => [method, name] as const));
}

/**
 * Where the request was, from its path as the route reads it (catalog-path.ts, decoded once per
 * request target); undefined for a path that does not decode.
 */
export function decodedPathOf(specPath: string, url: string): DecodedPath | undefined {
  try {
    return decodeCatalogPath(specPath, url);
  } catch {
    // a path that does not decode was refused (400) before it named anything
    return undefined;
  }
}

/**
 * The line's catalog, namespace and table members: those of the access line for the request's
 * target, formatted once per decoded target (access-line.ts sharedBindings), whatever else the
 * request bound (a principal) or did not (a request passed through to an upstream binds only its
 * catalog). Decoding the path again and formatting it per audited request were a measurable
 * share of a warm load-table (issue #12 profile).
 */
function whereMembers(specPath: string, request: FastifyRequest): string {
  const decoded = decodedPathOf(specPath, request.raw.url ?? '/');
  return decoded === undefined ? '' : accessLineMembers(decoded.bindings);
}

/** The bytes of the answer when its length was declared (a streamed answer of unknown length has none). */
export function responseBytes(reply: FastifyReply): number | undefined {
  const declared = reply.getHeader('content-length') ?? reply.raw.getHeader('content-length');
  const n = Number(declared);
  return declared === undefined || !Number.isFinite(n) ? undefined : n;
}

/** The tables a multi-table commit names, when its body was read (always, before it is forwarded). */
function committedTables(request: FastifyRequest): { namespace: string[]; name: string }[] | undefined {
  const body = rawBodyOf(request.raw);
  if (body === undefined) return undefined;
  try {
    return transactionTables(JSON.parse(body) as unknown);
  } catch {
    return undefined;
  }
}

// The last snapshot id written: a table's warm loads name the same one, line after line.
let lastSnapshot: bigint | undefined;
let lastSnapshotText = '';
function snapshotText(id: bigint): string {
  if (id !== lastSnapshot) {
    lastSnapshot = id;
    lastSnapshotText = String(id);
  }
  return lastSnapshotText;
}

export function writeAuditLine(audit: Logger, operation: string, specPath: string, request: FastifyRequest, reply: FastifyReply, outcome: RequestOutcome | undefined): void {
  if (!audit.isLevelEnabled('info')) return;
  const principal = accessOf(request)?.principal.name;
  const upstream = accessLineFields(request)?.upstream === true;
  const bytes = responseBytes(reply);
  const tables = operation === 'commit-transaction' ? committedTables(request) : undefined;
  // written as text in the line's fixed order (logger.ts writeLine): pino's walk over the line's
  // object was a measurable share of a warm load-table (issue #12 profile)
  const line = new LineFields()
    .str('reqId', request.id)
    .str('operation', operation)
    .str('principal', principal)
    .raw(whereMembers(specPath, request))
    .add('tables', tables)
    .str('snapshot', outcome?.snapshotId === undefined ? undefined : snapshotText(outcome.snapshotId))
    .num('status', reply.statusCode)
    .num('files', outcome?.files)
    .num('planTasks', outcome?.planTasks)
    .num('bytes', bytes)
    .add('upstream', upstream ? true : undefined)
    .num('durationMs', Math.round(reply.elapsedTime * 1000) / 1000);
  writeLine(audit, 'info', line, 'audit');
}
