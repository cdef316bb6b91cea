/**
 * Composition root: config → logger → storage → catalogs → service → http.
 * Nothing imports this file; cli.ts and tests call it.
 */
import type { Server as TlsServer } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { AccessPolicy, createAuthenticator, describeAuth, PrincipalLimits } from './auth/index.js';
import { createByteBudget, createComputeCache } from './cache/index.js';
import { buildCatalogSet, type CatalogDeps, type CatalogSet } from './catalog-set.js';
import { probeUpstream } from './catalogs/index.js';
import type { Config } from './config/index.js';
import { fail } from './errors/index.js';
import { Activity, createLogger, createMetrics, createTracing, TRACING_OFF, upstreamObserver, type Logger, type Metrics, type SpanExporter, type Tracing } from './observability/index.js';
import { createReloader, type ReloadOutcome } from './reload.js';
import {
  CACHE_SHARES,
  createLocalPlanEngine,
  createPlanningCaches,
  createReadiness,
  createService,
  createWorkerPlanEngine,
  defaultPlanningWorkers,
  holdService,
  orderedPlanBytes,
  keptAnswerBytes,
  type OrderedPlan,
  type KeptAnswer,
  type Readiness,
  type ReadinessCheck,
  type Service,
  type UpstreamCatalog,
} from './service/index.js';
import { tokenKey } from './tokens/index.js';
import { buildServer, replaceCertificates } from './http/index.js';

export type { ReloadOutcome } from './reload.js';

export interface Icefront {
  readonly app: FastifyInstance;
  readonly logger: Logger;
  /** Settles when planning can start at once (its worker threads loaded). */
  ready(): Promise<void>;
  /** Re-reads the config file (SIGHUP): a valid one replaces the catalogs, anything else is refused and logged. */
  reload(): Promise<ReloadOutcome>;
  /** The configuration being served: the one at start, or the last one a reload applied. */
  config(): Config;
  /** The background upstream checks behind `/readyz` (started by startIcefront). */
  readonly readiness: Readiness;
}

export interface RunningIcefront extends Icefront {
  /** Base URL clients use, e.g. http://127.0.0.1:8181 */
  readonly url: string;
  close(): Promise<void>;
  /**
   * Graceful stop (SIGTERM): no new connections, idle keep-alive connections closed, requests in
   * flight given `graceMs` (default `server.shutdown-grace-ms`) to finish; then the rest are cut.
   * Settles with `drained` (every request finished) or `cut`.
   */
  shutdown(graceMs?: number): Promise<'drained' | 'cut'>;
}

/** What all upstream answers being read may hold in memory at once, by default. */
const DEFAULT_UPSTREAM_BUFFER_BYTES = 256 * 1024 * 1024;
/** `server.shutdown-grace-ms` by default: longer than most plans, shorter than Kubernetes' 30 s before SIGKILL. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** `server.readiness-interval-ms` by default. */
const DEFAULT_READINESS_INTERVAL_MS = 10_000;
/** After the grace period, how long closing the cut connections and the planning threads may take. */
const CUT_CLOSE_MS = 2_000;

/**
 * What every service over every catalog set shares: the planning engine (worker threads) and its
 * caches, plan-task keys, and the cache of upstream plans being paged. Built once per process, so
 * a reload keeps them. The planning caches share one byte budget (`planning.cache-bytes`), split
 * by `CACHE_SHARES` (planning-caches.ts): the workers' caches, upstream plans being paged, /plan
 * and /tasks answers kept whole (scan-planning.ts `KeptAnswer`).
 */
function planningParts(config: Config, metrics: Metrics, logger?: Logger, tracing: Tracing = TRACING_OFF) {
  const budget = config.planning.cacheBytes;
  const idleMs = config.planning.cacheIdleMs ?? 0;
  const upstreamPlanCache = createComputeCache<OrderedPlan>({ name: 'upstream-plans', maxBytes: Math.floor(budget * CACHE_SHARES.upstreamPlans), sizeOf: orderedPlanBytes, metrics: metrics.cache, tracing, idleMs });
  const answerCache = createComputeCache<KeptAnswer>({ name: 'answers', maxBytes: Math.floor(budget * CACHE_SHARES.answers), sizeOf: keptAnswerBytes, metrics: metrics.cache, tracing, idleMs });
  const workers = config.planning.workers ?? defaultPlanningWorkers();
  const engine =
    workers > 0
      ? createWorkerPlanEngine({ workers, cacheBytes: budget, cacheIdleMs: idleMs, metrics, ...(logger && { logger }) })
      : createLocalPlanEngine({ ...createPlanningCaches(budget, metrics, { tracing, idleMs }), metrics });
  const key = tokenKey(config.planning);
  const planning = {
    batchSize: config.planning.batchSize,
    maxResponseBytes: config.planning.maxResponseBytes,
    ...(config.planning.gzipPageBytes !== undefined && { gzipPageBytes: config.planning.gzipPageBytes }),
    engine,
    metrics,
    answerCache,
    ...(logger && { logger }),
    ...(key && { tokenKey: key }),
  };
  return (set: CatalogSet): Service => createService({ catalogs: set.catalogs, upstreams: set.upstreams, upstreamPlanCache, planning, tracing });
}

/** Upstream answers read whole share `server.upstream-buffer-bytes`, across reloads too. */
function catalogDeps(config: Config, metrics: Metrics, logger?: Logger, tracing: Tracing = TRACING_OFF, activity?: Activity, now?: () => number): CatalogDeps {
  const upstreams = upstreamObserver(metrics, activity?.upstream);
  return {
    bufferBudget: createByteBudget(config.server.upstreamBufferBytes ?? DEFAULT_UPSTREAM_BUFFER_BYTES),
    tracing,
    cacheMetrics: metrics.cache,
    ...(config.planning.cacheIdleMs !== undefined && { cacheIdleMs: config.planning.cacheIdleMs }),
    ...(upstreams && { upstreams }),
    ...(logger && { logger }),
    ...(now && { now }),
  };
}

/** The catalogs and the use cases over them, without HTTP (the CLI's `plan` uses this). */
export function buildService(config: Config, metrics: Metrics = createMetrics(), logger?: Logger): Service {
  return planningParts(config, metrics, logger)(buildCatalogSet(config.catalogs, catalogDeps(config, metrics, logger)).next);
}

/** `now`: the clock of upstreams' cache lifetimes (tests hold it still); `Date.now` by default. */
export function buildIcefront(config: Config, options: { logger?: Logger; spanExporter?: SpanExporter; now?: () => number; processMetrics?: boolean } = {}): Icefront {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  // recent work for the status page (GET /): this instance's, counted as it happens
  const activity = new Activity();
  const metrics = activity.observeCaches(createMetrics({ process: options.processMetrics ?? false }));
  // tracing.otlp-endpoint (or a test's exporter) turns spans on; off, callers' trace context still passes
  const tracing =
    config.tracing?.otlpEndpoint || options.spanExporter
      ? createTracing({ ...config.tracing, ...(options.spanExporter && { exporter: options.spanExporter }) })
      : TRACING_OFF;
  const serviceOver = planningParts(config, metrics, logger, tracing);
  const deps = catalogDeps(config, metrics, logger, tracing, activity, options.now);
  const initial = buildCatalogSet(config.catalogs, deps).next;
  const services = holdService(serviceOver(initial));
  // one check function per upstream object: readiness tells a reload's new upstream from the old
  const checks = new WeakMap<UpstreamCatalog, ReadinessCheck>();
  const checksOf = (set: CatalogSet): ReadonlyMap<string, ReadinessCheck> => {
    const out = new Map<string, ReadinessCheck>();
    for (const [name, upstream] of set.upstreams) {
      let check = checks.get(upstream);
      if (!check) checks.set(upstream, (check = () => probeUpstream(upstream.upstream, upstream.config)));
      out.set(name, check);
    }
    return out;
  };
  const intervalMs = config.server.readinessIntervalMs ?? DEFAULT_READINESS_INTERVAL_MS;
  const readiness = createReadiness({ targets: () => checksOf(reloader.set()), intervalMs, logger });
  const reloader = createReloader({
    config,
    set: initial,
    deps,
    services,
    serviceOver,
    readiness,
    checksOf,
    logger,
    replaceCertificates: (tls) => replaceCertificates(app.server as unknown as TlsServer, tls),
  });
  const { publicUrl, trustedProxies } = config.server;
  const auth = config.auth && {
    authenticator: createAuthenticator(config.auth),
    policy: new AccessPolicy(config.auth.allow, config.auth.adminRoles),
    ...(config.auth.limits && { limits: new PrincipalLimits(config.auth.limits) }),
    ...(config.auth.jwt?.tokenEndpoint && { tokenEndpoint: config.auth.jwt.tokenEndpoint }),
  };
  const app = buildServer({
    service: services,
    readiness,
    logger,
    bodyLimit: config.server.bodyLimit,
    metrics,
    tracing,
    origin: { ...(publicUrl && { publicUrl }), ...(trustedProxies && { trustedProxies }) },
    ...(config.server.tls && { tls: config.server.tls }),
    ...(auth && { auth }),
    activity,
  });
  app.addHook('onClose', async () => {
    readiness.close();
    await services.current().close();
    await tracing.shutdown();
  });
  // The planning threads start loading now, so a first plan does not wait for them; a failed
  // start fails that plan (500) and `ready()` (startIcefront) says so.
  const ready = services.current().ready();
  ready.catch(() => undefined);
  return { app, logger, readiness, ready: () => ready, reload: () => reloader.reload(), config: () => reloader.config() };
}

/** Build and listen. `port` 0 picks a free port (tests). The readiness checks start with listening. */
export async function startIcefront(
  config: Config,
  options: { logger?: Logger; port?: number; host?: string; processMetrics?: boolean } = {},
): Promise<RunningIcefront> {
  const icefront = buildIcefront(config, options);
  for (const line of describeAuth(config)) icefront.logger[config.auth ? 'info' : 'warn'](line);
  const host = options.host ?? config.server.host;
  const port = options.port ?? config.server.port;
  // a connection whose request ends while shutting down is closed then, not kept alive
  let stopping = false;
  icefront.app.addHook('onResponse', async () => {
    if (stopping) setImmediate(() => icefront.app.server.closeIdleConnections());
  });
  // listening once planning can start, so the first plan does not wait for threads to load
  await icefront.ready();
  try {
    await icefront.app.listen({ host, port });
  } catch (err) {
    await icefront.app.close().catch(() => undefined);
    throw listenFailure(err, host, port);
  }
  icefront.readiness.start();
  const address = icefront.app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const shutdown = async (graceMs = config.server.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS): Promise<'drained' | 'cut'> => {
    stopping = true;
    // fastify: stops listening, closes idle connections, answers 503 to requests arriving on open ones
    const closing = icefront.app.close();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'cut'>((resolve) => (timer = setTimeout(() => resolve('cut'), graceMs)));
    const outcome = await Promise.race([closing.then(() => 'drained' as const), graceOver]);
    clearTimeout(timer);
    if (outcome === 'cut') {
      icefront.app.server.closeAllConnections();
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CUT_CLOSE_MS).unref())]);
    }
    return outcome;
  };
  return { ...icefront, url: `${config.server.tls ? 'https' : 'http'}://${shownHost}:${bound}`, close: () => icefront.app.close(), shutdown };
}

/** A listen error an operator can act on, said plainly (no stack): which address, and how to choose another. */
function listenFailure(err: unknown, host: string, port: number): Error {
  const code = (err as { code?: unknown } | null)?.code;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE')
    return fail('LISTEN_FAILED', `${address} is already in use by another process: choose another port with --port N (or server.port in the config file), or server.port: 0 for any free port`, err);
  if (code === 'EACCES')
    return fail('LISTEN_FAILED', `not allowed to listen on ${address} (ports below 1024 need privileges): choose another port with --port N (or server.port in the config file)`, err);
  if (code === 'EADDRNOTAVAIL')
    return fail('LISTEN_FAILED', `cannot listen on ${address}: ${host} is not an address of this machine; set server.host (or --host)`, err);
  // the host is a name getaddrinfo could not turn into an address (issue #32: a raw stack before)
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME')
    return fail('LISTEN_FAILED', `cannot listen on ${address}: the host name does not resolve (getaddrinfo ${String(code)}); set server.host (or --host) to an address or name of this machine`, err);
  if (code === 'EAI_AGAIN' || code === 'EAI_FAIL')
    return fail('LISTEN_FAILED', `cannot listen on ${address}: the host name could not be looked up (getaddrinfo ${String(code)}: no answer from DNS); set server.host (or --host) to an address of this machine`, err);
  // anything else listen refuses is still said in one line, never as a stack
  const reason = err instanceof Error ? err.message : String(err);
  return fail('LISTEN_FAILED', `cannot listen on ${address}: ${reason}`, err);
}
