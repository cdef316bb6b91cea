/**
 * A `sql` catalog's views, as Iceberg Java's JdbcCatalog keeps them (JdbcViewOperations,
 * BaseViewOperations): a view is an `iceberg_tables` row of type VIEW naming its current metadata
 * file; a change writes a new file (`<location>/metadata/NNNNN-<uuid>.gz.metadata.json`, gzip by
 * default for views) and moves the row with the store's conditional update. The store is the
 * catalog's; a V0 database (no `iceberg_type` column) has no views: the store refuses every view
 * operation with UNSUPPORTED_OPERATION.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  commitViewChange,
  metadataCompression,
  newViewMetadata,
  parseMetadataVersion,
  type CommitClock,
  type CreateViewRequest,
  type StoredView,
  type ViewChange,
} from '../../commits/index.js';
import { fail, isIcefrontError } from '../../errors/index.js';
import { metadataFileText, parseViewMetadata, viewMetadataToJson, type Namespace, type TableIdentifier, type ViewMetadata } from '../../iceberg/index.js';
import type { FileIO, FileWriter } from '../../storage/index.js';
import type { CatalogViews, LoadedView } from '../catalog.js';
import { metadataFileBytes } from '../metadata-file.js';
import type { SqlCatalogStore } from './sql-store.js';
import { discardUnreferenced } from './unreferenced-files.js';

/** What the views share with their catalog. */
export interface SqlViewParts {
  readonly store: () => Promise<SqlCatalogStore>;
  readonly io: FileIO;
  readonly writer: FileWriter;
  readonly clock: CommitClock;
  readonly writable: boolean;
  /** Java JdbcCatalog.defaultWarehouseLocation, the same for a view as for a table; NO_SUCH_NAMESPACE. */
  readonly defaultLocation: (identifier: TableIdentifier) => Promise<string>;
}

// ViewProperties.METADATA_COMPRESSION and its default for views: gzip (tables: none)
const METADATA_COMPRESSION = 'write.metadata.compression-codec';
const VIEW_METADATA_COMPRESSION_DEFAULT = 'gzip';
// ViewProperties.WRITE_METADATA_LOCATION
const WRITE_METADATA_LOCATION = 'write.metadata.path';
// TableProperties.GC_ENABLED (default true), which CatalogUtil.dropViewMetadata reads
const GC_ENABLED = 'gc.enabled';

const shown = (id: TableIdentifier) => [...id.namespace, id.name].join('.');
const noSuchView = (id: TableIdentifier) => fail('NO_SUCH_VIEW', `View does not exist: ${shown(id)}`);

export class SqlViews implements CatalogViews {
  readonly writable: boolean;

  constructor(
    private readonly parts: SqlViewParts,
    /** Attempts of a commit (Java CatalogHandlers: 1 + COMMIT_NUM_RETRIES_DEFAULT 4) and the first pause (100 ms, doubled). */
    private readonly retry = { attempts: 5, backoffMs: 100 },
  ) {
    this.writable = parts.writable;
  }

  async listViews(namespace: Namespace): Promise<TableIdentifier[]> {
    const names = await (await this.parts.store()).list(namespace, 'view');
    return names.map((name) => ({ namespace: [...namespace], name }));
  }

  async loadView(identifier: TableIdentifier): Promise<LoadedView> {
    const view = await this.current(identifier);
    if (!view) throw noSuchView(identifier);
    return loaded(identifier, view);
  }

  // BaseMetastoreViewCatalog.BaseViewBuilder.create, JdbcViewOperations.createView
  async createView(namespace: Namespace, request: CreateViewRequest): Promise<LoadedView> {
    const store = await this.writableStore();
    const identifier = { namespace, name: request.name };
    const location = await this.parts.defaultLocation(identifier);
    await this.requireFree(store, identifier);
    const metadata = newViewMetadata(request, request.location ?? location, this.parts.clock);
    return loaded(identifier, await this.swap(store, identifier, undefined, metadata));
  }

  /**
   * Java CatalogHandlers.updateView → commit(ViewOperations, request): each attempt reads the view
   * fresh, checks the requirements (a failed one is the client's 409, never retried), applies the
   * updates, writes and swaps; a swap lost to another writer is tried again while attempts remain.
   */
  async commitView(identifier: TableIdentifier, change: ViewChange): Promise<LoadedView> {
    const store = await this.writableStore();
    let pause = this.retry.backoffMs;
    for (let attempt = 1; ; attempt++) {
      const base = await this.current(identifier);
      if (!base) throw noSuchView(identifier);
      const { metadata, changed } = commitViewChange(base, change, this.parts.clock);
      // Java: a commit whose updates change nothing writes nothing
      if (!changed) return loaded(identifier, base);
      try {
        return loaded(identifier, await this.swap(store, identifier, base, metadata));
      } catch (err) {
        if (!isIcefrontError(err, 'COMMIT_FAILED') || attempt >= this.retry.attempts) throw err;
      }
      await sleep(pause * (0.5 + Math.random()));
      pause *= 2;
    }
  }

  // JdbcCatalog.dropView: the row goes, then (gc.enabled, default true) the current metadata file
  async dropView(identifier: TableIdentifier): Promise<void> {
    const store = await this.writableStore();
    const last = await this.current(identifier).catch(() => undefined);
    if (!(await store.drop(identifier.namespace, identifier.name, 'view'))) throw noSuchView(identifier);
    const gc = last?.metadata.properties[GC_ENABLED];
    if (last && (gc === undefined || gc.toLowerCase() === 'true')) await this.parts.writer.deleteFile(last.metadataLocation).catch(() => undefined);
  }

  async renameView(from: TableIdentifier, to: TableIdentifier): Promise<void> {
    await (await this.writableStore()).rename(from, to, 'view');
  }

  // BaseMetastoreViewCatalog.registerView: the row names the given file; nothing is rewritten
  async registerView(identifier: TableIdentifier, metadataLocation: string): Promise<LoadedView> {
    const store = await this.writableStore();
    await store.loadNamespace(identifier.namespace);
    await this.requireFree(store, identifier);
    let metadata: ViewMetadata;
    try {
      metadata = parseViewMetadata(metadataFileText(await this.parts.io.readFile(metadataLocation)));
    } catch (err) {
      if (isIcefrontError(err, 'FILE_NOT_FOUND') || isIcefrontError(err, 'PATH_OUTSIDE_WAREHOUSE')) throw err;
      throw fail('ILLEGAL_ARGUMENT', `Cannot register ${metadataLocation}: ${(err as Error).message}`, err);
    }
    await store.swap([{ namespace: identifier.namespace, name: identifier.name, kind: 'view', next: metadataLocation }]);
    return loaded(identifier, { metadata, metadataLocation });
  }

  /** The store, when this catalog takes writes. */
  private async writableStore(): Promise<SqlCatalogStore> {
    const store = await this.parts.store();
    if (!this.writable) throw fail('UNSUPPORTED_OPERATION', 'This catalog is read-only: its views cannot change');
    return store;
  }

  /** The view's row and the metadata it names, read now (never cached); undefined when there is no row. */
  private async current(identifier: TableIdentifier): Promise<StoredView | undefined> {
    const record = await (await this.parts.store()).get(identifier.namespace, identifier.name, 'view');
    if (!record) return undefined;
    return { metadata: await this.read(record.metadataLocation, `View ${shown(identifier)}`), metadataLocation: record.metadataLocation };
  }

  /** Java ViewMetadataParser.read: gzip or not (metadataFileText looks at the bytes, not the name). */
  private async read(location: string, label: string): Promise<ViewMetadata> {
    const bytes = await this.parts.io.readFile(location);
    try {
      return parseViewMetadata(metadataFileText(bytes));
    } catch (err) {
      throw fail('INVALID_METADATA', `${label}: ${location}: ${(err as Error).message}`, err);
    }
  }

  // BaseViewBuilder.create and registerView: a view, then a table, of that name (the store checks again in its transaction)
  private async requireFree(store: SqlCatalogStore, identifier: TableIdentifier): Promise<void> {
    if (await store.get(identifier.namespace, identifier.name, 'view')) throw fail('ALREADY_EXISTS', `View already exists: ${shown(identifier)}`);
    if (await store.get(identifier.namespace, identifier.name, 'table')) throw fail('ALREADY_EXISTS', `Table with same name already exists: ${shown(identifier)}`);
  }

  /**
   * Writes the new metadata file (never replacing one), then inserts the row (`base` undefined) or
   * moves it from `base`. A lost race removes the file (in the background, as a table's); an
   * unknown outcome leaves it, since the row may name it.
   */
  private async swap(store: SqlCatalogStore, identifier: TableIdentifier, base: StoredView | undefined, next: ViewMetadata): Promise<StoredView> {
    const location = metadataFileLocation(next, nextViewFileName(base?.metadataLocation, next.properties, this.parts.clock));
    if (!(await this.parts.writer.createExclusive(location, metadataFileBytes(location, viewMetadataToJson(next)))))
      throw fail('COMMIT_FAILED', `Metadata file ${location} exists already`);
    try {
      await store.swap([{ namespace: identifier.namespace, name: identifier.name, kind: 'view', ...(base && { expected: base.metadataLocation }), next: location }]);
    } catch (err) {
      if (!isIcefrontError(err, 'COMMIT_STATE_UNKNOWN')) discardUnreferenced(this.parts.writer, [location]);
      throw err;
    }
    return { metadata: next, metadataLocation: location };
  }
}

function loaded(identifier: TableIdentifier, view: StoredView): LoadedView {
  return { identifier: { namespace: [...identifier.namespace], name: identifier.name }, metadataLocation: view.metadataLocation, metadata: view.metadata, config: {} };
}

/**
 * Java BaseViewOperations.newMetadataFilePath's name: `%05d-<uuid>` and the extension of
 * write.metadata.compression-codec (views default to gzip: `.gz.metadata.json`), the version one
 * above the base file's (0 for a new view, or a base file whose name has no version).
 */
export function nextViewFileName(baseLocation: string | undefined, properties: Readonly<Record<string, string>>, clock: CommitClock): string {
  const version = (baseLocation === undefined ? undefined : parseMetadataVersion(baseLocation)) ?? -1;
  const codec = metadataCompression({ [METADATA_COMPRESSION]: VIEW_METADATA_COMPRESSION_DEFAULT, ...properties });
  return `${String(version + 1).padStart(5, '0')}-${clock.newUuid()}${codec === 'gzip' ? '.gz.metadata.json' : '.metadata.json'}`;
}

/** Java BaseViewOperations.metadataFileLocation: under write.metadata.path when set, else `<location>/metadata`. */
function metadataFileLocation(metadata: ViewMetadata, fileName: string): string {
  const configured = Object.hasOwn(metadata.properties, WRITE_METADATA_LOCATION) ? metadata.properties[WRITE_METADATA_LOCATION] : undefined;
  return configured !== undefined ? `${stripTrailingSlash(configured)}/${fileName}` : `${stripTrailingSlash(metadata.location)}/metadata/${fileName}`;
}

// Java LocationUtil.stripTrailingSlash: keeps the `//` of a bare `scheme://`
function stripTrailingSlash(location: string): string {
  let out = location;
  while (!out.endsWith('://') && out.endsWith('/')) out = out.slice(0, -1);
  return out;
}
