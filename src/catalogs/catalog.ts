import type { Namespace, TableIdentifier, TableMetadata } from '../iceberg/index.js';
import type { FileIO } from '../storage/index.js';

export interface LoadedTable {
  readonly identifier: TableIdentifier;
  /** The metadata file as the catalog records it (a location clients could read). */
  readonly metadataLocation: string;
  readonly metadata: TableMetadata;
  /** Table-level config for LoadTableResult.config. */
  readonly config: Readonly<Record<string, string>>;
  /** Reads this table's metadata, manifest and data files (locations remapped). */
  readonly io: FileIO;
}

/** The interface every catalog backend implements. Errors are IcefrontErrors. */
export interface Catalog {
  readonly name: string;
  readonly type: 'filesystem' | 'rest';
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
}
