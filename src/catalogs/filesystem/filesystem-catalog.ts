import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LRUCache } from 'lru-cache';
import { fail, isIcefrontError } from '../../errors/index.js';
import type { FilesystemCatalogConfig } from '../../config/index.js';
import type { Namespace, TableIdentifier, TableMetadata } from '../../iceberg/index.js';
import { createLocalFileIO, createLocalFileWriter, type FileWriter, type WarehouseFileIO } from '../../storage/index.js';
import type { CommitClock } from '../../commits/index.js';
import type { CacheMetrics } from '../../observability/index.js';
import type { Catalog, CatalogWrites, LoadedTable } from '../catalog.js';
import { FilesystemWrites, readNamespaceProperties } from './filesystem-writes.js';
import { chooseCurrentMetadata, followHadoopHint, followHadoopVersions, metadataVersion, VERSION_HINT_FILES } from './current-metadata.js';
import { MetadataReader, type ReadMetadata } from '../metadata-reader.js';
import { checkIdentifier, checkNamespace, displayName, isHidden } from './names.js';
import { WarehouseLayout } from './warehouse-layout.js';

export interface FilesystemCatalogOptions {
  /** Bound of the parsed-metadata cache, in bytes of metadata files (default 64 MiB). */
  readonly metadataCacheBytes?: number;
  /** Table metadata not read for this long leaves the cache; absent: it stays until pushed out. */
  readonly cacheIdleMs?: number;
  /** Where the table-metadata cache reports itself (/metrics, the status page). */
  readonly cacheMetrics?: CacheMetrics;
  /** Writes the warehouse (default: local files confined to it); unused when the catalog is read-only. */
  readonly writer?: FileWriter;
  /** Time and UUIDs of commits (tests fix them). */
  readonly clock?: CommitClock;
}

/**
 * The embedded catalog over a directory of Iceberg tables (Hadoop-catalog layout). `io` reads the
 * warehouse; by default a local FileIO confined to the warehouse and the configured remap dirs.
 */
export function createFilesystemCatalog(
  config: FilesystemCatalogConfig,
  io?: WarehouseFileIO,
  options: FilesystemCatalogOptions = {},
): Catalog {
  const warehouseIO = io ?? createLocalFileIO({ roots: [config.warehouse], remaps: config.locations });
  return new FilesystemCatalog(config, warehouseIO, options);
}

/** Tables whose current-metadata choice is held for reuse (each a few hundred bytes plus its metadata, which the reader's cache bounds). */
const MAX_RESOLVED_TABLES = 10_000;

class FilesystemCatalog implements Catalog {
  readonly name: string;
  readonly type = 'filesystem' as const;
  readonly planning: boolean;
  readonly location: string;
  readonly writes?: CatalogWrites;
  private readonly layout: WarehouseLayout;
  private readonly reader: MetadataReader;
  private readonly refreshMs: number;
  /** The last resolution of each table, and when it started: reused for `refreshMs`, shared while it runs. */
  private readonly resolved = new LRUCache<string, Resolution>({ max: MAX_RESOLVED_TABLES });
  /** The `v<N>` version each Hadoop table was last found at: where `find` looks first. */
  private readonly versions = new LRUCache<string, bigint>({ max: MAX_RESOLVED_TABLES });

  constructor(
    config: FilesystemCatalogConfig,
    readonly io: WarehouseFileIO,
    options: FilesystemCatalogOptions,
  ) {
    this.name = config.name;
    this.planning = config.planning === 'on';
    this.location = path.resolve(config.warehouse);
    this.layout = new WarehouseLayout(io, this.location);
    this.reader = new MetadataReader(io, options.metadataCacheBytes, {
      catalog: config.name,
      ...(options.cacheMetrics && { metrics: options.cacheMetrics }),
      ...(options.cacheIdleMs !== undefined && { idleMs: options.cacheIdleMs }),
    });
    this.refreshMs = config.refreshMs ?? 0;
    if (!config.readOnly) this.writes = new FilesystemWrites(this, options.writer ?? createLocalFileWriter([this.location]), options.clock);
  }

  async listNamespaces(parent: Namespace): Promise<Namespace[]> {
    checkNamespace(parent, true);
    const view = await this.layout.openNamespace(parent);
    const { namespaces } = await this.layout.children(view);
    return namespaces.map((name) => [...parent, name]);
  }

  async loadNamespace(namespace: Namespace): Promise<Record<string, string>> {
    checkNamespace(namespace, false);
    const view = await this.layout.openNamespace(namespace);
    // HadoopCatalog.loadNamespaceMetadata: the namespace's folder as `location` (engines put new tables
    // below it); a stored one cannot move it, since a table here is where its name puts it
    return { ...(await readNamespaceProperties(this.io, view.dir)), location: pathToFileURL(view.dir).href };
  }

  async namespaceDirectory(namespace: Namespace): Promise<string> {
    checkNamespace(namespace, false);
    return (await this.layout.openNamespace(namespace)).dir;
  }

  async namespaceHolds(namespace: Namespace): Promise<boolean> {
    const view = await this.layout.openNamespace(namespace);
    return view.entries.some((e) => !isHidden(e.name));
  }

  async listTables(namespace: Namespace): Promise<TableIdentifier[]> {
    checkNamespace(namespace, false);
    const view = await this.layout.openNamespace(namespace);
    const { tables } = await this.layout.children(view);
    return tables.map((name) => ({ namespace: [...namespace], name }));
  }

  /**
   * The table at its current metadata. A resolution (folder walk, hint, choice, parse) is reused
   * for `refresh-ms` and shared by the loads that arrive while it runs, so a warm load does no
   * I/O; a commit (a new metadata file) is seen by the first load after that. Failures are never
   * reused: a table that appears is found by the next load.
   */
  async loadTable(identifier: TableIdentifier, options: { readonly fresh?: boolean } = {}): Promise<LoadedTable> {
    checkIdentifier(identifier);
    if (this.refreshMs === 0) return this.resolve(identifier);
    const key = resolutionKey(identifier);
    const now = Date.now();
    const held = this.resolved.get(key);
    if (held && now - held.at < this.refreshMs && !options.fresh) return held.table;
    const entry: Resolution = { at: now, table: this.resolve(identifier) };
    this.resolved.set(key, entry);
    entry.table.then(
      (table) => void (entry.settled = table),
      () => {
        if (this.resolved.peek(key) === entry) this.resolved.delete(key);
      },
    );
    return entry.table;
  }

  loadedTable(identifier: TableIdentifier): LoadedTable | undefined {
    // a name loadTable refuses is never held; checked first all the same, as the key relies on it
    if (this.refreshMs === 0 || !isSafeIdentifier(identifier)) return undefined;
    const held = this.resolved.get(resolutionKey(identifier));
    return held?.settled !== undefined && Date.now() - held.at < this.refreshMs ? held.settled : undefined;
  }

  private async resolve(identifier: TableIdentifier): Promise<LoadedTable> {
    const found = await this.find(identifier);
    if (found) return this.loaded(identifier, found);
    const table = displayName(identifier.namespace, identifier.name);
    // REST spec loadTable 404 is NoSuchTableException, also when the namespace is missing (Spark
    // then reads `t.branch_x` as a branch of `t`); why the namespace is missing is kept in the message
    await this.layout.openNamespace(identifier.namespace).catch((err: unknown) => {
      throw isIcefrontError(err, 'NO_SUCH_NAMESPACE') ? fail('NO_SUCH_TABLE', `Table does not exist: ${table}. ${err.message}`, err) : err;
    });
    throw fail('NO_SUCH_TABLE', `Table does not exist: ${table}`);
  }

  /** The table's current metadata file, read now; undefined when there is no such table or no such namespace. */
  async find(identifier: TableIdentifier): Promise<CurrentFile | undefined> {
    const { namespace, name } = identifier;
    const view = await this.layout.openNamespace(namespace).catch((err: unknown) => {
      if (isIcefrontError(err, 'NO_SUCH_NAMESPACE')) return undefined;
      throw err;
    });
    const dir = view && this.layout.tableMetadataDir(view, name);
    if (!dir) return undefined;
    const label = (file: string) => `Table ${displayName(namespace, name)}: metadata/${file}`;
    const load = (f: string) => this.reader.read(path.join(dir, f), label(f));
    const present = (names: readonly string[]) => this.listNames(dir, names);
    // a Hadoop table is found as Java finds it, by its hint and the files after it, and first from
    // the version this process last found it at (the hint could only lead there or further): the
    // folder, which holds every version the table ever had, is listed only when neither finds a file
    const key = resolutionKey(identifier);
    const known = this.versions.get(key);
    let followed = known === undefined ? undefined : await followHadoopVersions(known, present);
    let hint: string | undefined;
    if (!followed) {
      hint = await this.readHint(dir);
      followed = hint === undefined ? undefined : await followHadoopHint(hint, present);
    }
    let chosen: ReadMetadata & { file: string };
    if (followed) {
      chosen = await chooseCurrentMetadata(followed, undefined, load);
      this.versions.set(key, metadataVersion(chosen.file)!);
    } else {
      this.versions.delete(key);
      const files = await this.layout.tableFiles(dir);
      if (!files) return undefined;
      chosen = await chooseCurrentMetadata(files.metadataFiles, hint, load);
    }
    return { ...chosen, metadataDir: dir, metadataLocation: metadataLocation(chosen.metadata, path.join(dir, chosen.file), chosen.file) };
  }

  /** Which of `names` the folder holds as files (none when it is gone), asked all at once. */
  private async listNames(dir: string, names: readonly string[]): Promise<string[]> {
    const entries = await this.io.list(dir, names).catch((err: unknown) => {
      if (isIcefrontError(err, 'FILE_NOT_FOUND')) return [];
      throw err;
    });
    return entries.filter((e) => e.kind === 'file').map((e) => e.name);
  }

  /**
   * Holds a metadata file this process has just written for `identifier` (metadata-reader.ts
   * `remember`), and its version as the one `find` looks at first: the next commit's fresh read
   * then asks for `v<N+1>` and `v<N+2>` once, not for the version before it and four more.
   */
  remember(identifier: TableIdentifier, file: string, written: Required<ReadMetadata>, fileBytes: number): Promise<void> {
    const version = metadataVersion(path.basename(file));
    if (version !== undefined) this.versions.set(resolutionKey(identifier), version);
    return this.reader.remember(file, written, fileBytes);
  }

  /** The table as a load answers it, from the file `find` chose. */
  loaded(identifier: TableIdentifier, current: CurrentFile): LoadedTable {
    return {
      identifier: { namespace: [...identifier.namespace], name: identifier.name },
      metadataLocation: current.metadataLocation,
      metadata: current.metadata,
      ...(current.json !== undefined && { metadataJson: current.json }),
      config: {},
      io: this.io.forTable(current.metadata.location, path.dirname(current.metadataDir)),
    };
  }

  /** Forgets the held resolution of a table this process changed: the next load reads it again. */
  forget(identifier: TableIdentifier): void {
    this.resolved.delete(resolutionKey(identifier));
  }

  /**
   * The content of `version-hint.text` (or `.txt`) in a metadata folder; undefined when there is
   * none or it cannot be read (HadoopTableOperations.findVersion then lists the folder too).
   */
  private async readHint(dir: string): Promise<string | undefined> {
    for (const hintFile of VERSION_HINT_FILES) {
      const text = await this.io.readFile(path.join(dir, hintFile)).then(
        (bytes) => bytes.toString('utf8'),
        () => undefined,
      );
      if (text !== undefined) return text;
    }
    return undefined;
  }
}

/** The resolution cache key: levels and name joined by NUL, which checkIdentifier refuses inside any of them. */
function resolutionKey(identifier: TableIdentifier): string {
  return [...identifier.namespace, identifier.name].join('\0');
}

function isSafeIdentifier(identifier: TableIdentifier): boolean {
  try {
    checkIdentifier(identifier);
    return true;
  } catch {
    return false;
  }
}

/** A table's current metadata file as `find` chose it. */
export interface CurrentFile {
  /** Its name in `metadataDir`. */
  readonly file: string;
  readonly metadata: TableMetadata;
  /** Its JSON text, when this process wrote it (TableVersion.json). */
  readonly json?: string;
  /** The table's `metadata/` directory. */
  readonly metadataDir: string;
  /** As clients see it (`<location>/metadata/<file>`). */
  readonly metadataLocation: string;
}

interface Resolution {
  readonly at: number;
  readonly table: Promise<LoadedTable>;
  /** The table, once `table` has resolved. */
  settled?: LoadedTable;
}

/**
 * What clients see as the metadata file: `<location>/metadata/<file>` (engines expect the file under
 * the table location; the table's FileIO maps it back here), or a file:// URL when no location is recorded.
 */
function metadataLocation(metadata: TableMetadata, localFile: string, file: string): string {
  const location = metadata.location.replace(/\/+$/, '');
  return location === '' ? pathToFileURL(localFile).href : `${location}/metadata/${file}`;
}
