import t from 'tap';
import { openSqlStore } from '../../../src/catalogs/sql/open-sql-store.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import { freePort } from '../../helpers/free-port.js';
import { PASSWORD, PASSWORD_ROLE, postgresMissing, startPostgres, type PostgresCluster } from '../../helpers/postgres.js';
import { rejectsWith, sqlStoreCases } from '../../helpers/sql-store-cases.js';

const missing = postgresMissing();
if (missing !== undefined) {
  t.plan(0, missing);
} else {
  const cluster = await startPostgres();
  t.teardown(() => cluster.stop());
  t.comment(`PostgreSQL cluster started in ${cluster.startMs} ms`);
  definePostgresTests(cluster);
}

/** The message and cause chain of an error, as a log would show them. */
function everything(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    parts.push(e.message, e.stack ?? '');
    if (e instanceof AggregateError) parts.push(...e.errors.map((inner: unknown) => everything(inner)));
  }
  return parts.join('\n');
}

function definePostgresTests(cluster: PostgresCluster): void {
  // the cases write `?` placeholders, as JDBC does
  const query = (uri: string, sql: string, params: readonly (string | null)[] = []) => {
    let n = 0;
    return cluster.query(sql.replace(/\?/g, () => `$${++n}`), params, uri);
  };

  t.test('the shared store behaviour, on PostgreSQL', async (t) => {
    sqlStoreCases(t, {
      dialect: 'postgresql',
      sharedUri: cluster.uri(),
      freshDatabase: () => cluster.createDatabase(),
      query,
      columns: async (uri, table) =>
        (await query(uri, 'SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position', [table])).map((r) => String(r.column_name)),
    });
  });

  t.test('postgres:// and pyiceberg-style postgresql+psycopg2:// name the same database', async (t) => {
    for (const scheme of ['postgres', 'postgresql+psycopg2']) {
      const store = await openSqlStore({ uri: cluster.uri().replace(/^postgresql/, scheme), catalogName: `scheme-${scheme}` });
      await store.createNamespace(['db'], {});
      t.equal(await store.namespaceExists(['db']), true, scheme);
      await store.close();
    }
  });

  t.test('passwords never appear in errors', async (t) => {
    const secret = 'Sup3r-Secret-Pw';
    const closed = await freePort();
    const refused = (await rejectsWith(
      t,
      openSqlStore({ uri: `postgresql://bob:${secret}@127.0.0.1:${closed}/warehouse`, catalogName: 'c' }),
      'STORAGE_FAILURE',
      'a refused connection',
    )) as Error;
    t.notMatch(everything(refused), secret);
    t.match(refused.message, `127.0.0.1:${closed}/warehouse`, 'the message names host, port and database');
    t.match(refused.message, 'bob@', 'and the user');

    const wrong = (await rejectsWith(
      t,
      openSqlStore({ uri: `postgresql://${PASSWORD_ROLE}:${secret}@127.0.0.1:${cluster.port}/icefront`, catalogName: 'c' }),
      'STORAGE_FAILURE',
      'a wrong password',
    )) as Error;
    t.match(wrong.message, /password authentication failed/);
    t.notMatch(everything(wrong), secret);

    const encoded = encodeURIComponent('p@ss/wörd');
    const query = (await rejectsWith(
      t,
      openSqlStore({ uri: `postgresql://bob@127.0.0.1:${closed}/w?password=${encoded}`, catalogName: 'c' }),
      'STORAGE_FAILURE',
      'a password in the query string',
    )) as Error;
    t.notMatch(everything(query), 'p@ss/wörd');
    t.notMatch(everything(query), encoded);

    const bad = (await rejectsWith(t, openSqlStore({ uri: `postgresql://bob:${secret}@[bad/db`, catalogName: 'c' }), 'CONFIG_INVALID', 'an unparsable uri')) as Error;
    t.notMatch(everything(bad), secret);

    const ok = await openSqlStore({ uri: `postgresql://${PASSWORD_ROLE}:${PASSWORD}@127.0.0.1:${cluster.port}/icefront`, catalogName: 'pw' });
    t.equal(ok.dialect, 'postgresql', 'the right password opens it');
    await ok.close();
  });

  t.test('a connection lost at COMMIT or at a one-table swap (its own commit) leaves the outcome unknown; lost before a COMMIT, a storage failure', async (t) => {
    const uri = await cluster.createDatabase();
    const store = await openSqlStore({ uri, catalogName: 'c', poolSize: 2 });
    t.teardown(() => store.close());
    await store.swap([
      { namespace: ['db'], name: 'at_commit', kind: 'table', next: 'file:///m/1.json' },
      { namespace: ['db'], name: 'before_commit', kind: 'table', next: 'file:///m/1.json' },
      { namespace: ['db'], name: 'other', kind: 'table', next: 'file:///m/1.json' },
    ]);
    // the server ends its own connection: at COMMIT (a deferred constraint trigger) or at the UPDATE (a row trigger)
    await cluster.query('CREATE FUNCTION end_session() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$', [], uri);
    await cluster.query(
      "CREATE CONSTRAINT TRIGGER die_at_commit AFTER UPDATE ON iceberg_tables DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.table_name = 'at_commit') EXECUTE FUNCTION end_session()",
      [],
      uri,
    );
    await cluster.query(
      "CREATE TRIGGER die_at_update AFTER UPDATE ON iceberg_tables FOR EACH ROW WHEN (NEW.table_name = 'before_commit') EXECUTE FUNCTION end_session()",
      [],
      uri,
    );
    const move = (name: string) => ({ namespace: ['db'], name, kind: 'table' as const, expected: 'file:///m/1.json', next: 'file:///m/2.json' });
    await rejectsWith(t, store.swap([move('at_commit'), move('other')]), 'COMMIT_STATE_UNKNOWN', 'two tables: lost at COMMIT');
    await rejectsWith(t, store.swap([move('before_commit'), move('other')]), 'STORAGE_FAILURE', 'two tables: lost at an UPDATE, before COMMIT was sent');
    await rejectsWith(t, store.swap([move('before_commit')]), 'COMMIT_STATE_UNKNOWN', 'one table: the UPDATE is its own commit');
    await rejectsWith(t, store.swap([move('at_commit')]), 'COMMIT_STATE_UNKNOWN', 'one table, lost at its implicit commit');
    for (const name of ['at_commit', 'before_commit', 'other'])
      t.same(await store.get(['db'], name, 'table'), { metadataLocation: 'file:///m/1.json' }, `${name}: the pool replaced the lost connections; the server had rolled every one back, which the client could not always know`);
  });

  t.test('namespace property updates racing on one new key all land (one upsert each, no unique violation)', async (t) => {
    const store = await openSqlStore({ uri: cluster.uri(), catalogName: 'prop-race', poolSize: 8 });
    t.teardown(() => store.close());
    await store.createNamespace(['db'], {});
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.updateNamespace(['db'], { shared: `v${i}` }, [])));
    t.same(
      results.map((r) => (r.status === 'fulfilled' ? 'ok' : isIcefrontError(r.reason) ? r.reason.code : String(r.reason))),
      Array(8).fill('ok'),
    );
    t.match((await store.loadNamespace(['db'])).shared, /^v\d$/);
  });
}
