import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Dispatcher } from 'undici';
import { singleFlight, type ByteBudget, type SingleFlight } from '../../cache/index.js';
import type { RestCatalogConfig } from '../../config/index.js';
import { fail, isIcefrontError } from '../../errors/index.js';
import type { Logger, Tracing, UpstreamObserver } from '../../observability/index.js';
import { buildClientConfig, rewriteProperties, type ClientConfigResponse, type RewriteContext } from './client-config.js';
import { UpstreamHttp, type SendOptions, type StreamedExchange, type StreamRequest, type Target } from './http-client.js';
import { encodeNamespace, encodeSegment, toUpstreamPath } from './paths.js';
import { parseLoadTableResult, type UpstreamTable } from './load-table-result.js';
import { UpstreamAuthenticator } from './upstream-auth.js';
import { Sigv4Signer } from './sigv4-signer.js';
import { DEFAULT_GATE_LIMITS, UpstreamGate } from './upstream-gate.js';
import { parseUpstreamConfig, type UpstreamConfig } from './upstream-config.js';
import { UpstreamResponseError, type UpstreamResponse } from './upstream-error.js';

/** How long a fetched /v1/config is reused. */
const CONFIG_TTL_MS = 30_000;
/** Bound on cached configs (one per forwarded caller identity, one otherwise). */
const MAX_CONFIGS = 256;
/**
 * How long a table load's body is kept to revalidate with the upstream's ETag (`If-None-Match`)
 * instead of loading it again. Bounded because the body may carry vended credentials, which
 * expire whatever the ETag says (lakekeeper #1862): after this, the table is loaded in full.
 */
const REVALIDATE_WITHIN_MS = 5 * 60_000;
/**
 * How long a table the upstream gave a caller serves that caller's plan-task redemptions without
 * asking again (`pinned` loads): a scan's redemptions come in a burst, and an upstream without
 * ETags (the REST fixture) would otherwise be read in full once per page. A caller the upstream
 * stops allowing is refused within this long (issue #31 item 4: "a short per-caller cache").
 */
export const PINNED_REUSE_MS = 5_000;
/** Table bodies kept for revalidation, per upstream (an estimate: the raw bytes, and the parsed metadata at 3× them). */
const TABLE_BODY_BYTES = 64 * 1024 * 1024;

export interface RestUpstreamOptions {
  readonly logger?: Logger;
  /** Bytes all upstreams' answers being read may hold at once (shared by every upstream). */
  readonly bufferBudget?: ByteBudget;
  /** Clock for cache lifetimes (config TTL, OAuth2 token expiry); `Date.now` by default. */
  readonly now?: () => number;
  /** Told of every request Icefront makes to the upstream itself: status and latency, or the fault (`/metrics`, the status page). */
  readonly observer?: UpstreamObserver;
  /** A span per call to the upstream, and `traceparent` on it. */
  readonly tracing?: Tracing;
}

export interface UpstreamRequestOptions extends SendOptions {
  readonly headers: Readonly<Record<string, string>>;
}

/** One upstream Iceberg REST catalog, as Icefront talks to it. Errors are IcefrontErrors. */
export interface RestUpstream {
  readonly name: string;
  /** `scheme://host:port` and the base path (no trailing `/`) of the configured uri. */
  readonly origin: string;
  readonly basePath: string;
  /** Admission to this upstream: every request Icefront sends it, streamed or read, takes a turn. */
  readonly gate: UpstreamGate;
  /**
   * GET {uri}/v1/config (+ `?warehouse=`), cached 30 s, one request for concurrent callers,
   * failures not cached. forward mode sends `callerAuthorization` (none when absent) and caches
   * per caller; bearer/oauth2 send Icefront's own identity and ignore it.
   */
  fetchConfig(callerAuthorization?: string): Promise<UpstreamConfig>;
  /** The /v1/config fetched last (for anyone), without fetching; undefined before the first. */
  latestConfig(): UpstreamConfig | undefined;
  /**
   * Icefront's /v1/config answer for this catalog, from `from` (what `fetchConfig` returned for
   * this caller) or else the last fetched config. Secret-looking keys are dropped unless `from`
   * was fetched with the caller's own forwarded identity: a config fetched as Icefront, or for
   * another caller, never hands its secrets out.
   */
  clientConfig(name: string, publicBaseUrl: string, extraEndpoints: readonly string[], from?: UpstreamConfig): ClientConfigResponse;
  /** A LoadTableResult `config` (or a storage credential's) with upstream references rewritten to Icefront. */
  rewriteTableConfig(properties: Readonly<Record<string, string>>, name: string, publicBaseUrl: string): Record<string, string>;
  /** The upstream's namespace separator (from the last fetched config). */
  namespaceSeparator(): string;
  /** Icefront's raw path after `/v1/{name}` → the upstream's path (`/v1/{upstream prefix}…`), relative to the uri. */
  upstreamPath(restPath: string): string;
  authHeaders(callerAuthorization: string | undefined): Promise<Record<string, string>>;
  /**
   * One exchange with `{uri}{path}` whose answer is streamed back as it comes (pass-through),
   * through the same pool, deadline and failure mapping as Icefront's own calls; `what` names it
   * in failures and observations. Admission is the caller's (`gate`), held while it streams.
   */
  stream(path: string, what: string, request: StreamRequest): StreamedExchange;
  /**
   * GET {uri}/v1/config (+ `?warehouse=`) as Icefront, for a readiness probe: through the transport
   * (its deadline and failure mapping), outside the gate, the config cache and the observer. Any
   * status is returned; transport faults are UPSTREAM_* errors whose cause is the fault met.
   */
  probeConfig(headers: Readonly<Record<string, string>>): Promise<UpstreamResponse>;
  /** One request to `{uri}{path}`; 4xx/5xx throw UpstreamResponseError, transport faults UPSTREAM_*. */
  request(method: Dispatcher.HttpMethod, path: string, options: UpstreamRequestOptions): Promise<UpstreamResponse>;
  /**
   * GET the table through the upstream, authorized as the caller (forward) or as Icefront.
   * `pinned`: the caller redeems a snapshot it pinned, so a load the upstream answered for this
   * caller, table and delegation within PINNED_REUSE_MS serves without asking.
   */
  loadTable(namespace: readonly string[], table: string, callerAuthorization?: string, accessDelegation?: string, options?: { readonly pinned?: boolean }): Promise<UpstreamTable>;
  close(): Promise<void>;
}

/** What Icefront buffers of one upstream answer: its /v1/config, and a table load (metadata runs to many MiB). */
export const DEFAULT_LIMITS = { configBytes: 4 * 1024 * 1024, loadTableBytes: 64 * 1024 * 1024 } as const;

export function createRestUpstream(config: RestCatalogConfig, options: RestUpstreamOptions = {}): RestUpstream {
  return new RestUpstreamClient(config, options);
}

/** A digest of a caller's Authorization header ('' for none): what is cached per caller is keyed by it, never by the credential. */
export function callerKeyOf(authorization: string | undefined): string {
  return authorization === undefined ? '' : createHash('sha256').update(authorization).digest('base64url');
}

class RestUpstreamClient implements RestUpstream {
  readonly name: string;
  readonly origin: string;
  readonly basePath: string;
  readonly #config: RestCatalogConfig;
  readonly gate: UpstreamGate;
  readonly #limits: typeof DEFAULT_LIMITS;
  readonly #http: UpstreamHttp;
  readonly #auth: UpstreamAuthenticator;
  readonly #now: () => number;
  readonly #log: Logger | undefined;
  readonly #configs = new Map<string, { readonly value: UpstreamConfig; readonly expiresAt: number }>();
  readonly #configFlight: SingleFlight<UpstreamConfig>;
  /** Pinned loads under way, by caller, table and delegation: a burst of redemptions asks the upstream once. */
  readonly #pinnedFlight: SingleFlight<UpstreamTable>;
  /**
   * The last table load per caller, table and access delegation: when its body was read
   * (`fetchedAt`), when the upstream last answered it for the caller (`answeredAt`: a 200 or 304),
   * and its ETag, if it came with one.
   */
  readonly #tables = new LRUCache<string, { readonly table: UpstreamTable; readonly etag?: string; readonly fetchedAt: number; answeredAt: number }>({
    maxSize: TABLE_BODY_BYTES,
    sizeCalculation: (e) => e.table.raw.length * 4 + 1,
  });
  #latest: UpstreamConfig | undefined;

  constructor(config: RestCatalogConfig, options: RestUpstreamOptions) {
    const base = new URL(config.uri);
    this.name = config.name;
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.#config = config;
    this.#limits = { ...DEFAULT_LIMITS, ...config.limits };
    this.gate = new UpstreamGate(config.name, {
      maxInFlight: config.limits?.maxInFlight ?? DEFAULT_GATE_LIMITS.maxInFlight,
      maxQueued: config.limits?.maxQueued ?? DEFAULT_GATE_LIMITS.maxQueued,
    });
    this.#now = options.now ?? Date.now;
    this.#log = options.logger?.child({ catalog: config.name });
    this.#http = new UpstreamHttp(config.name, config.connectTimeoutMs, config.requestTimeoutMs, {
      ...(options.bufferBudget && { budget: options.bufferBudget }),
      ...(options.observer && { observer: options.observer }),
      ...(options.tracing && { tracing: options.tracing }),
      ...(config.tls && { tls: config.tls }),
      ...(config.auth.mode === 'sigv4' && { signer: new Sigv4Signer(config.name, config.auth) }),
    });
    this.#auth = new UpstreamAuthenticator(config.auth, this.#http, config.name, this.#now);
    this.#configFlight = singleFlight({ name: `upstream-config:${config.name}` });
    this.#pinnedFlight = singleFlight({ name: `upstream-pinned-load:${config.name}` });
  }

  async fetchConfig(callerAuthorization?: string): Promise<UpstreamConfig> {
    const caller = this.#config.auth.mode === 'forward' ? callerAuthorization : undefined;
    // keyed by a digest: the caller's credential is never kept as a map key
    const key = callerKeyOf(caller);
    const hit = this.#configs.get(key);
    if (hit && this.#now() < hit.expiresAt) return hit.value;
    return this.#configFlight.run(key, async () => {
      const path = this.#configPath();
      const value = await this.#logged(async () => {
        const res = await this.#call('GET', path, caller, {}, this.#limits.configBytes);
        if (res.status !== 200) throw this.#unexpected('GET /v1/config', res.status);
        return parseUpstreamConfig(res.body, this.name);
      });
      this.#configs.delete(key);
      this.#configs.set(key, { value, expiresAt: this.#now() + CONFIG_TTL_MS });
      if (this.#configs.size > MAX_CONFIGS) this.#configs.delete(this.#configs.keys().next().value!);
      this.#latest = value;
      return value;
    });
  }

  latestConfig(): UpstreamConfig | undefined {
    return this.#latest;
  }

  clientConfig(name: string, publicBaseUrl: string, extraEndpoints: readonly string[], from?: UpstreamConfig): ClientConfigResponse {
    const upstream = from ?? this.#requireConfig();
    const dropSecrets = from === undefined || this.#config.auth.mode !== 'forward';
    return buildClientConfig(upstream, this.#rewriteContext(upstream, name, publicBaseUrl, dropSecrets), extraEndpoints);
  }

  rewriteTableConfig(properties: Readonly<Record<string, string>>, name: string, publicBaseUrl: string): Record<string, string> {
    // vended credentials are the point of a table's config: they are kept
    return rewriteProperties(properties, this.#rewriteContext(this.#requireConfig(), name, publicBaseUrl, false));
  }

  namespaceSeparator(): string {
    return this.#requireConfig().namespaceSeparator;
  }

  upstreamPath(restPath: string): string {
    const upstream = this.#requireConfig();
    return toUpstreamPath(upstream.prefix, upstream.namespaceSeparator, restPath);
  }

  authHeaders(callerAuthorization: string | undefined): Promise<Record<string, string>> {
    return this.#auth.headers(callerAuthorization);
  }

  async request(method: Dispatcher.HttpMethod, path: string, options: UpstreamRequestOptions): Promise<UpstreamResponse> {
    const what = `${method} ${stripQuery(path)}`;
    // what Icefront reads whole through here: load-table, and listings filtered for a caller's sight
    const res = await this.gate.run(
      () => this.#http.send(method, this.#target(path), what, { maxBytes: this.#limits.loadTableBytes, ...options }),
      this.#config.requestTimeoutMs,
    );
    if (res.status >= 400) throw new UpstreamResponseError(this.name, what, res);
    return res;
  }

  probeConfig(headers: Readonly<Record<string, string>>): Promise<UpstreamResponse> {
    return this.#http.send('GET', this.#target(this.#configPath()), 'GET /v1/config', {
      headers: { accept: 'application/json', ...headers },
      maxBytes: this.#limits.configBytes,
      observed: false,
    });
  }

  stream(path: string, what: string, request: StreamRequest): StreamedExchange {
    return this.#http.stream(this.#target(path), what, request);
  }

  /**
   * Every load asks the upstream, as the caller, so the upstream authorizes each one (a caller it
   * no longer allows is refused). A body loaded before, for the same caller, table and access
   * delegation, within REVALIDATE_WITHIN_MS, is revalidated with its ETag: a 304 reuses it without
   * reading or parsing the table again (issue #31: a plan's every /tasks redemption loads it). A
   * `pinned` load within PINNED_REUSE_MS of the upstream's last answer to the same caller is that answer,
   * and concurrent pinned loads for the same caller share one call (a pinned snapshot does not
   * need the newest metadata; an unpinned load, which must see every commit acknowledged before it
   * began, never joins one already under way).
   */
  async loadTable(namespace: readonly string[], table: string, callerAuthorization?: string, accessDelegation?: string, options?: { readonly pinned?: boolean }): Promise<UpstreamTable> {
    const upstream = await this.fetchConfig(callerAuthorization);
    const rest = `/namespaces/${encodeNamespace(namespace)}/tables/${encodeSegment(table)}`;
    const path = toUpstreamPath(upstream.prefix, upstream.namespaceSeparator, rest);
    const headers: Record<string, string> = accessDelegation === undefined ? {} : { 'x-iceberg-access-delegation': accessDelegation };
    const key = `${callerKeyOf(callerAuthorization)}\0${path}\0${accessDelegation ?? ''}`;
    const held = this.#tables.get(key);
    if (held && options?.pinned && this.#now() - held.answeredAt < PINNED_REUSE_MS) return held.table;
    const known = held?.etag !== undefined && this.#now() - held.fetchedAt < REVALIDATE_WITHIN_MS ? held : undefined;
    if (known) headers['if-none-match'] = known.etag!;
    const load = () => this.#logged(async () => {
      const res = await this.#call('GET', path, callerAuthorization, headers, this.#limits.loadTableBytes);
      if (res.status === 304 && known) {
        known.answeredAt = this.#now();
        return known.table;
      }
      if (res.status !== 200) throw this.#unexpected('the table load', res.status);
      const loaded = parseLoadTableResult(res, this.name);
      const etag = res.headers['etag'];
      const now = this.#now();
      this.#tables.set(key, { table: loaded, ...(typeof etag === 'string' && etag !== '' && { etag }), fetchedAt: now, answeredAt: now });
      return loaded;
    });
    return options?.pinned ? this.#pinnedFlight.run(key, load) : load();
  }

  close(): Promise<void> {
    return this.#http.close();
  }

  /** A JSON call Icefront makes itself; one retry with a fresh token when its OAuth2 token is refused. */
  async #call(method: Dispatcher.HttpMethod, path: string, caller: string | undefined, headers: Record<string, string>, maxBytes: number): Promise<UpstreamResponse> {
    const what = `${method} ${stripQuery(path)}`;
    const send = async () => {
      const auth = await this.#auth.headers(caller);
      // Only the call itself takes a turn: a token fetch before it must never wait behind calls waiting for tokens.
      return this.gate.run(
        () => this.#http.send(method, this.#target(path), what, { headers: { accept: 'application/json', ...headers, ...auth }, maxBytes }),
        this.#config.requestTimeoutMs,
      );
    };
    let res = await send();
    if (res.status === 401 && this.#auth.refreshable) {
      this.#auth.rejected();
      res = await send();
    }
    if (res.status >= 400) throw new UpstreamResponseError(this.name, what, res);
    return res;
  }

  /** Records a failure (code and status only: never headers, bodies or credentials) and rethrows it. */
  async #logged<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      // debug only: the request this call served logs it once, as it is answered (http/error-response.ts)
      if (isIcefrontError(err)) this.#log?.debug({ code: err.code, status: err.status }, err.message);
      throw err;
    }
  }

  /** `/v1/config`, with `?warehouse=` when the catalog names one. */
  #configPath(): string {
    const warehouse = this.#config.warehouse;
    return `/v1/config${warehouse === undefined ? '' : `?warehouse=${encodeSegment(warehouse)}`}`;
  }

  #target(path: string): Target {
    return { origin: this.origin, path: `${this.basePath}${path}` };
  }

  #requireConfig(): UpstreamConfig {
    if (this.#latest === undefined) {
      throw fail('UPSTREAM_UNAVAILABLE', `Catalog '${this.name}': the upstream's configuration has not been loaded yet`);
    }
    return this.#latest;
  }

  #rewriteContext(upstream: UpstreamConfig, name: string, publicBaseUrl: string, dropSecrets: boolean): RewriteContext {
    const advertised = [upstream.overrides['uri'], upstream.defaults['uri']].filter((u): u is string => u !== undefined && u !== '');
    return {
      name,
      publicBaseUrl,
      upstreamBases: [this.#config.uri, ...advertised],
      ...(upstream.prefix === undefined ? {} : { upstreamPrefix: upstream.prefix }),
      dropSecrets,
    };
  }

  #unexpected(what: string, status: number) {
    return fail('UPSTREAM_BAD_GATEWAY', `Catalog '${this.name}': the upstream answered ${what} with an unexpected status ${status}`);
  }
}

function stripQuery(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}
