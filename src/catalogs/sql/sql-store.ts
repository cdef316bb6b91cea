/**
 * The store half of a `sql` catalog: rows of Iceberg's JDBC catalog schema (Java `JdbcCatalog`,
 * pyiceberg `SqlCatalog`) in one database they may share. It knows rows, never metadata files:
 * the catalog above writes metadata and asks this store to swap the locations atomically.
 */
import type { Namespace } from '../../iceberg/index.js';

export type SqlObjectKind = 'table' | 'view';

/** One row of `iceberg_tables`: where the object's current (and previous) metadata lives. */
export interface SqlRecord {
  readonly metadataLocation: string;
  readonly previousMetadataLocation?: string;
}

/** One object's part of a commit: insert a row, or move it from `expected` to `next`. */
export interface SqlSwap {
  readonly namespace: Namespace;
  readonly name: string;
  readonly kind: SqlObjectKind;
  /** undefined: insert a new row (create) */
  readonly expected?: string;
  readonly next: string;
}

export interface SqlCatalogStore {
  readonly dialect: 'sqlite' | 'postgresql';
  /** False on a V0 database (no `iceberg_type` column): every view operation is UNSUPPORTED_OPERATION. */
  readonly viewsSupported: boolean;
  /** Direct children (top level when `parent` is empty), sorted; NO_SUCH_NAMESPACE when a non-empty parent is absent. */
  listNamespaces(parent: Namespace): Promise<Namespace[]>;
  namespaceExists(namespace: Namespace): Promise<boolean>;
  /** Stored properties without the reserved `exists` row (JdbcCatalog.loadNamespaceMetadata); the default `location` is the catalog's to add. */
  loadNamespace(namespace: Namespace): Promise<Record<string, string>>;
  /** ALREADY_EXISTS; `exists` is reserved (INVALID_VALUE). */
  createNamespace(namespace: Namespace, properties: Record<string, string>): Promise<void>;
  /** One transaction. NO_SUCH_NAMESPACE; INVALID_VALUE for `exists` among the updates or a key both set and removed. */
  updateNamespace(namespace: Namespace, updates: Record<string, string>, removals: readonly string[]): Promise<void>;
  /** NO_SUCH_NAMESPACE; NAMESPACE_NOT_EMPTY when it holds child namespaces, tables or views (JdbcCatalog.dropNamespace). */
  dropNamespace(namespace: Namespace): Promise<void>;
  /** Sorted names; NO_SUCH_NAMESPACE when the namespace is absent. */
  list(namespace: Namespace, kind: SqlObjectKind): Promise<string[]>;
  get(namespace: Namespace, name: string, kind: SqlObjectKind): Promise<SqlRecord | undefined>;
  /**
   * One database transaction, all or nothing. An insert whose name a table or view holds:
   * ALREADY_EXISTS. An update whose row holds another location (or lost a race): COMMIT_FAILED;
   * whose row is gone: NO_SUCH_TABLE / NO_SUCH_VIEW. The COMMIT sent and its answer lost:
   * COMMIT_STATE_UNKNOWN. Anything failing before the COMMIT: STORAGE_FAILURE (nothing written).
   */
  swap(changes: readonly SqlSwap[]): Promise<void>;
  /** The row removed, undefined when there was none. */
  drop(namespace: Namespace, name: string, kind: SqlObjectKind): Promise<SqlRecord | undefined>;
  /** NO_SUCH_TABLE / NO_SUCH_VIEW, NO_SUCH_NAMESPACE for a missing target namespace, ALREADY_EXISTS. */
  rename(from: SqlObjectName, to: SqlObjectName, kind: SqlObjectKind): Promise<void>;
  close(): Promise<void>;
}

export interface SqlObjectName {
  readonly namespace: Namespace;
  readonly name: string;
}

export interface SqlStoreOptions {
  /** `postgresql://user:pass@host:port/db?…` (or `postgres://`), `sqlite:/abs/path.db`, `sqlite:///abs/path.db`, `sqlite::memory:`. */
  readonly uri: string;
  /** The `catalog_name` of every row this store reads and writes. */
  readonly catalogName: string;
  /**
   * Absent: an empty database gets the V1 schema, an existing V0 one is used as V0. `V1`: a V0
   * database is migrated (Java's ALTER TABLE ADD COLUMN). `V0`: an empty database gets Java's V0
   * schema; an existing V1 database is still used as V1 (its views would otherwise be tables).
   */
  readonly schemaVersion?: 'V0' | 'V1';
  /** PostgreSQL connections (default 4). */
  readonly poolSize?: number;
  /** SQLite: how long a write waits for another connection's lock before giving up (default 5000 ms). */
  readonly busyTimeoutMs?: number;
}
