import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseSync as Database } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { openSqlStore } from '../../../src/catalogs/sql/open-sql-store.js';
import { runCommand } from '../../helpers/run-command.js';
import { rejectsWith, sqlStoreCases } from '../../helpers/sql-store-cases.js';

// the store loads node:sqlite first, without Node 22's ExperimentalWarning; this file then shares the loaded module
await (await openSqlStore({ uri: 'sqlite::memory:', catalogName: 'warm-up' })).close();
const { DatabaseSync } = await import('node:sqlite');

const dir = mkdtempSync(path.join(os.tmpdir(), 'icefront-sqlite-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => path.join(dir, `db-${++files}.db`);

function withDb<T>(uri: string, use: (db: Database) => T): T {
  const db = new DatabaseSync(uri.replace(/^sqlite:\/*/, '/'));
  try {
    return use(db);
  } finally {
    db.close();
  }
}

t.test('the shared store behaviour, on SQLite files', async (t) => {
  const sharedUri = `sqlite:${freshFile()}`;
  sqlStoreCases(t, {
    dialect: 'sqlite',
    sharedUri,
    options: { busyTimeoutMs: 2_000 },
    freshDatabase: async () => `sqlite://${freshFile()}`,
    query: async (uri, sql, params = []) => withDb(uri, (db) => db.prepare(sql).all(...params) as Record<string, unknown>[]),
    columns: async (uri, table) => withDb(uri, (db) => db.prepare('SELECT name FROM pragma_table_info(?)').all(table).map((r) => String(r.name))),
  });
});

t.test('sqlite uris name absolute files or memory', async (t) => {
  const file = freshFile();
  for (const uri of [`sqlite:${file}`, `sqlite://${file}`, `sqlite:///${file}`]) {
    const store = await openSqlStore({ uri, catalogName: 'c' });
    await store.createNamespace([`ns${uri.length}`], {});
    await store.close();
  }
  const store = await openSqlStore({ uri: `sqlite:${file}`, catalogName: 'c' });
  t.equal((await store.listNamespaces([])).length, 3, 'the three spellings are one file');
  await store.close();
  const memory = await openSqlStore({ uri: 'sqlite::memory:', catalogName: 'c' });
  await memory.createNamespace(['m'], {});
  t.same(await memory.listNamespaces([]), [['m']]);
  await memory.close();
  await rejectsWith(t, openSqlStore({ uri: 'sqlite:relative.db', catalogName: 'c' }), 'CONFIG_INVALID');
  await rejectsWith(t, openSqlStore({ uri: `sqlite:${path.join(dir, 'no-such-dir', 'x.db')}`, catalogName: 'c' }), 'STORAGE_FAILURE');
});

t.test('the file is switched to WAL and commits are synchronous', async (t) => {
  const file = freshFile();
  const store = await openSqlStore({ uri: `sqlite:${file}`, catalogName: 'c' });
  t.teardown(() => store.close());
  t.equal(withDb(`sqlite:${file}`, (db) => db.prepare('PRAGMA journal_mode').get()?.journal_mode), 'wal');
});

t.test('a store opens while another process holds the file locked, as two replicas starting together do', async (t) => {
  const file = freshFile();
  const other = new DatabaseSync(file);
  t.teardown(() => other.close());
  other.exec('PRAGMA journal_mode = DELETE');
  other.exec('BEGIN EXCLUSIVE');
  other.exec('CREATE TABLE held (a)');
  const released = Date.now() + 150;
  setTimeout(() => other.exec('COMMIT'), 150);
  const store = await openSqlStore({ uri: `sqlite:${file}`, catalogName: 'c' });
  t.teardown(() => store.close());
  t.ok(Date.now() >= released - 5, 'the open waited for the lock');
  await store.createNamespace(['db'], {});
  t.same(await store.listNamespaces([]), [['db']], 'and the store works once it is free');
});

t.test('a write waits for another connection lock without blocking the event loop, then gives up', async (t) => {
  const file = freshFile();
  const store = await openSqlStore({ uri: `sqlite:${file}`, catalogName: 'c', busyTimeoutMs: 300 });
  t.teardown(() => store.close());
  await store.swap([{ namespace: ['db'], name: 't', kind: 'table', next: 'file:///m/1.json' }]);
  const other = new DatabaseSync(file);
  t.teardown(() => other.close());

  other.exec('BEGIN IMMEDIATE');
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 10);
  const started = Date.now();
  await rejectsWith(t, store.swap([{ namespace: ['db'], name: 't', kind: 'table', expected: 'file:///m/1.json', next: 'file:///m/2.json' }]), 'COMMIT_FAILED', 'a commit losing the lock race is a retryable conflict');
  clearInterval(ticker);
  t.ok(Date.now() - started >= 280, 'waited for the timeout');
  t.ok(ticks >= 5, `timers kept running while it waited (${ticks})`);
  await rejectsWith(t, store.createNamespace(['x'], {}), 'STORAGE_FAILURE', 'other writes: a storage failure');
  t.same(await store.get(['db'], 't', 'table'), { metadataLocation: 'file:///m/1.json' }, 'reads go on under WAL');

  setTimeout(() => other.exec('ROLLBACK'), 100);
  await store.swap([{ namespace: ['db'], name: 't', kind: 'table', expected: 'file:///m/1.json', next: 'file:///m/2.json' }]);
  t.same(await store.get(['db'], 't', 'table'), { metadataLocation: 'file:///m/2.json', previousMetadataLocation: 'file:///m/1.json' }, 'a lock released in time is waited for');
});

t.test('stores on four threads racing on one file: one swap per expected location wins', async (t) => {
  const file = freshFile();
  const store = await openSqlStore({ uri: `sqlite:${file}`, catalogName: 'c' });
  t.teardown(() => store.close());
  await store.swap([{ namespace: ['db'], name: 't', kind: 'table', next: 'file:///m/0.json' }]);
  const source = `
    const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.tsx).then((tsx) => tsx.register()).then(() => import(workerData.module)).then(async ({ openSqlStore }) => {
      const store = await openSqlStore({ uri: workerData.uri, catalogName: 'c' });
      const outcomes = [];
      for (let round = 0; round < 5; round++) {
        const expected = 'file:///m/' + round + '.json';
        try {
          await store.swap([{ namespace: ['db'], name: 't', kind: 'table', expected, next: 'file:///m/' + (round + 1) + '.json' }]);
          outcomes.push('won');
        } catch (err) {
          outcomes.push(err.code);
          // a loser waits until the winner's row is there, then races for the next round
          while ((await store.get(['db'], 't', 'table')).metadataLocation === expected) await new Promise((r) => setTimeout(r, 1));
        }
      }
      await store.close();
      parentPort.postMessage(outcomes);
    });`;
  const module = new URL('../../../src/catalogs/sql/open-sql-store.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const results = await Promise.all(
    Array.from({ length: 4 }, () => {
      const worker = new Worker(source, { eval: true, workerData: { uri: `sqlite:${file}`, module, tsx } });
      return new Promise<string[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    }),
  );
  for (let round = 0; round < 5; round++) {
    const outcomes = results.map((r) => r[round]);
    t.equal(outcomes.filter((o) => o === 'won').length, 1, `round ${round}: one winner`);
    t.equal(outcomes.filter((o) => o === 'COMMIT_FAILED').length, 3, `round ${round}: three COMMIT_FAILED`);
  }
  t.same(await store.get(['db'], 't', 'table'), { metadataLocation: 'file:///m/5.json', previousMetadataLocation: 'file:///m/4.json' });
});

t.test('loading node:sqlite prints no ExperimentalWarning, other warnings still print', async (t) => {
  const module = new URL('../../../src/catalogs/sql/open-sql-store.ts', import.meta.url).href;
  const script = `const { openSqlStore } = await import(${JSON.stringify(module)});
    const store = await openSqlStore({ uri: 'sqlite::memory:', catalogName: 'c' });
    await store.close();
    process.emitWarning('a later experiment', 'ExperimentalWarning');`;
  const result = await runCommand(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
  t.equal(result.code, 0, 'the script ran', { stderr: result.stderr });
  t.notMatch(result.stderr, /SQLite is an experimental feature/);
  t.match(result.stderr, /ExperimentalWarning: a later experiment/);
});
