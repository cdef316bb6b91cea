/**
 * A `sql` catalog: Iceberg's JDBC catalog schema (sql-store.ts), shared with Java's JdbcCatalog
 * and pyiceberg's SqlCatalog. A table is a row naming its current metadata file; a commit writes a
 * new metadata file (`<location>/metadata/NNNNN-<uuid>.metadata.json`, as Java's
 * BaseMetastoreTableOperations) and moves the row to it with a conditional update, which decides
 * every race between writers, Icefront replicas and other catalogs alike. Its views (sql-views.ts)
 * are rows of the same table, of type VIEW.
 */
import {
  commitTables,
  metadataFileLocation,
  newTableMetadata,
  nextMetadataFileName,
  removedMetadataFiles,
  SYSTEM_CLOCK,
  type CommitClock,
  type CommitStore,
  type CreateTableRequest,
  type TableCommit,
  type TableSwap,
  type TableVersion,
} from '../../commits/index.js';
import { Turns } from '../../cache/index.js';
import { fail, isIcefrontError } from '../../errors/index.js';
import { metadataFileText, parseTableMetadata, type Namespace, type TableIdentifier, type TableMetadata } from '../../iceberg/index.js';
import type { CacheMetrics } from '../../observability/index.js';
import { normalizeLocation, stripPrefix, type FileIO, type FileWriter, type WarehouseFileIO } from '../../storage/index.js';
import type { Catalog, CatalogViews, CatalogWrites, LoadedTable, StagedTable } from '../catalog.js';
import { tableMetadataFile } from '../metadata-file.js';
import { MetadataReader } from '../metadata-reader.js';
import type { SqlCatalogStore } from './sql-store.js';
import { SqlViews } from './sql-views.js';
import { discardUnreferenced } from './unreferenced-files.js';

export interface SqlCatalogParts {
  readonly name: string;
  /** Where new tables go: `file:/…` or `s3://bucket/prefix` (a namespace's `location` property overrides it, as JdbcCatalog). */
  readonly warehouseLocation: string;
  readonly planning: boolean;
  readonly readOnly: boolean;
  /** The store, once open (opening may fail: every request then answers that failure). */
  readonly store: Promise<SqlCatalogStore>;
  /**
   * Reads metadata, manifests and data: a local warehouse's (confined to the configured roots,
   * with per-table views, WarehouseFileIO), or S3's.
   */
  readonly io: FileIO & Partial<Pick<WarehouseFileIO, 'forTable'>>;
  /** Writes metadata files (confined to the warehouse: the same roots, or the S3 warehouse prefix). */
  readonly writer: FileWriter;
  /**
   * A LoadTableResult's `config` for a table on S3: what clients need to reach its files as
   * Icefront does (endpoint, path style, region; storage/s3 s3ClientProperties), never credentials.
   */
  readonly s3TableConfig?: Readonly<Record<string, string>>;
  readonly clock?: CommitClock;
  readonly metadataCacheBytes?: number;
  /** Table metadata not read for this long leaves the cache; absent: it stays until pushed out. */
  readonly cacheIdleMs?: number;
  /** Where the table-metadata cache reports itself (/metrics, the status page). */
  readonly cacheMetrics?: CacheMetrics;
}

export function createSqlCatalog(parts: SqlCatalogParts): Catalog {
  return new SqlCatalog(parts);
}

const displayName = (namespace: Namespace, name?: string) => [...namespace, ...(name === undefined ? [] : [name])].join('.');

class SqlCatalog implements Catalog, CatalogWrites {
  readonly name: string;
  readonly type = 'sql' as const;
  readonly planning: boolean;
  readonly location: string;
  readonly writes?: CatalogWrites;
  readonly supports = { namespaceProperties: true, renameTable: true, registerTable: true, transactions: true } as const;
  private readonly reader: MetadataReader;
  private readonly clock: CommitClock;
  private readonly sqlViews: SqlViews;
  /** Commits of this process, one at a time per table (CommitStore.turns); other replicas meet at the database. */
  private readonly commitTurns = new Turns();
  /** Whether the database keeps views (schema V1), known once the store is open. */
  private viewsSupported: boolean | undefined;

  constructor(private readonly parts: SqlCatalogParts) {
    this.name = parts.name;
    this.planning = parts.planning;
    this.location = parts.warehouseLocation;
    this.reader = new MetadataReader(parts.io, parts.metadataCacheBytes, {
      catalog: parts.name,
      ...(parts.cacheMetrics && { metrics: parts.cacheMetrics }),
      ...(parts.cacheIdleMs !== undefined && { idleMs: parts.cacheIdleMs }),
    });
    this.clock = parts.clock ?? SYSTEM_CLOCK;
    if (!parts.readOnly) this.writes = this;
    this.sqlViews = new SqlViews({
      store: () => this.store(),
      io: parts.io,
      writer: parts.writer,
      clock: this.clock,
      writable: !parts.readOnly,
      defaultLocation: (identifier) => this.defaultLocation(identifier),
    });
    // an unopened store is reported by the requests that need it, not as an unhandled rejection
    parts.store.then(
      (store) => void (this.viewsSupported = store.viewsSupported),
      () => undefined,
    );
  }

  /**
   * The views, unless the open database is V0 (JdbcCatalog without view support): then absent, so
   * every view route answers 406 and `/v1/config` advertises none. Until the store has opened they
   * are present, and on a V0 database their first call is the store's UNSUPPORTED_OPERATION.
   */
  get views(): CatalogViews | undefined {
    return this.viewsSupported === false ? undefined : this.sqlViews;
  }

  async close(): Promise<void> {
    const store = await this.parts.store.catch(() => undefined);
    await store?.close();
  }

  private store(): Promise<SqlCatalogStore> {
    return this.parts.store;
  }

  async listNamespaces(parent: Namespace): Promise<Namespace[]> {
    return (await this.store()).listNamespaces(parent);
  }

  /** JdbcCatalog.loadNamespaceMetadata: the stored properties, `location` defaulting to <warehouse>/<levels> (engines put new tables below it). */
  async loadNamespace(namespace: Namespace): Promise<Record<string, string>> {
    const properties = await (await this.store()).loadNamespace(namespace);
    return properties['location'] !== undefined ? properties : { location: [this.parts.warehouseLocation.replace(/\/+$/, ''), ...namespace].join('/'), ...properties };
  }

  async listTables(namespace: Namespace): Promise<TableIdentifier[]> {
    const names = await (await this.store()).list(namespace, 'table');
    return names.map((name) => ({ namespace: [...namespace], name }));
  }

  async loadTable(identifier: TableIdentifier): Promise<LoadedTable> {
    const version = await this.current(identifier);
    if (!version) throw fail('NO_SUCH_TABLE', `Table does not exist: ${displayName(identifier.namespace, identifier.name)}`);
    return this.loaded(identifier, version);
  }

  /** The table's row and the metadata it names, read now; undefined when there is no row. */
  private async current(identifier: TableIdentifier): Promise<TableVersion | undefined> {
    const record = await (await this.store()).get(identifier.namespace, identifier.name, 'table');
    if (!record) return undefined;
    const label = `Table ${displayName(identifier.namespace, identifier.name)}: ${record.metadataLocation}`;
    return { ...(await this.reader.read(record.metadataLocation, label)), metadataLocation: record.metadataLocation };
  }

  private loaded(identifier: TableIdentifier, version: TableVersion): LoadedTable {
    const local = normalizeLocation(version.metadata.location);
    const io = this.parts.io;
    return {
      identifier: { namespace: [...identifier.namespace], name: identifier.name },
      metadataLocation: version.metadataLocation,
      metadata: version.metadata,
      ...(version.json !== undefined && { metadataJson: version.json }),
      config: this.tableConfig(version.metadata.location),
      io: local.kind === 'local' && io.forTable ? io.forTable(version.metadata.location, local.text) : io,
    };
  }

  /** REST spec LoadTableResult.config: the S3 client settings for a table whose files are on S3, else none. */
  private tableConfig(location: string): Readonly<Record<string, string>> {
    return this.parts.s3TableConfig && normalizeLocation(location).text.startsWith('s3://') ? this.parts.s3TableConfig : {};
  }

  // --- writes (CatalogWrites) ---

  async createNamespace(namespace: Namespace, properties: Readonly<Record<string, string>>): Promise<Record<string, string>> {
    const store = await this.store();
    await store.createNamespace(namespace, { ...properties });
    return store.loadNamespace(namespace);
  }

  async dropNamespace(namespace: Namespace): Promise<void> {
    await (await this.store()).dropNamespace(namespace);
  }

  async updateNamespaceProperties(namespace: Namespace, updates: Readonly<Record<string, string>>, removals: readonly string[]): Promise<void> {
    await (await this.store()).updateNamespace(namespace, { ...updates }, removals);
  }

  async createTable(namespace: Namespace, request: CreateTableRequest): Promise<LoadedTable | StagedTable> {
    const store = await this.store();
    const identifier = { namespace, name: request.name };
    const location = await this.defaultLocation(identifier);
    if (await store.get(namespace, request.name, 'table')) throw fail('ALREADY_EXISTS', `Table already exists: ${displayName(namespace, request.name)}`);
    const metadata = newTableMetadata(request, request.location ?? location, this.clock);
    if (request.stageCreate) return { identifier, metadata, config: this.tableConfig(metadata.location) };
    const [created] = await this.swap([{ identifier, base: undefined, next: metadata }]);
    return this.loaded(identifier, created!);
  }

  /** JdbcCatalog.defaultWarehouseLocation (tables and views): the namespace's `location`, else <warehouse>/<levels>, then /<name>. */
  private async defaultLocation(identifier: TableIdentifier): Promise<string> {
    const properties = await (await this.store()).loadNamespace(identifier.namespace);
    const base = (properties['location'] ?? [this.parts.warehouseLocation.replace(/\/+$/, ''), ...identifier.namespace].join('/')).replace(/\/+$/, '');
    return `${base}/${identifier.name}`;
  }

  async registerTable(identifier: TableIdentifier, metadataLocation: string, overwrite: boolean): Promise<LoadedTable> {
    const store = await this.store();
    await store.loadNamespace(identifier.namespace);
    let metadata: TableMetadata;
    try {
      metadata = parseTableMetadata(metadataFileText(await this.parts.io.readFile(metadataLocation)));
    } catch (err) {
      if (isIcefrontError(err, 'FILE_NOT_FOUND') || isIcefrontError(err, 'PATH_OUTSIDE_WAREHOUSE')) throw err;
      throw fail('ILLEGAL_ARGUMENT', `Cannot register ${metadataLocation}: ${(err as Error).message}`, err);
    }
    const existing = await store.get(identifier.namespace, identifier.name, 'table');
    if (existing && !overwrite) throw fail('ALREADY_EXISTS', `Table already exists: ${displayName(identifier.namespace, identifier.name)}`);
    // BaseMetastoreCatalog.registerTable: the row names the given file; nothing is rewritten
    await store.swap([{ namespace: identifier.namespace, name: identifier.name, kind: 'table', ...(existing && { expected: existing.metadataLocation }), next: metadataLocation }]);
    return this.loaded(identifier, { metadata, metadataLocation });
  }

  async dropTable(identifier: TableIdentifier, purge: boolean): Promise<void> {
    const store = await this.store();
    const current = purge ? await this.current(identifier).catch(() => undefined) : undefined;
    const dropped = await store.drop(identifier.namespace, identifier.name, 'table');
    if (!dropped) throw fail('NO_SUCH_TABLE', `Table does not exist: ${displayName(identifier.namespace, identifier.name)}`);
    if (!current) return;
    // JdbcCatalog.dropTable with purge: the table's files go. Its folder (on S3: every key below
    // it) goes whole only where this catalog put it (its default location): a location chosen by
    // a client may hold more than it. Its metadata files go either way, those outside a removed
    // folder one by one (`write.metadata.path`). The writer refuses what lies outside its warehouse.
    const location = normalizeLocation(current.metadata.location);
    const owned = normalizeLocation(await this.defaultLocation(identifier).catch(() => '')).text === location.text;
    // S3 keys are literal: the recorded location, not its normalised text (which collapses `//`)
    const removed =
      owned && location.kind !== 'relative' && (await this.parts.writer.removeTree(location.kind === 'local' ? location.text : current.metadata.location).then(() => true, () => false));
    const files = [current.metadataLocation, ...current.metadata.metadataLog.map((e) => e.metadataFile)];
    for (const file of removed ? files.filter((f) => stripPrefix(normalizeLocation(f), location) === undefined) : files)
      await this.parts.writer.deleteFile(file).catch(() => undefined);
  }

  async renameTable(from: TableIdentifier, to: TableIdentifier): Promise<void> {
    await (await this.store()).rename(from, to, 'table');
  }

  async commit(commits: readonly TableCommit[]): Promise<LoadedTable[]> {
    const store: CommitStore = { turns: this.commitTurns, current: (identifier) => this.current(identifier), swap: (swaps) => this.swap(swaps) };
    const versions = await commitTables(store, commits, this.clock);
    return commits.map((c, i) => this.loaded(c.identifier, versions[i]!));
  }

  /**
   * Writes each new metadata file (never replacing one), then moves every row in one database
   * transaction. A lost race leaves the new files unreferenced and removes them (`discardUnreferenced`); an
   * unknown outcome leaves them, since the rows may name them.
   */
  private async swap(swaps: readonly TableSwap[]): Promise<TableVersion[]> {
    const store = await this.store();
    const written: (Required<TableVersion> & { fileBytes: number })[] = [];
    try {
      for (const { base, next } of swaps) {
        const location = metadataFileLocation(next, nextMetadataFileName(base?.metadataLocation, next.properties, this.clock));
        const file = tableMetadataFile(location, next);
        if (!(await this.parts.writer.createExclusive(location, file.bytes))) throw fail('COMMIT_FAILED', `Metadata file ${location} exists already`);
        written.push({ metadata: next, metadataLocation: location, json: file.json, fileBytes: file.bytes.length });
      }
      await store.swap(
        swaps.map((s, i) => ({
          namespace: s.identifier.namespace,
          name: s.identifier.name,
          kind: 'table' as const,
          ...(s.base && { expected: s.base.metadataLocation }),
          next: written[i]!.metadataLocation,
        })),
      );
    } catch (err) {
      if (!isIcefrontError(err, 'COMMIT_STATE_UNKNOWN')) discardUnreferenced(this.parts.writer, written.map((w) => w.metadataLocation));
      throw err;
    }
    // write.metadata.delete-after-commit.enabled: the files the log no longer lists (Java CatalogUtil.deleteRemovedMetadataFiles)
    for (const { base, next } of swaps) {
      if (base && next.properties['write.metadata.delete-after-commit.enabled'] === 'true')
        for (const old of removedMetadataFiles(base.metadata, next)) await this.parts.writer.deleteFile(old).catch(() => undefined);
    }
    // the next commit's fresh read and the next load find these parsed and serialised already
    for (const w of written) await this.reader.remember(w.metadataLocation, w, w.fileBytes).catch(() => undefined);
    return written.map(({ metadata, metadataLocation, json }) => ({ metadata, metadataLocation, json }));
  }
}
