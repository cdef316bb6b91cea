import type { CreateTableRequest, CreateViewRequest, TableCommit, ViewChange } from '../commits/index.js';
import type { Namespace, TableIdentifier, TableMetadata, ViewMetadata } from '../iceberg/index.js';
import type { FileIO } from '../storage/index.js';

export interface LoadedTable {
  readonly identifier: TableIdentifier;
  /** The metadata file as the catalog records it (a location clients could read). */
  readonly metadataLocation: string;
  readonly metadata: TableMetadata;
  /**
   * `metadata` as JSON text, exactly as `stringifyJson(tableMetadataToJson(metadata))` writes it,
   * when the catalog has it at hand (a metadata file this process wrote): an answer with every
   * snapshot embeds it rather than serialising the metadata again.
   */
  readonly metadataJson?: string;
  /** Table-level config for LoadTableResult.config. */
  readonly config: Readonly<Record<string, string>>;
  /** Reads this table's metadata, manifest and data files (locations remapped). */
  readonly io: FileIO;
}

/** The interface every catalog backend implements. Errors are IcefrontErrors. */
export interface Catalog {
  readonly name: string;
  readonly type: 'filesystem' | 'sql' | 'rest';
  /** Direct children of `parent` (top level when empty), sorted. NO_SUCH_NAMESPACE if parent is missing. */
  listNamespaces(parent: Namespace): Promise<Namespace[]>;
  /** Namespace properties; NO_SUCH_NAMESPACE when absent. */
  loadNamespace(namespace: Namespace): Promise<Record<string, string>>;
  /** Tables directly in `namespace`, sorted by name; NO_SUCH_NAMESPACE when absent. */
  listTables(namespace: Namespace): Promise<TableIdentifier[]>;
  /**
   * NO_SUCH_NAMESPACE / NO_SUCH_TABLE when absent; INVALID_METADATA when unreadable. `fresh`: the
   * current metadata as of now, never a resolution a catalog reuses for a while (refresh-ms).
   * `pinned`: for a plan task's redemption, which needs only a snapshot already pinned, so a load
   * the catalog made for the same caller moments ago serves (a `rest` upstream's, PINNED_REUSE_MS).
   */
  loadTable(identifier: TableIdentifier, options?: { readonly fresh?: boolean; readonly pinned?: boolean }): Promise<LoadedTable>;
  /**
   * What `loadTable(identifier)` would answer now without reading anything, when the catalog holds
   * a resolution it still reuses (refresh-ms); undefined otherwise. Lets a warm load-table be
   * answered without waiting a turn (issue #12 part 2). Identifiers are checked by the caller.
   */
  loadedTable?(identifier: TableIdentifier): LoadedTable | undefined;
  /** Whether this catalog serves the scan-planning endpoints. */
  readonly planning: boolean;
  /** Where its tables live, for operators (a filesystem catalog's warehouse folder). */
  readonly location?: string;
  /** The mutations it takes; absent for a read-only catalog (every mutation answers 406). */
  readonly writes?: CatalogWrites;
  /**
   * Its views (REST spec listViews … registerView); absent for a catalog that keeps none (every
   * view route answers 406 and `/v1/config` advertises none), as Java's HadoopCatalog keeps none.
   */
  readonly views?: CatalogViews;
  /** Lets go of what it holds open (a database pool); called once nothing uses it any more. */
  close?(): Promise<void>;
}

/** A table a staged create describes (REST spec stageCreate): its metadata, nothing written yet. */
export interface StagedTable {
  readonly identifier: TableIdentifier;
  readonly metadata: TableMetadata;
  readonly config: Readonly<Record<string, string>>;
}

/**
 * The mutations of the REST catalog API on a catalog Icefront keeps itself. Requirements and
 * updates are applied by commits/ (Iceberg semantics, the same for every store); a catalog does
 * the atomic swap of the current metadata. Errors: ALREADY_EXISTS, NAMESPACE_NOT_EMPTY,
 * COMMIT_FAILED (a requirement failed or a race was lost: nothing visible),
 * COMMIT_STATE_UNKNOWN (the store failed mid-swap), NO_SUCH_*, UNSUPPORTED_OPERATION.
 */
export interface CatalogWrites {
  /** What this store can keep beyond tables and namespaces; `/v1/config` advertises exactly these. */
  readonly supports: {
    readonly namespaceProperties: boolean;
    readonly renameTable: boolean;
    readonly registerTable: boolean;
    /** Multi-table commits, all or nothing. */
    readonly transactions: boolean;
  };
  /** The namespace's properties as stored. */
  createNamespace(namespace: Namespace, properties: Readonly<Record<string, string>>): Promise<Record<string, string>>;
  /** NAMESPACE_NOT_EMPTY while it holds tables, views or namespaces. */
  dropNamespace(namespace: Namespace): Promise<void>;
  updateNamespaceProperties(namespace: Namespace, updates: Readonly<Record<string, string>>, removals: readonly string[]): Promise<void>;
  /** A new table (REST createTable); a staged create writes nothing and answers what a commit would create. */
  createTable(namespace: Namespace, request: CreateTableRequest): Promise<LoadedTable | StagedTable>;
  registerTable(identifier: TableIdentifier, metadataLocation: string, overwrite: boolean): Promise<LoadedTable>;
  /** `purge`: the table's files go too. */
  dropTable(identifier: TableIdentifier, purge: boolean): Promise<void>;
  renameTable(from: TableIdentifier, to: TableIdentifier): Promise<void>;
  /** One commit of one or more tables, all or nothing; the tables as committed, in order. */
  commit(commits: readonly TableCommit[]): Promise<LoadedTable[]>;
}

/** A view as a catalog holds it (REST spec LoadViewResult). */
export interface LoadedView {
  readonly identifier: TableIdentifier;
  /** The metadata file the catalog records as the view's current one. */
  readonly metadataLocation: string;
  readonly metadata: ViewMetadata;
  /** View-level config for LoadViewResult.config. */
  readonly config: Readonly<Record<string, string>>;
}

/**
 * The views of a catalog (Java ViewCatalog, as CatalogHandlers drives it). Semantics of a change
 * come from commits/views; a catalog does the atomic swap. A table and a view never share a name.
 * Errors: NO_SUCH_NAMESPACE, NO_SUCH_VIEW, ALREADY_EXISTS (a view or a table holds the name),
 * COMMIT_FAILED (a requirement failed, or a race was lost on every attempt: nothing visible),
 * COMMIT_STATE_UNKNOWN (the store failed mid-swap), UNSUPPORTED_OPERATION.
 */
export interface CatalogViews {
  /** False for a read-only catalog: its views can be listed and loaded, every mutation is UNSUPPORTED_OPERATION. */
  readonly writable: boolean;
  /** Views directly in `namespace`, sorted by name. */
  listViews(namespace: Namespace): Promise<TableIdentifier[]>;
  /** The view and its current metadata, read now. */
  loadView(identifier: TableIdentifier): Promise<LoadedView>;
  /** A new view (REST createView). */
  createView(namespace: Namespace, request: CreateViewRequest): Promise<LoadedView>;
  /** REST updateView (replaceView): requirements, then updates, retried while a lost race allows. */
  commitView(identifier: TableIdentifier, change: ViewChange): Promise<LoadedView>;
  /** NO_SUCH_VIEW when there is none. */
  dropView(identifier: TableIdentifier): Promise<void>;
  renameView(from: TableIdentifier, to: TableIdentifier): Promise<void>;
  /** A view whose current metadata is the given file, which is not rewritten (REST registerView). */
  registerView(identifier: TableIdentifier, metadataLocation: string): Promise<LoadedView>;
}
