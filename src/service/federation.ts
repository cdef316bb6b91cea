/**
 * Upstream REST catalogs behind Icefront: which requests go to an upstream and how (target URL,
 * auth headers, timeout), Icefront's /v1/config for them, and load-table responses whose config
 * must point back at Icefront. Bytes are passed through; only load-table bodies that carry an
 * upstream URL are rewritten, and then the ETag is Icefront's own.
 */
import { createHash } from 'node:crypto';
import type { PlanningMode, RestCatalogConfig } from '../config/index.js';
import { askUpstreamPlan, callerKeyOf, isUpstreamResponseError, planOnUpstream, upstreamTableCatalog, type Catalog, type RestUpstream, type StreamedExchange, type StreamRequest } from '../catalogs/index.js';
import { fail } from '../errors/index.js';
import { parseJson, stringifyJson } from '../json/index.js';
import type { FileIO } from '../storage/index.js';
import { ENDPOINTS, PLANNING_ENDPOINTS } from './endpoints.js';
import type { UpstreamPlanner } from './planning/paged-planning.js';
import type { CatalogConfigResponse } from './wire-types.js';

/**
 * Who plans a `rest` catalog's scans, `auto` resolved: a configured mode, or `upstream-or-paged`
 * (auto, the upstream advertises /plan and /tasks): the upstream plans and its plan tasks pass
 * through, but an answer it gives inline beyond one of Icefront's pages is paged by Icefront.
 */
export type Planning = PlanningMode | 'upstream-or-paged';

export interface UpstreamCatalog {
  readonly upstream: RestUpstream;
  readonly config: RestCatalogConfig;
  /** Reads tables with local locations when Icefront plans locally (`storage.local`). */
  readonly localIO?: FileIO;
}

/** Where and how to forward one request (the HTTP layer streams it). */
export interface UpstreamTarget {
  /** The catalog, and the exchange as failures name it (`GET /v1/{prefix}/namespaces`). */
  readonly catalog: string;
  readonly what: string;
  readonly url: string;
  readonly setHeaders: Readonly<Record<string, string>>;
  readonly dropHeaders: readonly string[];
  readonly timeoutMs: number;
  /** Runs the exchange once the upstream's gate admits it (limits.max-in-flight, max-queued). */
  admit<T>(exchange: () => Promise<T>): Promise<T>;
  /** Sends the request through the upstream's own transport (its pool, deadline, failure mapping) and streams the answer back. */
  exchange(request: StreamRequest): StreamedExchange;
}

export interface UpstreamReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const PLANNING_ROUTES = new Set<string>([ENDPOINTS.planTableScan, ENDPOINTS.fetchPlanningResult, ENDPOINTS.cancelPlanning, ENDPOINTS.fetchScanTasks]);
/**
 * The key of a LoadTableResult's `config`, searched for in the raw bytes without its opening
 * quote (checked apart): Node's search scans for a needle's first byte, and a `"` is everywhere
 * in JSON (searching `"config"` took 2 µs of a 4 KB body, 4× `config"`; issue #12 profile).
 */
const CONFIG_KEY = Buffer.from('config"');
/** Response headers an upstream sets that are about its connection, not the entity. */
const RESPONSE_HEADERS = ['content-type', 'etag', 'cache-control', 'last-modified', 'vary'];

/** The part of the federation the HTTP layer reaches (Service.federation). */
export type UpstreamAccess = Pick<Federation, 'has' | 'config' | 'loadTable' | 'listing' | 'target' | 'signerTarget'>;

export class Federation {
  private readonly byName: ReadonlyMap<string, UpstreamCatalog>;

  constructor(upstreams: ReadonlyMap<string, UpstreamCatalog>) {
    this.byName = upstreams;
  }

  /** Closes every upstream's connection pool. */
  async close(): Promise<void> {
    await Promise.all([...this.byName.values()].map((c) => c.upstream.close()));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Whether `name`'s requests are signed over their body's hash (auth.mode sigv4): their bodies are read before they leave. */
  hashesBodies(name: string): boolean {
    return this.byName.get(name)?.config.auth.mode === 'sigv4';
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  private get(name: string): UpstreamCatalog {
    const c = this.byName.get(name);
    if (!c) throw fail('NO_SUCH_WAREHOUSE', `Catalog not found for prefix "${name}"`);
    return c;
  }

  /** Icefront's /v1/config for an upstream catalog: the upstream's, rewritten so clients stay on Icefront. */
  async config(name: string, callerAuthorization: string | undefined, publicBaseUrl: string): Promise<CatalogConfigResponse> {
    const { upstream } = this.get(name);
    const from = await upstream.fetchConfig(callerAuthorization);
    // Planning endpoints are the upstream's own when it plans and pages; Icefront adds its own otherwise.
    const extra = (await this.answersAllPlanning(name, callerAuthorization)) ? PLANNING_ENDPOINTS : [];
    return upstream.clientConfig(name, publicBaseUrl, extra, from) as CatalogConfigResponse;
  }

  /**
   * The upstream request for `method endpoint` under `/v1/{name}`: `rawRest` is the client's raw
   * path after the prefix, plus its raw query. Planning routes go to the upstream only when it
   * plans (`upstream`, and in `upstream-or-paged` what the upstream issued itself).
   */
  async target(name: string, endpoint: string, rawRest: string, callerAuthorization: string | undefined): Promise<UpstreamTarget> {
    const { upstream, config } = this.get(name);
    // The upstream's config (prefix, separator) must be known to map the path.
    await upstream.fetchConfig(callerAuthorization);
    if (PLANNING_ROUTES.has(endpoint) && (await this.answersAllPlanning(name, callerAuthorization))) {
      throw fail('UNSUPPORTED_OPERATION', `Catalog "${name}": the upstream does not page scan plans; Icefront does`);
    }
    return targetAt(upstream, config, upstream.upstreamPath(rawRest), endpoint, callerAuthorization);
  }

  /**
   * Where the upstream's unprefixed S3 signer is (Iceberg Java's S3V4RestSignerClient default
   * endpoint `v1/aws/s3/sign` below a signer uri that was the upstream itself): `{uri}/v1/aws/s3/sign`,
   * with this upstream's auth, timeout and admission, as `target` gives for its own routes.
   */
  async signerTarget(name: string, callerAuthorization: string | undefined): Promise<UpstreamTarget> {
    const { upstream, config } = this.get(name);
    return targetAt(upstream, config, '/v1/aws/s3/sign', 'POST /v1/aws/s3/sign', callerAuthorization);
  }

  /**
   * Who plans this catalog's scans. `auto` goes by the upstream's /v1/config (as clients gate,
   * wire-format §1): `/plan` and `/tasks` advertised → `upstream-or-paged` (its plan tasks pass
   * through; an inline answer beyond one of Icefront's pages is paged by Icefront);
   * `/plan` only → `upstream-paged` (its plan, Icefront's pages: a planner may enforce policy,
   * row filters or audit, that planning from the metadata would bypass); neither → `local`.
   */
  async planningMode(name: string, callerAuthorization?: string): Promise<Planning> {
    const { upstream, config } = this.get(name);
    if (config.planning !== 'auto') return config.planning;
    return autoPlanning((await upstream.fetchConfig(callerAuthorization)).endpoints).mode;
  }

  /**
   * How the catalog plans, and why, from its configuration and the upstream's last /v1/config
   * (no upstream call: the status page asks this). `mode` is undefined while `auto` has seen none.
   */
  planningStatus(name: string): { readonly mode?: Planning; readonly reason: string } {
    const { upstream, config } = this.get(name);
    if (config.planning !== 'auto') return { mode: config.planning, reason: `configured: planning: ${config.planning}` };
    const latest = upstream.latestConfig();
    if (!latest) return { reason: "auto: the upstream's /v1/config has not been read yet" };
    const { mode, reason } = autoPlanning(latest.endpoints);
    return { mode, reason: `auto: ${reason}` };
  }

  /** The upstream's configured uri, its requests in flight and waiting (limits.max-in-flight). */
  upstreamOf(name: string): { readonly uri: string; readonly inFlight: number; readonly queued: number } {
    const { upstream, config } = this.get(name);
    return { uri: config.uri, inFlight: upstream.gate.inFlight, queued: upstream.gate.queued };
  }

  /** Whether Icefront answers every planning route of this catalog itself (modes `local` and `upstream-paged`). */
  async answersAllPlanning(name: string, callerAuthorization?: string): Promise<boolean> {
    const mode = await this.planningMode(name, callerAuthorization);
    return mode === 'local' || mode === 'upstream-paged';
  }

  /** The upstream's planner as one caller reaches it (`upstream-paged`): load-table and /plan, both as the caller. */
  upstreamPlanner(name: string, callerAuthorization: string | undefined, accessDelegation?: string): UpstreamPlanner {
    const { upstream, config } = this.get(name);
    return {
      callerKey: callerKeyOf(callerAuthorization),
      loadMetadata: async (id) => (await upstream.loadTable(id.namespace, id.name, callerAuthorization, accessDelegation)).metadata,
      plan: (id, body) => planOnUpstream(upstream, id.namespace, id.name, body, callerAuthorization, { timeoutMs: config.requestTimeoutMs }),
      ask: (id, body) => askUpstreamPlan(upstream, id.namespace, id.name, body, callerAuthorization),
    };
  }

  /** The catalog Icefront plans against for one caller: tables loaded through the upstream as that caller. */
  planningCatalog(name: string, callerAuthorization: string | undefined, accessDelegation?: string): Catalog {
    const { upstream, config, localIO } = this.get(name);
    return upstreamTableCatalog(name, upstream, config, callerAuthorization, accessDelegation, localIO);
  }

  /**
   * GET a listing through the upstream, read whole, with only the entries of `field` that `keep`
   * accepts (ListNamespacesResponse `namespaces`, ListTablesResponse `identifiers`); the rest of
   * the answer, `next-page-token` included, is kept. For callers who may see part of a listing;
   * everyone else's listings stream. Upstream errors pass as in loadTable.
   */
  async listing(
    name: string,
    rawRest: string,
    callerAuthorization: string | undefined,
    field: 'namespaces' | 'identifiers',
    keep: (entry: unknown) => boolean,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<UpstreamReply> {
    const { upstream } = this.get(name);
    await upstream.fetchConfig(callerAuthorization);
    const auth = await upstream.authHeaders(callerAuthorization);
    let response;
    try {
      response = await upstream.request('GET', upstream.upstreamPath(rawRest), { headers: { accept: 'application/json', ...headers, ...auth } });
    } catch (err) {
      if (isUpstreamResponseError(err) && err.errorModel) return { status: err.upstream.status, headers: pick(err.upstream.headers), body: err.upstream.body };
      throw err;
    }
    if (response.status !== 200) return { status: response.status, headers: pick(response.headers), body: response.body };
    let doc: unknown;
    try {
      doc = JSON.parse(response.body.toString('utf8'));
    } catch {
      doc = undefined;
    }
    const entries = doc !== null && typeof doc === 'object' ? (doc as Record<string, unknown>)[field] : undefined;
    if (!Array.isArray(entries)) throw fail('UPSTREAM_BAD_GATEWAY', `Catalog "${name}": the upstream answered a listing without a ${field} array`);
    const body = Buffer.from(JSON.stringify({ ...(doc as object), [field]: entries.filter(keep) }));
    return { status: 200, headers: { 'content-type': 'application/json' }, body };
  }

  /**
   * GET a table through the upstream; when its `config` names an upstream URL (credential refresh,
   * S3 signer), that is rewritten to Icefront and the ETag becomes Icefront's own. Otherwise the
   * bytes and ETag pass unchanged. Upstream errors pass through with their status and body.
   */
  async loadTable(name: string, rawRest: string, callerAuthorization: string | undefined, headers: Record<string, string>, publicBaseUrl: string): Promise<UpstreamReply> {
    const { upstream } = this.get(name);
    await upstream.fetchConfig(callerAuthorization);
    const auth = await upstream.authHeaders(callerAuthorization);
    let response;
    try {
      response = await upstream.request('GET', `${upstream.upstreamPath(rawRest)}`, { headers: { ...headers, ...auth } });
    } catch (err) {
      // an ErrorModel passes byte for byte; anything else (HTML, a stack trace) is wrapped by the HTTP layer
      if (isUpstreamResponseError(err) && err.errorModel) return { status: err.upstream.status, headers: pick(err.upstream.headers), body: err.upstream.body };
      throw err;
    }
    // A redirect would lead the caller (and its credentials) away from Icefront: 502, as the pass-through does.
    if (response.status >= 300 && response.status < 400 && response.status !== 304)
      throw fail('UPSTREAM_BAD_GATEWAY', `Catalog "${name}": the upstream answered load-table with a redirect (${response.status}), which Icefront does not follow`);
    const passed = { status: response.status, headers: pick(response.headers), body: response.body };
    if (response.status !== 200) return passed;
    const notJson = () => fail('UPSTREAM_BAD_GATEWAY', `Catalog "${name}": the upstream answered load-table with a body that is not JSON`);
    // Only a non-empty `config` can hold an upstream URL: otherwise the bytes pass as they are,
    // once they are seen to be a JSON object (not parsed: the client parses them; issue #12).
    if (!hasNonEmptyConfig(response.body)) {
      if (!isJsonObjectShaped(response.body)) throw notJson();
      return passed;
    }
    const text = response.body.toString('utf8');
    let doc: { config?: Record<string, string> };
    try {
      doc = parseJson(text) as typeof doc;
    } catch {
      throw notJson();
    }
    const config = doc.config ?? {};
    const rewritten = upstream.rewriteTableConfig(config, name, publicBaseUrl);
    if (JSON.stringify(rewritten) === JSON.stringify(config)) return passed;
    const body = Buffer.from(stringifyJson({ ...doc, config: rewritten }));
    const etag = `"${createHash('sha256').update(name).update('\0').update(body).digest('base64url')}"`;
    // The client revalidates with Icefront's ETag, which the upstream does not know: answer it here.
    const inm = headers['if-none-match'];
    if (inm !== undefined && (inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)))
      return { status: 304, headers: { etag }, body: Buffer.alloc(0) };
    return { status: 200, headers: { ...passed.headers, etag }, body };
  }
}

/**
 * `auto` planning by the endpoints an upstream advertises (wire-format §1, as clients gate), and
 * why. An upstream that advertises /tasks is still judged by what its /plan answers: an inline
 * answer beyond one of Icefront's pages is paged by Icefront (Rustberg advertises /tasks but
 * never issues a plan task, and answers up to 25,000 tasks inline; issue #29).
 */
function autoPlanning(endpoints: readonly string[]): { readonly mode: Planning; readonly reason: string } {
  if (!endpoints.includes(ENDPOINTS.planTableScan)) return { mode: 'local', reason: 'the upstream advertises no /plan endpoint' };
  return endpoints.includes(ENDPOINTS.fetchScanTasks)
    ? { mode: 'upstream-or-paged', reason: 'the upstream advertises /plan and /tasks; its plan tasks pass through, and Icefront pages an answer it gives inline beyond one page' }
    : { mode: 'upstream-paged', reason: 'the upstream advertises /plan but not /tasks' };
}

/** `path` below the upstream's uri, with its auth, timeout, admission and transport. */
async function targetAt(upstream: RestUpstream, config: RestCatalogConfig, path: string, what: string, callerAuthorization: string | undefined): Promise<UpstreamTarget> {
  return {
    catalog: upstream.name,
    what,
    url: `${upstream.origin}${upstream.basePath}${path}`,
    setHeaders: await upstream.authHeaders(callerAuthorization),
    // The caller's Authorization reaches this upstream only in forward mode (then it is in setHeaders).
    dropHeaders: ['authorization', 'cookie'],
    timeoutMs: config.requestTimeoutMs,
    admit: (exchange) => upstream.gate.run(exchange, config.requestTimeoutMs),
    exchange: (request) => upstream.stream(path, what, request),
  };
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Whether `"config"` is followed by `:`, `{` and a `"` (a key) somewhere in `body`, as bytes. */
function hasNonEmptyConfig(body: Buffer): boolean {
  for (let at = body.indexOf(CONFIG_KEY); at !== -1; at = body.indexOf(CONFIG_KEY, at + 1)) {
    if (body[at - 1] !== 0x22) continue; // '"'
    let i = at + CONFIG_KEY.length;
    while (isSpace(body[i])) i++;
    if (body[i++] !== 0x3a) continue; // ':'
    while (isSpace(body[i])) i++;
    if (body[i++] !== 0x7b) continue; // '{'
    while (isSpace(body[i])) i++;
    if (body[i] === 0x22) return true; // '"'
  }
  return false;
}

/** Whether `body` starts with `{` and ends with `}`, whitespace aside (what a LoadTableResult is). */
function isJsonObjectShaped(body: Buffer): boolean {
  let start = 0;
  let end = body.length - 1;
  while (start <= end && isSpace(body[start])) start++;
  while (end >= start && isSpace(body[end])) end--;
  return end > start && body[start] === 0x7b && body[end] === 0x7d;
}

function pick(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of RESPONSE_HEADERS) {
    const v = headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}
