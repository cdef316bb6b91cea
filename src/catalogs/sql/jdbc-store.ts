/**
 * SqlCatalogStore over a SqlDriver: the JdbcCatalog / JdbcTableOperations / JdbcViewOperations
 * rules, each operation one read or one transaction, in either dialect.
 */
import { fail, isIcefrontError, type ErrorCode, type IcefrontError } from '../../errors/index.js';
import type { Namespace } from '../../iceberg/index.js';
import { objectStatements, recordType, type ObjectStatements, type SchemaVersion } from './jdbc-queries.js';
import { checkLocation, checkName, checkProperty, displayName, namespaceKey, NAMESPACE_EXISTS_PROPERTY } from './namespace-keys.js';
import {
  childNamespaces,
  deleteAllProperties,
  deleteProperties,
  insertProperties,
  namespaceExists,
  readProperties,
  upsertProperties,
} from './namespace-rows.js';
import { describeError, type SqlDriver, type SqlRow, type SqlSession } from './sql-driver.js';
import type { SqlCatalogStore, SqlObjectKind, SqlObjectName, SqlRecord, SqlSwap } from './sql-store.js';

/** What a driver's unique violation or lost race means for one operation (otherwise STORAGE_FAILURE). */
interface FaultCodes {
  readonly unique?: ErrorCode;
  readonly conflict?: ErrorCode;
}

interface Located {
  readonly key: string;
  readonly name: string;
  readonly kind: SqlObjectKind;
  /** `a.b.t` */
  readonly shown: string;
  /** `table a.b.t` */
  readonly label: string;
}

const missing = (kind: SqlObjectKind): ErrorCode => (kind === 'table' ? 'NO_SUCH_TABLE' : 'NO_SUCH_VIEW');

function toRecord(row: SqlRow, label: string): SqlRecord {
  const location = row.metadata_location;
  // JdbcTableOperations.doRefresh: Preconditions.checkState(metadata location != null)
  if (typeof location !== 'string' || location === '') throw fail('INVALID_METADATA', `Invalid ${label}: metadata location is null`);
  const previous = row.previous_metadata_location;
  return typeof previous === 'string' ? { metadataLocation: location, previousMetadataLocation: previous } : { metadataLocation: location };
}

export class JdbcSqlStore implements SqlCatalogStore {
  readonly dialect: 'sqlite' | 'postgresql';
  readonly viewsSupported: boolean;
  private readonly objects: ObjectStatements;

  constructor(
    private readonly driver: SqlDriver,
    private readonly catalog: string,
    private readonly version: SchemaVersion,
  ) {
    this.dialect = driver.dialect;
    this.viewsSupported = version === 'V1';
    this.objects = objectStatements(version);
  }

  async listNamespaces(parent: Namespace): Promise<Namespace[]> {
    const key = parent.length === 0 ? undefined : namespaceKey(parent);
    return this.reading('List namespaces', async (s) => {
      if (key !== undefined) await this.requireNamespace(s, key, parent);
      return childNamespaces(s, this.catalog, parent);
    });
  }

  async namespaceExists(namespace: Namespace): Promise<boolean> {
    const key = namespaceKey(namespace);
    return this.reading('Check a namespace', (s) => namespaceExists(s, this.catalog, key));
  }

  async loadNamespace(namespace: Namespace): Promise<Record<string, string>> {
    const key = namespaceKey(namespace);
    return this.reading('Load a namespace', async (s) => {
      await this.requireNamespace(s, key, namespace);
      const properties = await readProperties(s, this.catalog, key);
      properties.delete(NAMESPACE_EXISTS_PROPERTY); // JdbcCatalog.loadNamespaceMetadata: the reserved row is not returned
      return Object.fromEntries(properties);
    });
  }

  async createNamespace(namespace: Namespace, properties: Record<string, string>): Promise<void> {
    const key = namespaceKey(namespace);
    const entries = Object.entries(properties);
    for (const [k, v] of entries) checkProperty(k, v);
    // JdbcCatalog.createNamespace adds `exists` with buildOrThrow: a caller's own `exists` is refused
    if (Object.hasOwn(properties, NAMESPACE_EXISTS_PROPERTY)) throw fail('INVALID_VALUE', `Cannot set reserved property: ${NAMESPACE_EXISTS_PROPERTY}`);
    await this.writing(
      'Create a namespace',
      async (s) => {
        if (await namespaceExists(s, this.catalog, key)) throw fail('ALREADY_EXISTS', `Namespace already exists: ${displayName(namespace)}`);
        await insertProperties(s, this.catalog, key, [...entries, [NAMESPACE_EXISTS_PROPERTY, 'true']]);
      },
      { unique: 'ALREADY_EXISTS' },
    );
  }

  async updateNamespace(namespace: Namespace, updates: Record<string, string>, removals: readonly string[]): Promise<void> {
    const key = namespaceKey(namespace);
    const sets = Object.entries(updates);
    for (const [k, v] of sets) checkProperty(k, v);
    for (const k of removals) checkProperty(k);
    // JdbcCatalog.setProperties: Cannot set reserved property
    if (Object.hasOwn(updates, NAMESPACE_EXISTS_PROPERTY)) throw fail('INVALID_VALUE', `Cannot set reserved property: ${NAMESPACE_EXISTS_PROPERTY}`);
    const both = removals.filter((k) => Object.hasOwn(updates, k));
    if (both.length > 0) throw fail('INVALID_VALUE', `Properties both set and removed: ${both.join(', ')}`);
    // the reserved row stays: removing it could make the namespace vanish
    const removed = [...new Set(removals)].filter((k) => k !== NAMESPACE_EXISTS_PROPERTY);
    await this.writing('Update namespace properties', async (s) => {
      await this.requireNamespace(s, key, namespace);
      await deleteProperties(s, this.catalog, key, removed);
      await upsertProperties(s, this.catalog, key, sets);
      if (removed.length > 0 && (await readProperties(s, this.catalog, key)).size === 0)
        await upsertProperties(s, this.catalog, key, [[NAMESPACE_EXISTS_PROPERTY, 'true']]);
    });
  }

  async dropNamespace(namespace: Namespace): Promise<void> {
    const key = namespaceKey(namespace);
    await this.writing('Drop a namespace', async (s) => {
      await this.requireNamespace(s, key, namespace);
      // JdbcCatalog.dropNamespace: child namespaces, then tables, then views
      const children = await childNamespaces(s, this.catalog, namespace);
      if (children.length > 0) throw fail('NAMESPACE_NOT_EMPTY', `Namespace ${displayName(namespace)} is not empty: it contains ${children.length} namespace(s)`);
      if ((await s.rows(this.objects.anyIn(), [this.catalog, key])).length > 0)
        throw fail('NAMESPACE_NOT_EMPTY', `Namespace ${displayName(namespace)} is not empty: it contains tables or views`);
      await deleteAllProperties(s, this.catalog, key);
    });
  }

  async list(namespace: Namespace, kind: SqlObjectKind): Promise<string[]> {
    const key = namespaceKey(namespace);
    this.requireKind(kind);
    return this.reading(`List ${kind}s`, async (s) => {
      await this.requireNamespace(s, key, namespace);
      const rows = await s.rows(this.objects.list(kind), [this.catalog, key]);
      return rows.map((row) => String(row.table_name)).sort();
    });
  }

  async get(namespace: Namespace, name: string, kind: SqlObjectKind): Promise<SqlRecord | undefined> {
    const at = this.locate(namespace, name, kind);
    return this.reading(`Load ${at.label}`, async (s) => {
      const [row] = await s.rows(this.objects.get(kind), [this.catalog, at.key, name]);
      return row === undefined ? undefined : toRecord(row, at.label);
    });
  }

  async swap(changes: readonly SqlSwap[]): Promise<void> {
    const planned = changes.map((change) => {
      const at = this.locate(change.namespace, change.name, change.kind);
      checkLocation(change.next);
      if (change.expected !== undefined) checkLocation(change.expected);
      return { at, change };
    });
    if (planned.length === 0) return;
    const [only] = planned;
    if (planned.length === 1 && only!.change.expected !== undefined) return this.moveOne(only!.at, only!.change.expected, only!.change.next);
    // rows in one order in every transaction, so two multi-object commits cannot deadlock (stable: one object's swaps keep their order)
    planned.sort((a, b) => (a.at.key === b.at.key ? (a.at.name < b.at.name ? -1 : a.at.name > b.at.name ? 1 : 0) : a.at.key < b.at.key ? -1 : 1));
    await this.writing(
      'Commit',
      async (s) => {
        for (const { at, change } of planned) {
          if (change.expected === undefined) await this.insert(s, at, change.next);
          else await this.update(s, at, change.expected, change.next);
        }
      },
      { unique: 'ALREADY_EXISTS', conflict: 'COMMIT_FAILED' },
    );
  }

  async drop(namespace: Namespace, name: string, kind: SqlObjectKind): Promise<SqlRecord | undefined> {
    const at = this.locate(namespace, name, kind);
    return this.writing(`Drop ${at.label}`, async (s) => {
      const [row] = await s.rows(this.objects.get(kind), [this.catalog, at.key, name]);
      if (row === undefined) return undefined;
      await s.run(this.objects.drop(kind), [this.catalog, at.key, name]);
      // a row without a location (no Iceberg writer leaves one) is still removed
      return typeof row.metadata_location === 'string' ? toRecord(row, at.label) : { metadataLocation: '' };
    });
  }

  async rename(from: SqlObjectName, to: SqlObjectName, kind: SqlObjectKind): Promise<void> {
    const source = this.locate(from.namespace, from.name, kind);
    const target = this.locate(to.namespace, to.name, kind);
    await this.writing(
      `Rename ${source.label}`,
      async (s) => {
        // JdbcCatalog.renameTable / renameView: the source, then the target namespace, then the target name
        if ((await s.rows(this.objects.get(kind), [this.catalog, source.key, source.name])).length === 0)
          throw fail(missing(kind), `${kind === 'table' ? 'Table' : 'View'} does not exist: ${source.label}`);
        if (source.key === target.key && source.name === target.name) return;
        await this.requireNamespace(s, target.key, to.namespace);
        await this.requireFree(s, target);
        const renamed = await s.run(this.objects.rename(kind), [target.key, target.name, this.catalog, source.key, source.name]);
        if (renamed === 0) throw fail(missing(kind), `${kind === 'table' ? 'Table' : 'View'} does not exist: ${source.label}`);
      },
      { unique: 'ALREADY_EXISTS' },
    );
  }

  close(): Promise<void> {
    return this.driver.close();
  }

  // JdbcUtil V1_DO_COMMIT_CREATE_SQL, after JdbcTableOperations.createTable's view and table checks
  private async insert(s: SqlSession, at: Located, next: string): Promise<void> {
    await this.requireFree(s, at);
    const params = [this.catalog, at.key, at.name, next];
    await s.run(this.objects.insert(), this.version === 'V1' ? [...params, recordType(at.kind)] : params);
  }

  // JdbcTableOperations.updateTable: exactly the row still holding `expected` moves on, else CommitFailedException
  private async update(s: SqlSession, at: Located, expected: string, next: string): Promise<void> {
    const changed = await s.run(this.objects.update(at.kind), [next, expected, this.catalog, at.key, at.name, expected]);
    if (changed === 0) await this.refuseMove(s, at, expected);
  }

  /** One object's swap is one conditional UPDATE, committed by itself, as JdbcUtil.updateTable runs it. */
  private async moveOne(at: Located, expected: string, next: string): Promise<void> {
    let changed: number;
    try {
      changed = await this.driver.commitStatement(this.objects.update(at.kind), [next, expected, this.catalog, at.key, at.name, expected]);
    } catch (err) {
      throw this.failure('Commit', err, { conflict: 'COMMIT_FAILED' });
    }
    if (changed === 0) await this.reading('Commit', (s) => this.refuseMove(s, at, expected));
  }

  /** Why no row moved: the object is gone, or another writer moved it first. */
  private async refuseMove(s: SqlSession, at: Located, expected: string): Promise<never> {
    const [row] = await s.rows(this.objects.get(at.kind), [this.catalog, at.key, at.name]);
    if (row === undefined) throw fail(missing(at.kind), `Cannot commit ${at.label}: it does not exist`);
    throw fail('COMMIT_FAILED', `Cannot commit ${at.label}: its metadata location is no longer ${expected}`);
  }

  /** A table and a view may not share a name (JdbcTableOperations.createTable, JdbcCatalog.renameTable). */
  private async requireFree(s: SqlSession, at: Located): Promise<void> {
    const [row] = await s.rows(this.objects.getAny(), [this.catalog, at.key, at.name]);
    if (row === undefined) return;
    const holder = row.record_type === 'VIEW' ? 'View' : 'Table';
    throw fail('ALREADY_EXISTS', `${holder} with same name already exists: ${at.shown}`);
  }

  private async requireNamespace(s: SqlSession, key: string, namespace: Namespace): Promise<void> {
    if (!(await namespaceExists(s, this.catalog, key))) throw fail('NO_SUCH_NAMESPACE', `Namespace does not exist: ${displayName(namespace)}`);
  }

  private requireKind(kind: SqlObjectKind): void {
    if (kind !== 'table' && kind !== 'view') throw fail('INVALID_VALUE', `Unknown object kind: ${String(kind)}`);
    // JdbcCatalog.newViewOps / listViews on a V0 database
    if (kind === 'view' && !this.viewsSupported)
      throw fail('UNSUPPORTED_OPERATION', 'This sql catalog database has no iceberg_type column (schema V0): views are not supported; open it with schemaVersion V1 to migrate');
  }

  private locate(namespace: Namespace, name: string, kind: SqlObjectKind): Located {
    const key = namespaceKey(namespace);
    checkName(name, kind);
    this.requireKind(kind);
    const shown = displayName(namespace, name);
    return { key, name, kind, shown, label: `${kind} ${shown}` };
  }

  private async reading<T>(what: string, work: (s: SqlSession) => Promise<T>): Promise<T> {
    try {
      return await this.driver.read(work);
    } catch (err) {
      throw this.failure(what, err, {});
    }
  }

  private async writing<T>(what: string, work: (s: SqlSession) => Promise<T>, codes: FaultCodes = {}): Promise<T> {
    try {
      return await this.driver.transaction(work);
    } catch (err) {
      throw this.failure(what, err, codes);
    }
  }

  private failure(what: string, err: unknown, codes: FaultCodes): IcefrontError {
    if (isIcefrontError(err)) return err;
    const fault = this.driver.fault(err);
    if (fault === 'unique-violation' && codes.unique) return fail(codes.unique, `${what}: another writer created the same row in ${this.driver.display}`, err);
    if (fault === 'conflict' && codes.conflict) return fail(codes.conflict, `${what}: lost a race with another writer of ${this.driver.display}`, err);
    return fail('STORAGE_FAILURE', `${what} failed in ${this.driver.display}: ${describeError(err)}`, err);
  }
}
