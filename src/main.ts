/**
 * Composition root: config → logger → storage → catalogs → service → http.
 * Nothing imports this file; cli.ts and tests call it.
 */
import type { FastifyInstance } from 'fastify';
import { AccessPolicy, createAuthenticator, describeAuth, PrincipalLimits } from './auth/index.js';
import { createByteBudget, createComputeCache } from './cache/index.js';
import { createFilesystemCatalog, createRestUpstream, type Catalog } from './catalogs/index.js';
import type { Config } from './config/index.js';
import { Activity, createLogger, createMetrics, type Logger, type Metrics } from './observability/index.js';
import { createLocalFileIO } from './storage/index.js';
import {
  createLocalPlanEngine,
  createPlanningCaches,
  createService,
  createWorkerPlanEngine,
  defaultPlanningWorkers,
  orderedPlanBytes,
  type OrderedPlan,
  type Service,
  type UpstreamCatalog,
} from './service/index.js';
import { tokenKey } from './tokens/index.js';
import { buildServer } from './http/index.js';

export interface Icefront {
  readonly app: FastifyInstance;
  readonly logger: Logger;
  /** Settles when planning can start at once (its worker threads loaded). */
  ready(): Promise<void>;
}

export interface RunningIcefront extends Icefront {
  /** Base URL clients use, e.g. http://127.0.0.1:8181 */
  readonly url: string;
  close(): Promise<void>;
}

/** What all upstream answers being read may hold in memory at once, by default. */
const DEFAULT_UPSTREAM_BUFFER_BYTES = 256 * 1024 * 1024;

/**
 * The catalogs and the use cases over them, without HTTP (the CLI's `plan` uses this). The
 * planning caches share one byte budget (`planning.cache-bytes`): 60% for decoded manifest
 * slices, 5% for manifest lists, 25% for delete indexes (planning-caches.ts; split between the
 * planning workers when there are any), 10% for upstream plans being paged. Upstream answers
 * read whole share `server.upstream-buffer-bytes`.
 */
export function buildService(config: Config, metrics: Metrics = createMetrics(), logger?: Logger, activity?: Activity): Service {
  const catalogs = new Map<string, Catalog>();
  const upstreams = new Map<string, UpstreamCatalog>();
  const bufferBudget = createByteBudget(config.server.upstreamBufferBytes ?? DEFAULT_UPSTREAM_BUFFER_BYTES);
  for (const [name, catalogConfig] of config.catalogs) {
    if (catalogConfig.type === 'rest') {
      const local = catalogConfig.storage?.local;
      upstreams.set(name, {
        upstream: createRestUpstream(catalogConfig, { bufferBudget, ...(logger && { logger }), ...(activity && { observer: activity.upstream }) }),
        config: catalogConfig,
        ...(local && { localIO: createLocalFileIO({ roots: local.roots, remaps: local.locations }) }),
      });
    } else catalogs.set(name, createFilesystemCatalog(catalogConfig));
  }
  const budget = config.planning.cacheBytes;
  const upstreamPlanCache = createComputeCache<OrderedPlan>({ name: 'upstream-plans', maxBytes: Math.floor(budget * 0.1), sizeOf: orderedPlanBytes, metrics: metrics.cache });
  const workers = config.planning.workers ?? defaultPlanningWorkers();
  const engine =
    workers > 0
      ? createWorkerPlanEngine({ workers, cacheBytes: budget, metrics, ...(logger && { logger }) })
      : createLocalPlanEngine({ ...createPlanningCaches(budget, metrics), metrics });
  const key = tokenKey(config.planning);
  return createService({
    catalogs,
    upstreams,
    upstreamPlanCache,
    planning: {
      batchSize: config.planning.batchSize,
      maxResponseBytes: config.planning.maxResponseBytes,
      engine,
      metrics,
      ...(logger && { logger }),
      ...(key && { tokenKey: key }),
    },
  });
}

export function buildIcefront(config: Config, options: { logger?: Logger } = {}): Icefront {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  // recent work for the status page (GET /): this instance's, counted as it happens
  const activity = new Activity();
  const metrics = activity.observeCaches(createMetrics());
  const service = buildService(config, metrics, logger, activity);
  const { publicUrl, trustedProxies } = config.server;
  const auth = config.auth && {
    authenticator: createAuthenticator(config.auth),
    policy: new AccessPolicy(config.auth.allow, config.auth.adminRoles),
    ...(config.auth.limits && { limits: new PrincipalLimits(config.auth.limits) }),
    ...(config.auth.jwt?.tokenEndpoint && { tokenEndpoint: config.auth.jwt.tokenEndpoint }),
  };
  const app = buildServer({
    service,
    logger,
    bodyLimit: config.server.bodyLimit,
    metrics,
    origin: { ...(publicUrl && { publicUrl }), ...(trustedProxies && { trustedProxies }) },
    ...(auth && { auth }),
    activity,
  });
  app.addHook('onClose', () => service.close());
  // The planning threads start loading now, so a first plan does not wait for them; a failed
  // start fails that plan (500) and `ready()` (startIcefront) says so.
  const ready = service.ready();
  ready.catch(() => undefined);
  return { app, logger, ready: () => ready };
}

/** Build and listen. `port` 0 picks a free port (tests). */
export async function startIcefront(
  config: Config,
  options: { logger?: Logger; port?: number; host?: string } = {},
): Promise<RunningIcefront> {
  const icefront = buildIcefront(config, options);
  for (const line of describeAuth(config)) icefront.logger[config.auth ? 'info' : 'warn'](line);
  const host = options.host ?? config.server.host;
  // listening once planning can start, so the first plan does not wait for threads to load
  await icefront.ready();
  await icefront.app.listen({ host, port: options.port ?? config.server.port });
  const address = icefront.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { ...icefront, url: `http://${shownHost}:${port}`, close: () => icefront.app.close() };
}
