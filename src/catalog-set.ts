/**
 * The catalogs a configuration names, as running objects: filesystem catalogs and upstream
 * clients. Built at start and again on every reload, where a catalog whose configuration did not
 * change keeps its object (its metadata caches, config cache, tokens and connection pool), and
 * only added or changed ones are built anew.
 */
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { ByteBudget } from './cache/index.js';
import { createFilesystemCatalog, createRestUpstream, createSqlCatalog, openSqlStore, type Catalog } from './catalogs/index.js';
import type { CatalogConfig, RestCatalogConfig, SqlCatalogConfig } from './config/index.js';
import { fail } from './errors/index.js';
import type { CacheMetrics, Logger, Tracing, UpstreamObserver } from './observability/index.js';
import { createLocalFileIO, createLocalFileWriter, createS3FileIO, createS3FileWriter, s3ClientProperties, s3OptionsFromTableConfig } from './storage/index.js';
import type { UpstreamCatalog } from './service/index.js';

export interface CatalogSet {
  readonly configs: ReadonlyMap<string, CatalogConfig>;
  /** The catalogs Icefront keeps itself (`filesystem`, `sql`) by name. */
  readonly catalogs: ReadonlyMap<string, Catalog>;
  /** `rest` catalogs by name. */
  readonly upstreams: ReadonlyMap<string, UpstreamCatalog>;
}

export interface CatalogSetChange {
  readonly next: CatalogSet;
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly kept: readonly string[];
  /** Upstreams of the previous set that `next` no longer uses (closed once nothing uses them). */
  readonly retired: readonly UpstreamCatalog[];
  /** Catalogs of the previous set that `next` no longer uses (closed once nothing uses them). */
  readonly retiredCatalogs: readonly Catalog[];
}

export interface CatalogDeps {
  /** `server.upstream-buffer-bytes`, shared by every upstream of every set. */
  readonly bufferBudget: ByteBudget;
  readonly logger?: Logger;
  /** Told of every upstream call's answer or fault (`/metrics`, the status page: observability upstreamObserver). */
  readonly upstreams?: UpstreamObserver;
  /** Spans of upstream calls. */
  readonly tracing?: Tracing;
  /** Clock of upstreams' cache lifetimes (RestUpstreamOptions `now`); `Date.now` by default. */
  readonly now?: () => number;
  /** Where the caches of catalogs Icefront keeps itself (their table metadata) report themselves. */
  readonly cacheMetrics?: CacheMetrics;
  /** Their table metadata not read for this long is dropped (`planning.cache-idle-seconds`); absent: kept. */
  readonly cacheIdleMs?: number;
}

export function buildCatalogSet(configs: ReadonlyMap<string, CatalogConfig>, deps: CatalogDeps, previous?: CatalogSet): CatalogSetChange {
  const catalogs = new Map<string, Catalog>();
  const upstreams = new Map<string, UpstreamCatalog>();
  const added: string[] = [];
  const changed: string[] = [];
  const kept: string[] = [];
  const built: UpstreamCatalog[] = [];
  try {
    for (const [name, config] of configs) {
      const before = previous?.configs.get(name);
      const same = before !== undefined && isDeepStrictEqual(before, config);
      (same ? kept : before === undefined ? added : changed).push(name);
      if (config.type === 'rest') {
        const reused = same ? previous!.upstreams.get(name) : undefined;
        const upstream = reused ?? restCatalog(config, deps);
        if (!reused) built.push(upstream);
        upstreams.set(name, upstream);
      } else catalogs.set(name, (same ? previous!.catalogs.get(name) : undefined) ?? ownCatalog(config, deps));
    }
  } catch (err) {
    // nothing half-built outlives a refused set
    for (const upstream of built) void upstream.upstream.close();
    throw err;
  }
  const removed = [...(previous?.configs.keys() ?? [])].filter((name) => !configs.has(name));
  const retired = [...(previous?.upstreams ?? [])].filter(([name, upstream]) => upstreams.get(name) !== upstream).map(([, upstream]) => upstream);
  const inUse = new Set(catalogs.values());
  const retiredCatalogs = [...(previous?.catalogs.values() ?? [])].filter((c) => !inUse.has(c));
  return { next: { configs, catalogs, upstreams }, added, changed, removed, kept, retired, retiredCatalogs };
}

/** A catalog Icefront keeps itself. A `sql` catalog's database is opened now; a failure is every request's answer until a reload. */
function ownCatalog(config: Exclude<CatalogConfig, RestCatalogConfig>, deps: CatalogDeps): Catalog {
  const cache = {
    ...(deps.cacheMetrics && { cacheMetrics: deps.cacheMetrics }),
    ...(deps.cacheIdleMs !== undefined && { cacheIdleMs: deps.cacheIdleMs }),
    ...(config.metadataCacheBytes !== undefined && { metadataCacheBytes: config.metadataCacheBytes }),
  };
  return config.type === 'sql' ? sqlCatalog(config, cache) : createFilesystemCatalog(config, undefined, cache);
}

function sqlCatalog(config: SqlCatalogConfig, cache: { readonly cacheMetrics?: CacheMetrics; readonly cacheIdleMs?: number; readonly metadataCacheBytes?: number }): Catalog {
  const open = () => openSqlStore({ uri: config.uri, catalogName: config.catalogName, ...(config.schemaVersion && { schemaVersion: config.schemaVersion }) });
  const common = { name: config.name, warehouseLocation: config.warehouseLocation, planning: config.planning === 'on', readOnly: config.readOnly === true, ...cache };
  if (config.s3) {
    // an S3 warehouse (issue #40 item 3): read anywhere on S3 with the catalog's settings, write below the warehouse only
    const options = s3OptionsFromTableConfig({}, config.s3);
    return createSqlCatalog({
      ...common,
      store: open(),
      io: createS3FileIO(options),
      writer: createS3FileWriter({ ...options, roots: [config.warehouseLocation] }),
      s3TableConfig: s3ClientProperties(config.s3),
    });
  }
  const warehouseDir = config.warehouseDir;
  if (warehouseDir === undefined) throw fail('CONFIG_INVALID', `Catalog "${config.name}": a sql catalog needs a local warehouse folder or storage.s3`);
  const roots = [warehouseDir, ...config.locations.map((l) => l.dir)];
  return createSqlCatalog({
    ...common,
    // the warehouse folder is made first: writes are confined to it, and it must exist to be a root
    store: fs.promises.mkdir(warehouseDir, { recursive: true }).then(open),
    io: createLocalFileIO({ roots: [warehouseDir], remaps: config.locations }),
    writer: createLocalFileWriter(roots),
  });
}

function restCatalog(config: RestCatalogConfig, deps: CatalogDeps): UpstreamCatalog {
  const local = config.storage?.local;
  return {
    upstream: createRestUpstream(config, {
      bufferBudget: deps.bufferBudget,
      ...(deps.upstreams && { observer: deps.upstreams }),
      ...(deps.tracing && { tracing: deps.tracing }),
      ...(deps.logger && { logger: deps.logger }),
      ...(deps.now && { now: deps.now }),
    }),
    config,
    ...(local && { localIO: createLocalFileIO({ roots: local.roots, remaps: local.locations }) }),
  };
}
