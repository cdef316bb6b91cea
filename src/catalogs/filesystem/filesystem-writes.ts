/**
 * The mutations of a writable `filesystem` catalog, in the layout Iceberg Java's HadoopCatalog
 * reads and writes: a namespace is a directory, a table is `<namespace dirs>/<table>/` holding
 * `metadata/v<N>.metadata.json` and `metadata/version-hint.text`. A commit creates version N+1
 * with a no-replace link (local-file-writer.ts): of two writers racing for one version, exactly
 * one creates it; the other's commit failed and is retried from fresh state (commits/).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  commitTables,
  hadoopMetadataFileName,
  newTableMetadata,
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
import { parseJson } from '../../json/index.js';
import { metadataFileText, parseTableMetadata, type Namespace, type TableIdentifier, type TableMetadata } from '../../iceberg/index.js';
import type { FileIO, FileWriter } from '../../storage/index.js';
import type { CatalogWrites, LoadedTable, StagedTable } from '../catalog.js';
import { tableMetadataFile } from '../metadata-file.js';
import { metadataVersion } from './current-metadata.js';
import { checkIdentifier, checkNamespace, displayName } from './names.js';

/** Namespace properties, in a hidden file of the namespace's directory (HadoopCatalog keeps none; it ignores the file). */
export const NAMESPACE_PROPERTIES_FILE = '.namespace-properties.json';
const VERSION_HINT = 'version-hint.text';

/** A table's current metadata file: its name, its `metadata/` folder, and what it holds. */
interface TableFile extends TableVersion {
  readonly file: string;
  readonly metadataDir: string;
}

/** What the writes need of the catalog they change. */
export interface FilesystemTables {
  /** The warehouse directory (absolute). */
  readonly location: string;
  /** Reads the warehouse (confined to it). */
  readonly io: FileIO;
  /** The table's current metadata file, read now; undefined when there is none. */
  find(identifier: TableIdentifier): Promise<TableFile | undefined>;
  loaded(identifier: TableIdentifier, current: TableFile): LoadedTable;
  /** Forgets a held resolution after a change. */
  forget(identifier: TableIdentifier): void;
  /** Holds a metadata file just written, parsed and serialised, for the next read of it, and its version as the table's. */
  remember(identifier: TableIdentifier, file: string, written: { readonly metadata: TableMetadata; readonly json: string }, fileBytes: number): Promise<void>;
  /** The namespace's directory; NO_SUCH_NAMESPACE when missing. */
  namespaceDirectory(namespace: Namespace): Promise<string>;
  /** Whether the namespace directory holds anything but hidden entries. */
  namespaceHolds(namespace: Namespace): Promise<boolean>;
}

export class FilesystemWrites implements CatalogWrites {
  readonly supports = { namespaceProperties: true, renameTable: false, registerTable: true, transactions: false } as const;
  /** Namespace property changes of this process (read, change, write), one at a time per namespace. */
  private readonly namespaceTurns = new Turns();
  /** Commits of this process, one at a time per table (CommitStore.turns). */
  private readonly commitTurns = new Turns();

  constructor(
    private readonly tables: FilesystemTables,
    private readonly writer: FileWriter,
    private readonly clock: CommitClock = SYSTEM_CLOCK,
  ) {}

  async createNamespace(namespace: Namespace, properties: Readonly<Record<string, string>>): Promise<Record<string, string>> {
    checkNamespace(namespace, false);
    if (namespace.length > 1) await this.tables.namespaceDirectory(namespace.slice(0, -1));
    const dir = path.join(this.tables.location, ...namespace);
    // HadoopCatalog.createNamespace: an existing directory (namespace or table) is AlreadyExists
    if (!(await this.writer.makeDirectory(dir))) throw fail('ALREADY_EXISTS', `Namespace already exists: ${displayName(namespace)}`);
    if (Object.keys(properties).length > 0) await this.writer.replace(path.join(dir, NAMESPACE_PROPERTIES_FILE), Buffer.from(JSON.stringify(properties)));
    return { ...properties };
  }

  async dropNamespace(namespace: Namespace): Promise<void> {
    checkNamespace(namespace, false);
    const dir = await this.tables.namespaceDirectory(namespace);
    // HadoopCatalog.dropNamespace: any table or namespace below it refuses the drop
    if (await this.tables.namespaceHolds(namespace)) throw fail('NAMESPACE_NOT_EMPTY', `Namespace is not empty: ${displayName(namespace)}`);
    await this.writer.deleteFile(path.join(dir, NAMESPACE_PROPERTIES_FILE));
    if (!(await this.writer.removeEmptyDirectory(dir))) throw fail('NAMESPACE_NOT_EMPTY', `Namespace is not empty: ${displayName(namespace)}`);
  }

  async updateNamespaceProperties(namespace: Namespace, updates: Readonly<Record<string, string>>, removals: readonly string[]): Promise<void> {
    checkNamespace(namespace, false);
    return this.namespaceTurns.run([JSON.stringify(namespace)], async () => {
      const dir = await this.tables.namespaceDirectory(namespace);
      const properties = await readNamespaceProperties(this.tables.io, dir);
      for (const k of removals) delete properties[k];
      Object.assign(properties, updates);
      await this.writer.replace(path.join(dir, NAMESPACE_PROPERTIES_FILE), Buffer.from(JSON.stringify(properties)));
    });
  }

  async createTable(namespace: Namespace, request: CreateTableRequest): Promise<LoadedTable | StagedTable> {
    const identifier = { namespace, name: request.name };
    checkIdentifier(identifier);
    const dir = await this.tables.namespaceDirectory(namespace);
    const location = pathToFileURL(path.join(dir, request.name)).href;
    // HadoopCatalog: a path-based table lives where its name puts it
    if (request.location !== undefined && stripSlash(request.location) !== location && stripSlash(request.location) !== `file:${path.join(dir, request.name)}`)
      throw fail('ILLEGAL_ARGUMENT', `Cannot set a custom location for a path-based table. Expected ${location} but got ${request.location}`);
    if (await this.tables.find(identifier)) throw fail('ALREADY_EXISTS', `Table already exists: ${displayName(namespace, request.name)}`);
    // a namespace's directory never becomes a table's
    if (await this.tables.namespaceDirectory([...namespace, request.name]).then(() => true, () => false))
      throw fail('ALREADY_EXISTS', `A namespace exists with that name: ${displayName([...namespace, request.name])}`);
    const metadata = newTableMetadata(request, location, this.clock);
    if (request.stageCreate) return { identifier, metadata, config: {} };
    const [created] = await this.swapOne({ identifier, base: undefined, next: metadata }, 'create');
    return this.tables.loaded(identifier, created!);
  }

  async registerTable(identifier: TableIdentifier, metadataLocation: string, overwrite: boolean): Promise<LoadedTable> {
    checkIdentifier(identifier);
    if (overwrite) throw fail('UNSUPPORTED_OPERATION', 'A filesystem catalog registers a table only under a new name (overwrite is not supported)');
    await this.tables.namespaceDirectory(identifier.namespace);
    if (await this.tables.find(identifier)) throw fail('ALREADY_EXISTS', `Table already exists: ${displayName(identifier.namespace, identifier.name)}`);
    let metadata: TableMetadata;
    try {
      metadata = parseTableMetadata(metadataFileText(await this.tables.io.readFile(metadataLocation)));
    } catch (err) {
      if (isIcefrontError(err, 'FILE_NOT_FOUND') || isIcefrontError(err, 'PATH_OUTSIDE_WAREHOUSE')) throw err;
      throw fail('ILLEGAL_ARGUMENT', `Cannot register ${metadataLocation}: ${(err as Error).message}`, err);
    }
    const [created] = await this.swapOne({ identifier, base: undefined, next: metadata }, 'create');
    return this.tables.loaded(identifier, created!);
  }

  async dropTable(identifier: TableIdentifier, _purge: boolean): Promise<void> {
    checkIdentifier(identifier);
    const current = await this.tables.find(identifier);
    if (!current) throw fail('NO_SUCH_TABLE', `Table does not exist: ${displayName(identifier.namespace, identifier.name)}`);
    // HadoopCatalog.dropTable: the table is its directory, removed with or without purge
    await this.writer.removeTree(path.dirname(current.metadataDir));
    this.tables.forget(identifier);
  }

  async renameTable(): Promise<void> {
    throw fail('UNSUPPORTED_OPERATION', 'A filesystem catalog cannot rename tables: a table is the directory its name makes (as HadoopCatalog)');
  }

  async commit(commits: readonly TableCommit[]): Promise<LoadedTable[]> {
    if (commits.length !== 1) throw fail('UNSUPPORTED_OPERATION', 'A filesystem catalog commits one table at a time: it cannot make several tables change at once');
    for (const { identifier } of commits) checkIdentifier(identifier);
    // every version the loop hands back is one of these (read by `find` or written by `swapOne`)
    const store: CommitStore = {
      turns: this.commitTurns,
      current: (identifier) => this.tables.find(identifier),
      swap: (swaps) => this.swapOne(swaps[0]!, 'commit'),
    };
    const versions = (await commitTables(store, commits, this.clock)) as TableFile[];
    return commits.map((c, i) => this.tables.loaded(c.identifier, versions[i]!));
  }

  /**
   * Writes version N+1 of the table (1 for a new one) unless it exists: then the commit lost a
   * race (COMMIT_FAILED, or ALREADY_EXISTS for a create). Then the version hint, then the metadata
   * files the table no longer lists when `write.metadata.delete-after-commit.enabled`.
   */
  private async swapOne(swap: TableSwap, kind: 'create' | 'commit'): Promise<TableFile[]> {
    const { identifier, next } = swap;
    // the base the commit loop read with `find` (commit() hands it only those): version N+1 of its
    // file is the one to create, and link(2) refuses it when another writer got there first
    const base = swap.base as TableFile | undefined;
    const metadataDir = base?.metadataDir ?? path.join(await this.tables.namespaceDirectory(identifier.namespace), identifier.name, 'metadata');
    const version = base ? (metadataVersion(base.file) ?? 0n) + 1n : 1n;
    const file = hadoopMetadataFileName(version, next.properties);
    const content = tableMetadataFile(file, next);
    if (!(await this.writer.createExclusive(path.join(metadataDir, file), content.bytes))) {
      if (kind === 'create') throw fail('ALREADY_EXISTS', `Table already exists: ${displayName(identifier.namespace, identifier.name)}`);
      throw fail('COMMIT_FAILED', `Version ${version} of table ${displayName(identifier.namespace, identifier.name)} was written by another commit`);
    }
    this.tables.forget(identifier);
    // HadoopTableOperations: the hint follows the commit; readers follow N+1 past a stale one (and
    // list the folder past an empty one), so it need not survive a crash and is not flushed
    await this.writer.replace(path.join(metadataDir, VERSION_HINT), Buffer.from(String(version)), { durable: false }).catch(() => undefined);
    if (base && next.properties['write.metadata.delete-after-commit.enabled'] === 'true') {
      for (const old of removedMetadataFiles(base.metadata, next)) {
        const name = old.slice(old.lastIndexOf('/') + 1);
        // only files of this table's metadata directory, named as metadata files
        if (name.endsWith('.metadata.json') && !name.startsWith('.')) await this.writer.deleteFile(path.join(metadataDir, name)).catch(() => undefined);
      }
    }
    // the next commit's fresh read and the next load find it parsed and serialised already
    await this.tables.remember(identifier, path.join(metadataDir, file), { metadata: next, json: content.json }, content.bytes.length).catch(() => undefined);
    const location = next.location.replace(/\/+$/, '');
    return [{ file, metadataDir, metadata: next, json: content.json, metadataLocation: location === '' ? pathToFileURL(path.join(metadataDir, file)).href : `${location}/metadata/${file}` }];
  }
}

/** Stored namespace properties; none when the file is absent. */
export async function readNamespaceProperties(io: FileIO, dir: string): Promise<Record<string, string>> {
  let raw: Buffer;
  try {
    raw = await io.readFile(path.join(dir, NAMESPACE_PROPERTIES_FILE));
  } catch (err) {
    if (isIcefrontError(err, 'FILE_NOT_FOUND')) return {};
    throw err;
  }
  const parsed = parseJson(raw.toString('utf8'));
  const out: Record<string, string> = {};
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

function stripSlash(location: string): string {
  return location.replace(/\/+$/, '');
}
