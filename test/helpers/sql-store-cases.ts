/**
 * The behaviour every dialect of the sql catalog store shares, run by
 * test/catalogs/sql/sqlite-store.test.ts and postgres-store.test.ts against real databases.
 */
import type { Test } from 'tap';
import { isIcefrontError, type ErrorCode } from '../../src/errors/index.js';
import { openSqlStore } from '../../src/catalogs/sql/open-sql-store.js';
import type { SqlCatalogStore, SqlStoreOptions } from '../../src/catalogs/sql/sql-store.js';

export interface SqlStoreFixture {
  readonly dialect: 'sqlite' | 'postgresql';
  /** The URI of the database most cases share (each case uses its own catalog name). */
  readonly sharedUri: string;
  /** The URI of a new, empty database. */
  freshDatabase(): Promise<string>;
  /** One statement run directly on a database, not through a store (another writer: Java, pyiceberg). */
  query(uri: string, sql: string, params?: readonly (string | null)[]): Promise<Record<string, unknown>[]>;
  /** Column names of a table, in order. */
  columns(uri: string, table: string): Promise<string[]>;
  /** Extra store options (SQLite: a short busy timeout). */
  readonly options?: Partial<SqlStoreOptions>;
}

/** Java JdbcUtil V0_CREATE_CATALOG_SQL and CREATE_NAMESPACE_PROPERTIES_TABLE_SQL, as JdbcCatalog runs them. */
export const JAVA_V0_DDL = [
  'CREATE TABLE iceberg_tables(catalog_name VARCHAR(255) NOT NULL,table_namespace VARCHAR(255) NOT NULL,table_name VARCHAR(255) NOT NULL,metadata_location VARCHAR(1000),previous_metadata_location VARCHAR(1000),PRIMARY KEY (catalog_name, table_namespace, table_name))',
  'CREATE TABLE iceberg_namespace_properties(catalog_name VARCHAR(255) NOT NULL,namespace VARCHAR(255) NOT NULL,property_key VARCHAR(255),property_value VARCHAR(1000),PRIMARY KEY (catalog_name, namespace, property_key))',
];

export async function rejectsWith(t: Test, promise: Promise<unknown>, code: ErrorCode, message?: string): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    t.ok(isIcefrontError(err, code), message ?? code, { found: isIcefrontError(err) ? err.code : err });
    return err;
  }
  t.fail(`${message ?? code}: resolved instead`);
  return undefined;
}

let catalogs = 0;

export function sqlStoreCases(t: Test, fx: SqlStoreFixture): void {
  const open = async (t: Test, extra: Partial<SqlStoreOptions> = {}): Promise<SqlCatalogStore> => {
    const store = await openSqlStore({ uri: fx.sharedUri, catalogName: `c${++catalogs}`, ...fx.options, ...extra });
    t.teardown(() => store.close());
    return store;
  };
  const loc = (n: number | string) => `file:///warehouse/t/metadata/${String(n).padStart(5, '0')}.metadata.json`;

  t.test('an empty database gets the V1 schema: Java V0 columns plus iceberg_type', async (t) => {
    const uri = await fx.freshDatabase();
    const store = await openSqlStore({ uri, catalogName: 'c', ...fx.options });
    t.teardown(() => store.close());
    t.equal(store.dialect, fx.dialect);
    t.equal(store.viewsSupported, true);
    t.same(await fx.columns(uri, 'iceberg_tables'), ['catalog_name', 'table_namespace', 'table_name', 'metadata_location', 'previous_metadata_location', 'iceberg_type']);
    t.same(await fx.columns(uri, 'iceberg_namespace_properties'), ['catalog_name', 'namespace', 'property_key', 'property_value']);
  });

  t.test('stores opening one empty database together all succeed', async (t) => {
    const uri = await fx.freshDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, (_, i) => openSqlStore({ uri, catalogName: `c${i}`, ...fx.options })));
    t.teardown(() => Promise.all(stores.map((s) => s.close())));
    t.same(stores.map((s) => s.viewsSupported), [true, true, true, true]);
  });

  t.test('a namespace is created with its properties and read back without the reserved exists row', async (t) => {
    const store = await open(t);
    t.equal(await store.namespaceExists(['db']), false);
    await store.createNamespace(['db'], { owner: 'ana', location: 'file:///w/db' });
    t.equal(await store.namespaceExists(['db']), true);
    t.same(await store.loadNamespace(['db']), { owner: 'ana', location: 'file:///w/db' });
    await store.createNamespace(['empty'], {});
    t.same(await store.loadNamespace(['empty']), {});
    await rejectsWith(t, store.createNamespace(['db'], {}), 'ALREADY_EXISTS');
    await rejectsWith(t, store.loadNamespace(['nope']), 'NO_SUCH_NAMESPACE');
    await rejectsWith(t, store.createNamespace(['x'], { exists: 'false' }), 'INVALID_VALUE', 'exists is reserved, as JdbcCatalog refuses it');
  });

  t.test('namespaces list their direct children, sorted, including those only rows below imply', async (t) => {
    const store = await open(t);
    await store.createNamespace(['b'], {});
    await store.createNamespace(['a'], {});
    await store.createNamespace(['a', 'z'], {});
    await store.createNamespace(['a', 'm', 'deep'], {});
    await store.swap([{ namespace: ['c', 'd'], name: 't', kind: 'table', next: loc(1) }]);
    t.same(await store.listNamespaces([]), [['a'], ['b'], ['c']]);
    t.same(await store.listNamespaces(['a']), [['a', 'm'], ['a', 'z']]);
    t.same(await store.listNamespaces(['a', 'm']), [['a', 'm', 'deep']]);
    t.same(await store.listNamespaces(['b']), []);
    t.equal(await store.namespaceExists(['c']), true, 'a table below makes c exist, as JdbcUtil.namespaceExists');
    t.equal(await store.namespaceExists(['a', 'm']), true);
    await rejectsWith(t, store.listNamespaces(['zz']), 'NO_SUCH_NAMESPACE');
  });

  t.test('LIKE wildcards and letter case in namespace names match literally', async (t) => {
    const store = await open(t);
    await store.createNamespace(['axb', 'c'], {});
    await store.createNamespace(['p%q', 'r'], {});
    await store.createNamespace(['low', 'x'], {});
    t.equal(await store.namespaceExists(['a_b']), false, '_ is escaped');
    t.equal(await store.namespaceExists(['p%']), false, '% is escaped');
    t.equal(await store.namespaceExists(['p%q']), true);
    t.equal(await store.namespaceExists(['LOW']), false, 'case matters in both dialects');
    t.same(await store.listNamespaces(['p%q']), [['p%q', 'r']]);
    await store.createNamespace(['a_b'], {});
    t.same(await store.listNamespaces(['a_b']), [], 'axb.c is not a child of a_b');
  });

  t.test('namespace names the schema cannot hold are refused', async (t) => {
    const store = await open(t);
    await rejectsWith(t, store.createNamespace(['a.b'], {}), 'INVALID_NAMESPACE', 'a level with a dot would read back as two');
    await rejectsWith(t, store.createNamespace([], {}), 'INVALID_NAMESPACE');
    await rejectsWith(t, store.createNamespace(['a', ''], {}), 'INVALID_NAMESPACE');
    await rejectsWith(t, store.createNamespace(['n'.repeat(256)], {}), 'INVALID_NAMESPACE', 'longer than VARCHAR(255)');
    await rejectsWith(t, store.namespaceExists(['x.y']), 'INVALID_NAMESPACE');
    await rejectsWith(t, store.swap([{ namespace: ['ok'], name: 't', kind: 'table', next: 'f'.repeat(1001) }]), 'INVALID_VALUE', 'location longer than VARCHAR(1000)');
    await rejectsWith(t, store.swap([{ namespace: ['ok'], name: '', kind: 'table', next: loc(1) }]), 'INVALID_IDENTIFIER');
  });

  t.test('namespace properties are set, replaced and removed in one transaction', async (t) => {
    const store = await open(t);
    await store.createNamespace(['db'], { a: '1', b: '2', c: '3' });
    await store.updateNamespace(['db'], { a: 'one', d: '4' }, ['b', 'missing']);
    t.same(await store.loadNamespace(['db']), { a: 'one', c: '3', d: '4' });
    await store.updateNamespace(['db'], {}, ['a', 'c', 'd', 'exists']);
    t.same(await store.loadNamespace(['db']), {});
    t.equal(await store.namespaceExists(['db']), true, 'removing every property leaves the namespace');
    await rejectsWith(t, store.updateNamespace(['db'], { k: 'v' }, ['k']), 'INVALID_VALUE', 'a key both set and removed');
    await rejectsWith(t, store.updateNamespace(['db'], { exists: 'no' }, []), 'INVALID_VALUE');
    await rejectsWith(t, store.updateNamespace(['nope'], { k: 'v' }, []), 'NO_SUCH_NAMESPACE');
    await rejectsWith(t, store.updateNamespace(['db'], { k: 'v'.repeat(1001) }, []), 'INVALID_VALUE');
  });

  t.test('a namespace drops only when nothing lives in it or below it', async (t) => {
    const store = await open(t);
    await rejectsWith(t, store.dropNamespace(['nope']), 'NO_SUCH_NAMESPACE');
    await store.createNamespace(['p'], {});
    await store.createNamespace(['p', 'child'], {});
    await rejectsWith(t, store.dropNamespace(['p']), 'NAMESPACE_NOT_EMPTY', 'a child namespace, as JdbcCatalog.dropNamespace');
    await store.dropNamespace(['p', 'child']);
    await store.swap([{ namespace: ['p'], name: 't', kind: 'table', next: loc(1) }]);
    await rejectsWith(t, store.dropNamespace(['p']), 'NAMESPACE_NOT_EMPTY', 'a table');
    await store.drop(['p'], 't', 'table');
    await store.swap([{ namespace: ['p'], name: 'v', kind: 'view', next: loc(2) }]);
    await rejectsWith(t, store.dropNamespace(['p']), 'NAMESPACE_NOT_EMPTY', 'a view');
    await store.drop(['p'], 'v', 'view');
    await store.dropNamespace(['p']);
    t.equal(await store.namespaceExists(['p']), false);
  });

  t.test('tables and views are created, listed by kind and read back', async (t) => {
    const store = await open(t);
    await store.createNamespace(['db'], {});
    await store.swap([
      { namespace: ['db'], name: 'orders', kind: 'table', next: loc(1) },
      { namespace: ['db'], name: 'accounts', kind: 'table', next: loc(2) },
      { namespace: ['db'], name: 'recent', kind: 'view', next: loc(3) },
    ]);
    t.same(await store.list(['db'], 'table'), ['accounts', 'orders']);
    t.same(await store.list(['db'], 'view'), ['recent']);
    t.same(await store.get(['db'], 'orders', 'table'), { metadataLocation: loc(1) });
    t.equal(await store.get(['db'], 'orders', 'view'), undefined, 'a table is not a view');
    t.equal(await store.get(['db'], 'recent', 'table'), undefined, 'a view is not a table');
    t.equal(await store.get(['db'], 'none', 'table'), undefined);
    await rejectsWith(t, store.list(['nope'], 'table'), 'NO_SUCH_NAMESPACE');
  });

  t.test('a table and a view may not share a name', async (t) => {
    const store = await open(t);
    await store.swap([{ namespace: ['db'], name: 't', kind: 'table', next: loc(1) }]);
    await store.swap([{ namespace: ['db'], name: 'v', kind: 'view', next: loc(2) }]);
    await rejectsWith(t, store.swap([{ namespace: ['db'], name: 't', kind: 'table', next: loc(3) }]), 'ALREADY_EXISTS');
    await rejectsWith(t, store.swap([{ namespace: ['db'], name: 't', kind: 'view', next: loc(3) }]), 'ALREADY_EXISTS');
    await rejectsWith(t, store.swap([{ namespace: ['db'], name: 'v', kind: 'table', next: loc(3) }]), 'ALREADY_EXISTS');
  });

  t.test('a swap moves a row from the expected location and keeps the previous one', async (t) => {
    const store = await open(t);
    await store.swap([{ namespace: ['db'], name: 't', kind: 'table', next: loc(1) }]);
    await store.swap([{ namespace: ['db'], name: 't', kind: 'table', expected: loc(1), next: loc(2) }]);
    t.same(await store.get(['db'], 't', 'table'), { metadataLocation: loc(2), previousMetadataLocation: loc(1) });
    await rejectsWith(t, store.swap([{ namespace: ['db'], name: 't', kind: 'table', expected: loc(1), next: loc(3) }]), 'COMMIT_FAILED', 'a stale expected location');
    await rejectsWith(t, store.swap([{ namespace: ['db'], name: 'gone', kind: 'table', expected: loc(1), next: loc(3) }]), 'NO_SUCH_TABLE', 'no row');
    await store.swap([{ namespace: ['db'], name: 'v', kind: 'view', next: loc(5) }]);
    await rejectsWith(t, store.swap([{ namespace: ['db'], name: 'v', kind: 'table', expected: loc(5), next: loc(6) }]), 'NO_SUCH_TABLE', 'a view row is no table');
    await store.swap([{ namespace: ['db'], name: 'v', kind: 'view', expected: loc(5), next: loc(6) }]);
    t.same(await store.get(['db'], 'v', 'view'), { metadataLocation: loc(6), previousMetadataLocation: loc(5) });
  });

  t.test('a transaction of three swaps whose last fails applies none of them', async (t) => {
    const store = await open(t);
    await store.swap(['a', 'b', 'c'].map((name) => ({ namespace: ['db'], name, kind: 'table' as const, next: loc(`${name}1`) })));
    await rejectsWith(
      t,
      store.swap([
        { namespace: ['db'], name: 'a', kind: 'table', expected: loc('a1'), next: loc('a2') },
        { namespace: ['db'], name: 'b', kind: 'table', expected: loc('b1'), next: loc('b2') },
        { namespace: ['db'], name: 'c', kind: 'table', expected: loc('stale'), next: loc('c2') },
      ]),
      'COMMIT_FAILED',
    );
    for (const name of ['a', 'b', 'c']) t.same(await store.get(['db'], name, 'table'), { metadataLocation: loc(`${name}1`) }, `${name} unchanged`);
    await rejectsWith(
      t,
      store.swap([
        { namespace: ['db'], name: 'a', kind: 'table', expected: loc('a1'), next: loc('a2') },
        { namespace: ['db'], name: 'new', kind: 'table', next: loc('n1') },
        { namespace: ['db'], name: 'c', kind: 'table', next: loc('c2') },
      ]),
      'ALREADY_EXISTS',
      'an insert of a taken name rolls back the rest',
    );
    t.same(await store.get(['db'], 'a', 'table'), { metadataLocation: loc('a1') });
    t.equal(await store.get(['db'], 'new', 'table'), undefined);
  });

  t.test('eight concurrent swaps from two stores with one expected location: one wins, seven fail', async (t) => {
    const catalogName = `race${++catalogs}`;
    const one = await openSqlStore({ uri: fx.sharedUri, catalogName, ...fx.options });
    const two = await openSqlStore({ uri: fx.sharedUri, catalogName, ...fx.options });
    t.teardown(() => Promise.all([one.close(), two.close()]));
    await one.swap([{ namespace: ['db'], name: 't', kind: 'table', next: loc(0) }]);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : two).swap([{ namespace: ['db'], name: 't', kind: 'table', expected: loc(0), next: loc(`w${i}`) }])),
    );
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    t.equal(won.length, 1, 'exactly one swap succeeds');
    t.same(
      results.filter((r) => r.status === 'rejected').map((r) => (isIcefrontError(r.reason) ? r.reason.code : String(r.reason))),
      Array(7).fill('COMMIT_FAILED'),
    );
    t.same(await two.get(['db'], 't', 'table'), { metadataLocation: loc(`w${won[0]}`), previousMetadataLocation: loc(0) });
  });

  t.test('drop removes one row of its kind and answers it', async (t) => {
    const store = await open(t);
    await store.swap([{ namespace: ['db'], name: 't', kind: 'table', next: loc(1) }]);
    await store.swap([{ namespace: ['db'], name: 't', kind: 'table', expected: loc(1), next: loc(2) }]);
    await store.swap([{ namespace: ['db'], name: 'v', kind: 'view', next: loc(3) }]);
    t.equal(await store.drop(['db'], 'v', 'table'), undefined, 'a view is not dropped as a table');
    t.same(await store.drop(['db'], 't', 'table'), { metadataLocation: loc(2), previousMetadataLocation: loc(1) });
    t.equal(await store.drop(['db'], 't', 'table'), undefined);
    t.same(await store.drop(['db'], 'v', 'view'), { metadataLocation: loc(3) });
  });

  t.test('rename moves a row, checking source, target namespace and target name', async (t) => {
    const store = await open(t);
    await store.createNamespace(['src'], {});
    await store.createNamespace(['dst'], {});
    await store.swap([
      { namespace: ['src'], name: 't', kind: 'table', next: loc(1) },
      { namespace: ['src'], name: 'v', kind: 'view', next: loc(2) },
      { namespace: ['dst'], name: 'taken', kind: 'table', next: loc(3) },
      { namespace: ['dst'], name: 'taken_view', kind: 'view', next: loc(4) },
    ]);
    await rejectsWith(t, store.rename({ namespace: ['src'], name: 'nope' }, { namespace: ['dst'], name: 'x' }, 'table'), 'NO_SUCH_TABLE');
    await rejectsWith(t, store.rename({ namespace: ['src'], name: 'v' }, { namespace: ['dst'], name: 'x' }, 'table'), 'NO_SUCH_TABLE', 'a view is not renamed as a table');
    await rejectsWith(t, store.rename({ namespace: ['src'], name: 'nope' }, { namespace: ['dst'], name: 'x' }, 'view'), 'NO_SUCH_VIEW');
    await rejectsWith(t, store.rename({ namespace: ['src'], name: 't' }, { namespace: ['absent'], name: 't' }, 'table'), 'NO_SUCH_NAMESPACE');
    await rejectsWith(t, store.rename({ namespace: ['src'], name: 't' }, { namespace: ['dst'], name: 'taken' }, 'table'), 'ALREADY_EXISTS');
    await rejectsWith(t, store.rename({ namespace: ['src'], name: 't' }, { namespace: ['dst'], name: 'taken_view' }, 'table'), 'ALREADY_EXISTS', 'a view holds the name');
    await store.rename({ namespace: ['src'], name: 't' }, { namespace: ['src'], name: 't' }, 'table');
    await store.rename({ namespace: ['src'], name: 't' }, { namespace: ['dst'], name: 'moved' }, 'table');
    t.equal(await store.get(['src'], 't', 'table'), undefined);
    t.same(await store.get(['dst'], 'moved', 'table'), { metadataLocation: loc(1) });
    await store.rename({ namespace: ['src'], name: 'v' }, { namespace: ['dst'], name: 'v2' }, 'view');
    t.same(await store.list(['dst'], 'view'), ['taken_view', 'v2']);
  });

  t.test('rows another writer left are read as theirs: NULL iceberg_type is a table', async (t) => {
    const store = await open(t);
    const catalogName = `c${catalogs}`;
    // pyiceberg SqlCatalog.create_namespace with properties writes no exists row; a Java V0 writer leaves iceberg_type NULL
    await fx.query(fx.sharedUri, 'INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) VALUES (?, ?, ?, ?)', [catalogName, 'py', 'owner', 'bo']);
    await fx.query(
      fx.sharedUri,
      'INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location) VALUES (?, ?, ?, ?, NULL)',
      [catalogName, 'java.v0', 'old', loc(1)],
    );
    t.same(await store.loadNamespace(['py']), { owner: 'bo' });
    t.same(await store.listNamespaces([]), [['java'], ['py']]);
    t.same(await store.list(['java', 'v0'], 'table'), ['old']);
    t.same(await store.list(['java', 'v0'], 'view'), []);
    await store.swap([{ namespace: ['java', 'v0'], name: 'old', kind: 'table', expected: loc(1), next: loc(2) }]);
    t.same(await store.get(['java', 'v0'], 'old', 'table'), { metadataLocation: loc(2), previousMetadataLocation: loc(1) });
    const [row] = await fx.query(fx.sharedUri, 'SELECT iceberg_type FROM iceberg_tables WHERE catalog_name = ? AND table_name = ?', [catalogName, 'old']);
    t.equal(row?.iceberg_type, null, 'a commit leaves the type as it was');
    await store.swap([{ namespace: ['java', 'v0'], name: 'new', kind: 'table', next: loc(3) }]);
    const [created] = await fx.query(fx.sharedUri, 'SELECT iceberg_type FROM iceberg_tables WHERE catalog_name = ? AND table_name = ?', [catalogName, 'new']);
    t.equal(created?.iceberg_type, 'TABLE', 'rows Icefront creates are typed, as Java V1 writes them');
  });

  t.test('catalog names keep catalogs in one database apart', async (t) => {
    const one = await open(t);
    const two = await open(t);
    await one.createNamespace(['db'], {});
    await one.swap([{ namespace: ['db'], name: 't', kind: 'table', next: loc(1) }]);
    t.equal(await two.namespaceExists(['db']), false);
    t.equal(await two.get(['db'], 't', 'table'), undefined);
    await two.swap([{ namespace: ['db'], name: 't', kind: 'table', next: loc(2) }]);
    t.same(await one.get(['db'], 't', 'table'), { metadataLocation: loc(1) });
  });

  t.test('a V0 database (Java JdbcUtil DDL) is used as V0 and never altered', async (t) => {
    const uri = await fx.freshDatabase();
    for (const ddl of JAVA_V0_DDL) await fx.query(uri, ddl);
    const store = await openSqlStore({ uri, catalogName: 'java', ...fx.options });
    t.teardown(() => store.close());
    t.equal(store.viewsSupported, false);
    await store.createNamespace(['db'], {});
    await store.swap([{ namespace: ['db'], name: 't', kind: 'table', next: loc(1) }]);
    await store.swap([{ namespace: ['db'], name: 't', kind: 'table', expected: loc(1), next: loc(2) }]);
    t.same(await store.list(['db'], 'table'), ['t']);
    t.same(await store.get(['db'], 't', 'table'), { metadataLocation: loc(2), previousMetadataLocation: loc(1) });
    await store.rename({ namespace: ['db'], name: 't' }, { namespace: ['db'], name: 'u' }, 'table');
    t.same(await store.drop(['db'], 'u', 'table'), { metadataLocation: loc(2), previousMetadataLocation: loc(1) });
    await rejectsWith(t, store.list(['db'], 'view'), 'UNSUPPORTED_OPERATION');
    await rejectsWith(t, store.get(['db'], 'v', 'view'), 'UNSUPPORTED_OPERATION');
    await rejectsWith(t, store.swap([{ namespace: ['db'], name: 'v', kind: 'view', next: loc(3) }]), 'UNSUPPORTED_OPERATION');
    t.notOk((await fx.columns(uri, 'iceberg_tables')).includes('iceberg_type'), 'no column added');
  });

  t.test('schemaVersion V1 migrates a V0 database as Java does, its rows staying tables', async (t) => {
    const uri = await fx.freshDatabase();
    for (const ddl of JAVA_V0_DDL) await fx.query(uri, ddl);
    await fx.query(uri, "INSERT INTO iceberg_tables VALUES ('java', 'db', 'old', ?, NULL)", [loc(1)]);
    const store = await openSqlStore({ uri, catalogName: 'java', schemaVersion: 'V1', ...fx.options });
    t.teardown(() => store.close());
    t.equal(store.viewsSupported, true);
    t.equal((await fx.columns(uri, 'iceberg_tables')).at(-1), 'iceberg_type');
    t.same(await store.list(['db'], 'table'), ['old']);
    await store.swap([{ namespace: ['db'], name: 'v', kind: 'view', next: loc(2) }]);
    t.same(await store.list(['db'], 'view'), ['v']);
    const again = await openSqlStore({ uri, catalogName: 'java', ...fx.options });
    t.teardown(() => again.close());
    t.equal(again.viewsSupported, true, 'the migration stays');
  });

  t.test('schemaVersion V0 on an empty database creates Java V0 tables', async (t) => {
    const uri = await fx.freshDatabase();
    const store = await openSqlStore({ uri, catalogName: 'c', schemaVersion: 'V0', ...fx.options });
    t.teardown(() => store.close());
    t.equal(store.viewsSupported, false);
    t.same(await fx.columns(uri, 'iceberg_tables'), ['catalog_name', 'table_namespace', 'table_name', 'metadata_location', 'previous_metadata_location']);
  });

  t.test('a closed store refuses work', async (t) => {
    const store = await openSqlStore({ uri: fx.sharedUri, catalogName: 'closed', ...fx.options });
    await store.close();
    await store.close();
    await rejectsWith(t, store.namespaceExists(['db']), 'STORAGE_FAILURE');
  });
}
