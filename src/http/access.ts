/**
 * Who may do what, decided once per request before any catalog or upstream is touched: the
 * caller is authenticated (auth/), then the route's requirement — read or write on the namespace
 * in the request path, sight of a catalog, a listing to filter, an operator page — is checked
 * against the allow rules. Routes never check roles themselves. The table in the request path
 * is what counts, for plan ids and plan tasks too (Gravitino design §5.5.4: a plan task grants
 * nothing); targets that only a request body names (create namespace, rename, multi-table
 * commit, an S3 signing request's method) are checked once the body is read.
 */
import type { FastifyRequest } from 'fastify';
import type { AccessPolicy, Authenticator, Levels, Principal, PrincipalLimits } from '../auth/index.js';
import type { Access } from '../config/index.js';
import { fail, type IcefrontError } from '../errors/index.js';
import { parseJson } from '../json/index.js';
import { bindRequestLog } from './access-line.js';
import { assertJsonDepth } from './read-body.js';
import { decodeNamespacePath, decodeSegment, parseParentParam, queryParam, rawPathParams } from './request-params.js';
import { requestSlot } from './request-slot.js';
import type { HttpMethod, SpecPath } from './spec-paths.js';
import { transactionTables } from './transaction-tables.js';

export interface AuthOptions {
  readonly authenticator: Authenticator;
  readonly policy: AccessPolicy;
  /** The identity provider's token endpoint, advertised in `/v1/config` defaults as `oauth2-server-uri`. */
  readonly tokenEndpoint?: string;
  /** auth.limits: per-principal rate and concurrency. */
  readonly limits?: PrincipalLimits;
}

/** What was decided for one request. */
export interface RequestAccess {
  readonly principal: Principal;
  /**
   * For a listing the caller may see only part of: whether to keep an entry, by its namespace (a
   * child namespace, or the namespace of a table or view). Absent: the whole listing is readable.
   */
  readonly keep?: (namespace: Levels) => boolean;
  /** For a route whose targets are in its body: the namespaces it writes to, once the body is read. */
  readonly writesOf?: (body: unknown) => Levels[];
}

type Requirement =
  | { readonly kind: 'admin' }
  /** /v1/config: any rule for the catalog asked about. */
  | { readonly kind: 'catalog' }
  /** listNamespaces: the parent visible; children filtered unless the parent is readable. */
  | { readonly kind: 'children' }
  /** tables / views of the path namespace: visible; entries filtered unless it is readable. */
  | { readonly kind: 'entries' }
  /** namespaceExists: visible (listed) is enough. */
  | { readonly kind: 'visible' }
  | { readonly kind: 'namespace'; readonly access: Access }
  /** write to every namespace the body names; some write rule for the catalog before it is read. */
  | { readonly kind: 'body'; readonly targets: (body: Record<string, unknown>) => unknown[] }
  /** S3 request signing: read for GET/HEAD requests, write for anything else. */
  | { readonly kind: 'sign' };

const NS = '/v1/{prefix}/namespaces/{namespace}';
const TABLE = `${NS}/tables/{table}`;
const VIEW = `${NS}/views/{view}`;
const READ: Requirement = { kind: 'namespace', access: 'read' };
const WRITE: Requirement = { kind: 'namespace', access: 'write' };

/**
 * Routes that need no credential: the probes (liveness, readiness: an orchestrator has no token),
 * and the token route (its callers have no token yet; http/token-route.ts).
 */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/v1/oauth/tokens']);

/** Every spec operation (and /metrics, the status page) and what it needs. An operation missing here is refused. */
export const REQUIREMENTS: ReadonlyMap<string, Requirement> = new Map<string, Requirement>([
  ['GET /metrics', { kind: 'admin' }],
  // the status page lists catalogs, tables and principals: operators only (http/ui/status-page.ts)
  ['GET /', { kind: 'admin' }],
  ['GET /v1/config', { kind: 'catalog' }],
  ['GET /v1/{prefix}/namespaces', { kind: 'children' }],
  // REST spec CreateNamespaceRequest.namespace
  ['POST /v1/{prefix}/namespaces', { kind: 'body', targets: (b) => [b['namespace']] }],
  [`GET ${NS}`, READ],
  [`HEAD ${NS}`, { kind: 'visible' }],
  [`DELETE ${NS}`, WRITE],
  [`POST ${NS}/properties`, WRITE],
  [`GET ${NS}/tables`, { kind: 'entries' }],
  [`POST ${NS}/tables`, WRITE],
  [`POST ${NS}/register`, WRITE],
  [`GET ${NS}/functions`, READ],
  [`GET ${NS}/functions/{function}`, READ],
  [`GET ${TABLE}`, READ],
  [`HEAD ${TABLE}`, READ],
  [`POST ${TABLE}`, WRITE],
  [`DELETE ${TABLE}`, WRITE],
  [`POST ${TABLE}/plan`, READ],
  [`GET ${TABLE}/plan/{plan-id}`, READ],
  [`DELETE ${TABLE}/plan/{plan-id}`, READ],
  [`POST ${TABLE}/tasks`, READ],
  [`POST ${TABLE}/unregister`, WRITE],
  [`GET ${TABLE}/credentials`, READ],
  [`POST ${TABLE}/sign`, { kind: 'sign' }],
  // REST spec reportMetrics: what a reader sends after a scan
  [`POST ${TABLE}/metrics`, READ],
  // REST spec RenameTableRequest: source and destination
  ['POST /v1/{prefix}/tables/rename', { kind: 'body', targets: (b) => [namespaceOf(b['source']), namespaceOf(b['destination'])] }],
  // REST spec CommitTransactionRequest: every table-changes[].identifier (none, or an empty list: 400)
  ['POST /v1/{prefix}/transactions/commit', { kind: 'body', targets: (b) => transactionTables(b).map((table) => table.namespace) }],
  [`GET ${NS}/views`, { kind: 'entries' }],
  [`POST ${NS}/views`, WRITE],
  [`GET ${VIEW}`, READ],
  [`HEAD ${VIEW}`, READ],
  [`POST ${VIEW}`, WRITE],
  [`DELETE ${VIEW}`, WRITE],
  ['POST /v1/{prefix}/views/rename', { kind: 'body', targets: (b) => [namespaceOf(b['source']), namespaceOf(b['destination'])] }],
  [`POST ${NS}/register-view`, WRITE],
]);

/** Whether Icefront must read this route's body to authorize it (then an upstream gets it as received). */
export function authorizesBody(endpoint: string): boolean {
  const kind = REQUIREMENTS.get(endpoint)?.kind;
  return kind === 'body' || kind === 'sign';
}

const decisions = requestSlot<RequestAccess>('icefront.access');

/** The decision made for this request; undefined when authentication is off (or the route is open). */
export function accessOf(request: FastifyRequest): RequestAccess | undefined {
  return decisions.get(request.raw);
}

export interface AccessContext {
  readonly auth: AuthOptions;
  /** The catalog a `/v1/config` without `warehouse` is about, if it can tell. */
  readonly configTarget: (warehouse: string | undefined) => string | undefined;
}

/**
 * Authenticates the caller and checks the route's requirement. `spec` is the spec path the
 * request was routed to and `method` its method as served (HEAD answered as GET); both undefined
 * for a path no route serves (then only authentication applies, and a 404 follows).
 */
export async function authorize(ctx: AccessContext, request: FastifyRequest, spec: SpecPath | undefined, method: string): Promise<void> {
  const header = request.headers.authorization;
  const principal = await ctx.auth.authenticator.authenticate(typeof header === 'string' ? header : undefined);
  bindRequestLog(request, undefined, { principal: principal.name });
  const decided = (extra: Omit<RequestAccess, 'principal'> = {}) => decisions.set(request.raw, { principal, ...extra });
  // a method the spec does not define here is a 405 whoever asks: nothing to authorize
  if (spec === undefined || !spec.methods.includes(method as HttpMethod)) return void decided();
  const requirement = REQUIREMENTS.get(`${method} ${spec.path}`);
  if (requirement === undefined) throw denied(principal, `${method} ${spec.path}`);
  const { policy } = ctx.auth;
  if (requirement.kind === 'admin') {
    if (!policy.isAdmin(principal)) throw denied(principal, `use ${spec.path}`, 'it is for operators only: a role listed in auth.admin-roles');
    return void decided();
  }
  if (requirement.kind === 'catalog') {
    const catalog = ctx.configTarget(queryParam(request.query, 'warehouse'));
    if (catalog !== undefined && !policy.seesCatalog(principal, catalog)) throw denied(principal, `see catalog "${catalog}"`);
    return void decided();
  }
  const raw = rawPathParams(spec.path, request.raw.url ?? '/');
  const catalog = decodeSegment(raw.prefix ?? '', 'BAD_REQUEST', 'prefix');
  const namespace = raw.namespace === undefined ? [] : decodeNamespacePath(raw.namespace);
  const where = (ns: Levels) => `${catalog}${ns.length > 0 ? ` namespace ${ns.join('.')}` : ''}`;
  switch (requirement.kind) {
    case 'children': {
      const parent = parseParentParam(queryParam(request.query, 'parent', 'INVALID_NAMESPACE'));
      if (policy.allows(principal, catalog, parent, 'read')) return void decided();
      if (!policy.sees(principal, catalog, parent)) throw denied(principal, `list ${where(parent)}`);
      return void decided({ keep: (child) => policy.sees(principal, catalog, child) });
    }
    case 'entries':
      if (policy.allows(principal, catalog, namespace, 'read')) return void decided();
      if (!policy.sees(principal, catalog, namespace)) throw denied(principal, `list ${where(namespace)}`);
      return void decided({ keep: (ns) => policy.allows(principal, catalog, ns, 'read') });
    case 'visible':
      if (!policy.sees(principal, catalog, namespace)) throw denied(principal, `see ${where(namespace)}`);
      return void decided();
    case 'namespace': {
      const rule = policy.ruleFor(principal, catalog, namespace, requirement.access);
      if (rule === undefined) throw denied(principal, `${requirement.access} ${where(namespace)}`);
      request.log.debug({ rule }, `allowed by auth.allow.${rule}`);
      return void decided();
    }
    case 'sign':
      if (!policy.allows(principal, catalog, namespace, 'read')) throw denied(principal, `read ${where(namespace)}`);
      return void decided({ writesOf: (body) => (/^(GET|HEAD)$/i.test(String(recordOf(body)['method'] ?? '')) ? [] : [namespace]) });
    case 'body': {
      if (!policy.writesSomewhere(principal, catalog)) throw denied(principal, `write to catalog "${catalog}"`);
      const targets = requirement.targets;
      return void decided({
        writesOf: (body) =>
          targets(recordOf(body)).map((ns) => {
            if (!isLevels(ns)) throw fail('BAD_REQUEST', 'The request body does not name the namespaces it changes');
            return ns;
          }),
      });
    }
  }
}

/** The second half of a body-targeted check: every namespace the body writes to must allow writes. */
export function authorizeBody(ctx: AccessContext, request: FastifyRequest, specPath: string): void {
  const access = accessOf(request);
  if (!access?.writesOf) return;
  const catalog = decodeSegment(rawPathParams(specPath, request.raw.url ?? '/').prefix ?? '', 'BAD_REQUEST', 'prefix');
  for (const namespace of access.writesOf(request.body)) {
    if (!ctx.auth.policy.allows(access.principal, catalog, namespace, 'write'))
      throw denied(access.principal, `write ${catalog}${namespace.length > 0 ? ` namespace ${namespace.join('.')}` : ''}`);
  }
}

/** A 403 that says who may not do what (a verb first), and why. */
function denied(principal: Principal, what: string, why = 'no auth.allow rule allows it'): IcefrontError {
  return fail('ACCESS_DENIED', `Forbidden: ${principal.name} may not ${what} (${why})`);
}

/** A body as an object: parsed JSON as it is, JSON text of another content type parsed here. */
function recordOf(body: unknown): Record<string, unknown> {
  let value = body;
  if (typeof body === 'string') {
    try {
      assertJsonDepth(body);
      value = parseJson(body);
    } catch {
      throw fail('BAD_REQUEST', 'The request body is not JSON, so what it changes cannot be authorized');
    }
  }
  if (!isRecord(value)) throw fail('BAD_REQUEST', 'The request body must be a JSON object');
  return value;
}

function namespaceOf(identifier: unknown): unknown {
  return isRecord(identifier) ? identifier['namespace'] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isLevels(value: unknown): value is Levels {
  return Array.isArray(value) && value.every((level) => typeof level === 'string');
}
