import type { Catalog, LoadedTable } from '../catalogs/index.js';
import { fail } from '../errors/index.js';
import { TRACING_OFF, type Tracing } from '../observability/index.js';
import { tableMetadataToJson, type Namespace, type TableIdentifier } from '../iceberg/index.js';
import { RawJson, stringifyJson } from '../json/index.js';
import { catalogConfig, prefixForWarehouse } from './catalog-config.js';
import { loadTableETag } from './etag.js';
import { checkNamespace, checkTableIdentifier, quote } from './identifiers.js';
import { paginate } from './pagination.js';
import { explainTableScan, type PlanExplanation } from './plan-scan.js';
import { createScanPlanning, type ScanPlanningOptions } from './planning/scan-planning.js';
import { createLocalPlanEngine } from './engine/plan-engine.js';
import { createPagedPlanning } from './planning/paged-planning.js';
import type { OrderedPlan } from './planning/upstream-pages.js';
import type { ComputeCache } from '../cache/index.js';
import { Federation, type UpstreamAccess, type UpstreamCatalog } from './federation.js';
import { ENDPOINTS } from './endpoints.js';
import { routeRequest, type RequestRoute } from './request-route.js';
import { tracedCatalog } from './traced-catalog.js';
import { describeCatalogs, type CatalogStatus } from './catalog-status.js';
import { createCatalogWrites, type CatalogWriteUseCases } from './catalog-writes.js';
import { createViewUseCases, type ViewUseCases } from './view-use-cases.js';
import type { OutcomeSink } from './scan-outcome.js';
import type {
  CatalogConfigResponse,
  GetNamespaceResponse,
  ListNamespacesResponse,
  ListTablesResponse,
  LoadTableResponse,
  PageRequest,
  PlanTableScanResult,
  FetchPlanningResult,
  FetchScanTasksResult,
  SnapshotsMode,
} from './wire-types.js';

export interface ServiceOptions {
  /** Catalogs by prefix (the catalog name clients put in `/v1/{prefix}/…`). */
  readonly catalogs: ReadonlyMap<string, Catalog>;
  /** Batching, plan-task keys and caches of the scan-planning protocol (default: batches of 100, no caches). */
  readonly planning?: ScanPlanningOptions;
  /** Upstream REST catalogs by prefix. */
  readonly upstreams?: ReadonlyMap<string, UpstreamCatalog>;
  /** Upstream plans of `upstream-paged` catalogs, ordered, per (pinned scan, caller). */
  readonly upstreamPlanCache?: ComputeCache<OrderedPlan>;
  /** Spans for plans, task redemptions and their file reads. */
  readonly tracing?: Tracing;
}

/** Who is asking, for catalogs that authorize through an upstream. */
export interface CallerContext {
  /** The caller's Authorization header (forwarded only to the addressed upstream). */
  readonly authorization?: string;
  /** X-Iceberg-Access-Delegation, passed to the upstream's loadTable. */
  readonly accessDelegation?: string;
  /** Told what a planning answer held, once it is known (the status page, the audit stream). */
  readonly onOutcome?: OutcomeSink;
  /** The caller takes gzip (Accept-Encoding): Icefront's planning pages may then be larger (`planning.gzip-page-bytes`). */
  readonly takesGzip?: boolean;
}

/** The read use cases of the REST catalog API, free of HTTP. Errors are IcefrontErrors. */
export interface Service {
  /**
   * What the HTTP layer asks of the upstream REST catalogs to carry out a route to one: their
   * names, their /v1/config as Icefront serves it, a load-table or filtered listing read through
   * them, and where a streamed request goes. Who plans, and how, stays inside the service.
   */
  readonly federation: UpstreamAccess;
  /** The mutations on the catalogs Icefront keeps itself (read-only ones answer 406). */
  readonly writes: CatalogWriteUseCases;
  /** The views of the catalogs Icefront keeps itself (catalogs without views answer 406). */
  readonly views: ViewUseCases;
  getConfig(warehouse: string | undefined): CatalogConfigResponse;
  /** The catalog a `/v1/config` request is about: `warehouse`, or the only local catalog; undefined when it cannot tell. */
  configTarget(warehouse: string | undefined): string | undefined;
  /** Whether `name` is a configured catalog (its own or an upstream's prefix). */
  hasCatalog(name: string): boolean;
  /** Children of `parent`; `keep` (the caller's sight) filters them before pagination. */
  listNamespaces(prefix: string, parent: Namespace, page: PageRequest, keep?: (namespace: Namespace) => boolean): Promise<ListNamespacesResponse>;
  loadNamespace(prefix: string, namespace: Namespace): Promise<GetNamespaceResponse>;
  /** Tables of `namespace`; `keep` (what the caller may read) filters them before pagination. */
  listTables(prefix: string, namespace: Namespace, page: PageRequest, keep?: (table: TableIdentifier) => boolean): Promise<ListTablesResponse>;
  /** `snapshots` is the raw query value: absent, `all` or `refs`. */
  loadTable(prefix: string, identifier: TableIdentifier, snapshots: string | undefined): Promise<LoadTableResponse>;
  /**
   * The answer `loadTable` would give, when it is at hand without waiting (the catalog still reuses
   * its resolution and the answer was made from it); undefined otherwise, and for every failure.
   */
  loadedTable?(prefix: string, identifier: TableIdentifier, snapshots: string | undefined): LoadTableResponse | undefined;
  /** Where a request goes (request-route.ts), decided once when it arrives; `endpoint` is `<served method> <spec path>`. */
  route(endpoint: string, rawPath: string, readsBody: (endpoint: string) => boolean): RequestRoute;
  /**
   * Whether Icefront answers this planning request under the upstream catalog `prefix` (otherwise
   * it goes to the upstream as it came). `issued` is the plan-task string of a /tasks body or the
   * plan id of a `…/plan/{plan-id}` path. Modes `local` and `upstream-paged`: every one; `upstream`:
   * none; `upstream-or-paged`: a /plan (relayed or paged), and the plan tasks and plan ids of
   * Icefront's own paging.
   */
  answersPlanning(prefix: string, endpoint: string, issued: string | undefined, authorization: string | undefined): Promise<boolean>;
  /** REST planTableScan: plans synchronously; `completed` with the first batch inline and plan tasks for the rest. */
  planTableScan(prefix: string, identifier: TableIdentifier, body: unknown, caller?: CallerContext): Promise<PlanTableScanResult>;
  /** REST fetchPlanningResult: the plan a plan id pins, planned again (any replica can answer). */
  fetchPlanningResult(prefix: string, identifier: TableIdentifier, planId: string, caller?: CallerContext): Promise<FetchPlanningResult>;
  /** REST cancelPlanning: nothing runs in the background, so there is nothing to cancel. */
  cancelPlanning(prefix: string, identifier: TableIdentifier, planId: string, caller?: CallerContext): Promise<void>;
  /** REST fetchScanTasks: the tasks of one plan task. */
  fetchScanTasks(prefix: string, identifier: TableIdentifier, body: unknown, caller?: CallerContext): Promise<FetchScanTasksResult>;
  /** The same plan with its pruning summary (the `icefront plan` command). */
  explainTableScan(prefix: string, identifier: TableIdentifier, body: unknown): Promise<PlanExplanation>;
  /** Every catalog as the status page shows it (no credentials). */
  describeCatalogs(): CatalogStatus[];
  /** Answers an operation the catalog behind `prefix` does not serve: always throws. */
  rejectUnsupported(prefix: string | undefined, operation: string): never;
  /** Settles when planning can start at once (its worker threads loaded). */
  ready(): Promise<void>;
  /** Stops the upstream clients and the planning workers. */
  close(): Promise<void>;
}

const SEP = '\x1f';

export function createService(options: ServiceOptions): Service {
  const catalogs = new Map(options.catalogs);
  /** LoadTable answers per parsed metadata, living as long as the catalog keeps that metadata. */
  const serialised = new WeakMap<object, Map<string, LoadTableResponse>>();
  /**
   * The same answers by the LoadedTable object a catalog handed out, per prefix and snapshots
   * mode: two lookups by strings the request already holds, rather than a key built per request.
   */
  const byLoaded = new WeakMap<LoadedTable, Map<string, Partial<Record<SnapshotsMode, LoadTableResponse>>>>();
  const remember = (table: LoadedTable, prefix: string, mode: SnapshotsMode, response: LoadTableResponse): LoadTableResponse => {
    let prefixes = byLoaded.get(table);
    if (!prefixes) byLoaded.set(table, (prefixes = new Map()));
    let modes = prefixes.get(prefix);
    if (!modes) prefixes.set(prefix, (modes = {}));
    modes[mode] = response;
    return response;
  };

  function catalogFor(prefix: string): Catalog {
    const catalog = catalogs.get(prefix);
    // An unknown prefix is an unknown warehouse: the prefix is the warehouse name /v1/config hands out.
    if (!catalog) throw fail('NO_SUCH_WAREHOUSE', `Catalog not found for prefix ${quote(prefix)}`);
    return catalog;
  }

  const planningOptions: ScanPlanningOptions = options.planning ?? { batchSize: 0, maxResponseBytes: 1_000_000, engine: createLocalPlanEngine({}) };
  const scanPlanning = createScanPlanning(planningOptions);
  const tracing = options.tracing ?? TRACING_OFF;
  const federation = new Federation(options.upstreams ?? new Map());
  const pagedPlanning = createPagedPlanning({
    batchSize: planningOptions.batchSize,
    maxResponseBytes: planningOptions.maxResponseBytes,
    ...(planningOptions.tokenKey && { tokenKey: planningOptions.tokenKey }),
    ...(planningOptions.metrics && { metrics: planningOptions.metrics }),
    ...(options.upstreamPlanCache && { cache: options.upstreamPlanCache }),
  });

  /**
   * The upstream's planner and the checked table when the catalog behind `prefix` has Icefront page
   * an upstream's plans (`upstream-paged`, `upstream-or-paged`), else undefined.
   */
  async function pagedTarget(prefix: string, identifier: TableIdentifier, caller: CallerContext = {}) {
    if (!federation.has(prefix)) return undefined;
    const mode = await federation.planningMode(prefix, caller.authorization);
    if (mode !== 'upstream-paged' && mode !== 'upstream-or-paged') return undefined;
    const id = checkTableIdentifier(identifier.namespace, identifier.name);
    return { mode, args: [federation.upstreamPlanner(prefix, caller.authorization, caller.accessDelegation), id] as const };
  }

  /**
   * The catalog behind `prefix`, if it plans scans, and the checked table identifier. For an
   * upstream catalog: its tables as the caller loads them through the upstream.
   */
  function planningTarget(prefix: string, identifier: TableIdentifier, caller: CallerContext = {}): [Catalog, TableIdentifier] {
    const id = checkTableIdentifier(identifier.namespace, identifier.name);
    if (federation.has(prefix)) return [tracedCatalog(federation.planningCatalog(prefix, caller.authorization, caller.accessDelegation), tracing), id];
    const catalog = catalogFor(prefix);
    if (!catalog.planning) throw fail('UNSUPPORTED_OPERATION', `Scan planning is off for catalog ${quote(prefix)}`);
    return [tracedCatalog(catalog, tracing), id];
  }

  /** A planning use case in a span naming its catalog and table. */
  const traced = <T>(name: string, prefix: string, identifier: TableIdentifier, work: () => Promise<T>): Promise<T> =>
    tracing.span(name, { 'icefront.catalog': prefix, 'icefront.namespace': [...identifier.namespace], 'icefront.table': identifier.name }, work);

  async function explain(prefix: string, identifier: TableIdentifier, body: unknown): Promise<PlanExplanation> {
    return explainTableScan(...planningTarget(prefix, identifier), body);
  }

  return {
    federation,
    writes: createCatalogWrites(catalogFor),
    views: createViewUseCases(catalogFor),
    ready: () => planningOptions.engine.ready(),
    async close() {
      await Promise.all([federation.close(), planningOptions.engine.close(), ...[...catalogs.values()].map((c) => c.close?.())]);
    },

    getConfig(warehouse) {
      const prefix = prefixForWarehouse(catalogs, warehouse);
      return catalogConfig(prefix, catalogs.get(prefix)!);
    },

    hasCatalog(name) {
      return catalogs.has(name) || federation.has(name);
    },

    configTarget(warehouse) {
      if (warehouse !== undefined && warehouse !== '') return warehouse;
      return catalogs.size === 1 ? [...catalogs.keys()][0] : undefined;
    },

    async listNamespaces(prefix, parent, page, keep) {
      const catalog = catalogFor(prefix);
      checkNamespace(parent, true);
      const listed = await catalog.listNamespaces(parent);
      const children = keep ? listed.filter(keep) : listed;
      const scope = ['namespaces', prefix, ...parent].join(SEP);
      const { items, nextPageToken } = paginate(children, (ns) => ns.join(SEP), scope, page);
      return { namespaces: items.map((ns) => [...ns]), ...(nextPageToken ? { 'next-page-token': nextPageToken } : {}) };
    },

    async loadNamespace(prefix, namespace) {
      const catalog = catalogFor(prefix);
      checkNamespace(namespace, false);
      const properties = await catalog.loadNamespace(namespace);
      return { namespace: [...namespace], properties: { ...properties } };
    },

    async listTables(prefix, namespace, page, keep) {
      const catalog = catalogFor(prefix);
      checkNamespace(namespace, false);
      const listed = await catalog.listTables(namespace);
      const tables = keep ? listed.filter(keep) : listed;
      const scope = ['tables', prefix, ...namespace].join(SEP);
      const { items, nextPageToken } = paginate(tables, (t) => t.name, scope, page);
      return {
        identifiers: items.map((t) => ({ namespace: [...t.namespace], name: t.name })),
        ...(nextPageToken ? { 'next-page-token': nextPageToken } : {}),
      };
    },

    loadedTable(prefix, identifier, snapshots) {
      const catalog = catalogs.get(prefix);
      const mode = parseSnapshotsMode(snapshots);
      if (!catalog?.loadedTable || mode === undefined) return undefined;
      const table = catalog.loadedTable(identifier);
      return table && byLoaded.get(table)?.get(prefix)?.[mode];
    },

    async loadTable(prefix, identifier, snapshots) {
      const catalog = catalogFor(prefix);
      const mode = snapshotsMode(snapshots);
      const id = checkTableIdentifier(identifier.namespace, identifier.name);
      const table = await catalog.loadTable(id);
      // A catalog hands out one LoadedTable while its resolution is reused (refresh-ms): its answer
      // is found by that object and the mode, without building the key below.
      const answered = byLoaded.get(table)?.get(prefix)?.[mode];
      if (answered) return answered;
      // An unchanged metadata file is serialised once per representation (issue #12: warm loads from memory).
      const key = JSON.stringify([prefix, id.namespace, id.name, table.metadataLocation, mode, table.config]);
      let views = serialised.get(table.metadata);
      const held = views?.get(key);
      if (held) return remember(table, prefix, mode, held);
      const config = { ...table.config };
      // REST spec loadTable: `snapshots=refs` returns only snapshots referenced by branches or tags.
      const metadata = mode === 'all' && table.metadataJson !== undefined ? new RawJson(table.metadataJson) : tableMetadataToJson(table.metadata, { snapshots: mode });
      const result = { 'metadata-location': table.metadataLocation, metadata, config };
      const snapshot = table.metadata.currentSnapshotId;
      const etag = loadTableETag(prefix, id, table.metadataLocation, mode, config);
      const response = { result, body: Buffer.from(stringifyJson(result)), etag, ...(snapshot !== undefined && { currentSnapshotId: snapshot }) };
      if (!views) serialised.set(table.metadata, (views = new Map()));
      views.set(key, response);
      return remember(table, prefix, mode, response);
    },

    route: (endpoint, rawPath, readsBody) => routeRequest(endpoint, rawPath, federation, readsBody),

    async answersPlanning(prefix, endpoint, issued, authorization) {
      const mode = await federation.planningMode(prefix, authorization);
      if (mode !== 'upstream-or-paged') return mode !== 'upstream';
      return endpoint === ENDPOINTS.planTableScan || (issued !== undefined && pagedPlanning.issued(endpoint === ENDPOINTS.fetchScanTasks ? 'plan-task' : 'plan-id', issued));
    },

    planTableScan(prefix, identifier, body, caller) {
      return traced('plan', prefix, identifier, async () => {
        const paged = await pagedTarget(prefix, identifier, caller);
        if (paged?.mode === 'upstream-or-paged') return pagedPlanning.planOrPage(prefix, ...paged.args, body, caller?.onOutcome);
        if (paged) return pagedPlanning.plan(prefix, ...paged.args, body, caller?.onOutcome);
        return scanPlanning.plan(prefix, ...planningTarget(prefix, identifier, caller), body, caller?.onOutcome, caller?.takesGzip);
      });
    },

    async fetchPlanningResult(prefix, identifier, planId, caller) {
      const paged = await pagedTarget(prefix, identifier, caller);
      if (paged) return pagedPlanning.fetchPlan(prefix, ...paged.args, planId, caller?.onOutcome);
      return scanPlanning.fetchPlan(prefix, ...planningTarget(prefix, identifier, caller), planId, caller?.onOutcome, caller?.takesGzip);
    },

    async cancelPlanning(prefix, identifier, _planId, caller) {
      // Spec cancelPlanning: 204 even for unknown or finished plans (Java calls it after every scan).
      planningTarget(prefix, identifier, caller);
    },

    fetchScanTasks(prefix, identifier, body, caller) {
      return traced('tasks', prefix, identifier, async () => {
        const paged = await pagedTarget(prefix, identifier, caller);
        if (paged) return pagedPlanning.fetchTasks(prefix, ...paged.args, body, caller?.onOutcome);
        return scanPlanning.fetchTasks(prefix, ...planningTarget(prefix, identifier, caller), body, caller?.onOutcome);
      });
    },

    explainTableScan: explain,

    describeCatalogs: () => describeCatalogs(catalogs, federation),

    rejectUnsupported(prefix, operation) {
      if (prefix !== undefined) catalogFor(prefix);
      throw fail('UNSUPPORTED_OPERATION', `Operation not supported by this server: ${operation}`);
    },
  };
}

/** REST spec loadTable `snapshots`: enum [all, refs], default `all`. */
function snapshotsMode(raw: string | undefined): SnapshotsMode {
  const mode = parseSnapshotsMode(raw);
  if (mode === undefined) throw fail('BAD_REQUEST', `Invalid snapshots parameter ${quote(raw ?? '')}: must be "all" or "refs"`);
  return mode;
}

/** The mode `raw` names; undefined for any other value. */
function parseSnapshotsMode(raw: string | undefined): SnapshotsMode | undefined {
  if (raw === undefined || raw === 'all') return 'all';
  return raw === 'refs' ? 'refs' : undefined;
}

