/**
 * Equality deletes written by Iceberg Java's own writers (tools/interop/writers/…/
 * EqualityDeleteWriter), committed through Icefront (`fx`, type: rest, in front of the Iceberg
 * REST fixture). Spark writes no equality deletes, so this is the suite's source of them.
 *
 * The writer's tables: `db.eq_part` (identity(region)): append ids 1–40, equality deletes on id
 * {3, 4, 10, 25} and on qty {200, 310} (ids 20, 31), one file per partition each, then ids 3 and 4
 * re-inserted with new values (newer than the deletes, so they survive); `db.eq_global`
 * (unpartitioned): append ids 1–30 in three files, an equality delete on note {'n7', 'n22'}, a
 * position delete of positions 0 and 1 of the first file (ids 1, 2), append ids 31–35.
 * Spark reads both straight from the fixture (client planning) and must return exactly the rows
 * those rules leave; the fixture's metadata tables must show the snapshots the writer reported
 * and real equality delete files (content 2).
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { ClientWorker, type CatalogRef } from './harness/clients.js';
import { restCatalog, startInteropIcefront } from './harness/icefront.js';
import { runEqualityDeleteWriter, type WriterResult } from './harness/java-writer.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { interopToolchain } from './harness/toolchain.js';

// Setup on a cold machine (pip + Maven downloads) plus the writer's and Spark's JVMs.
t.setTimeout(15 * 60_000);

const COLUMNS = ['id', 'region', 'qty', 'note'];

interface Row {
  readonly id: number;
  readonly region: string;
  readonly qty: number;
  readonly note: string | null;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const rule = (id: number): Row => ({ id, region: id % 2 === 0 ? 'east' : 'west', qty: id * 10, note: id % 3 === 0 ? null : `n${id}` });

/** Expected rows, from the writer's rules. */
const EXPECTED: Readonly<Record<'db.eq_part' | 'db.eq_global', readonly Row[]>> = {
  'db.eq_part': [
    ...range(1, 40)
      .filter((id) => ![3, 4, 10, 25].includes(id)) // equality deletes on id
      .filter((id) => ![200, 310].includes(id * 10)) // equality deletes on qty: ids 20, 31
      .map(rule),
    { id: 3, region: 'west', qty: 3333, note: 'again' },
    { id: 4, region: 'east', qty: 4444, note: 'again' },
  ],
  'db.eq_global': [
    ...range(1, 30)
      .filter((id) => !['n7', 'n22'].includes(rule(id).note ?? '')) // equality delete on note
      .filter((id) => ![1, 2].includes(id)) // position delete: positions 0, 1 of the first file
      .map(rule),
    ...range(31, 35).map(rule),
  ],
};

/** clients/rows.py's canonical form: compact JSON, keys sorted. */
function canonical(r: Row): string {
  return JSON.stringify({ id: r.id, note: r.note, qty: r.qty, region: r.region });
}

const env = await interopToolchain(t);
if (env) {
  const fixture = await startRestFixture(env);
  const ice = await startInteropIcefront([restCatalog('fx', fixture.url, 'upstream')]);
  const worker = ClientWorker.start(env);
  t.teardown(async () => {
    await worker.close();
    await ice.close();
    await fixture.close();
  });
  const direct: CatalogRef = { name: 'fixture', uri: fixture.url, planning: 'client' };

  let written: WriterResult | undefined;
  const wrote = await t.test('EqualityDeleteWriter commits both tables through Icefront', async (t) => {
    written = await runEqualityDeleteWriter(env, ice.url, 'fx');
    t.comment(`writer: ${JSON.stringify(written)}`);
    for (const [name, table] of Object.entries(written.tables)) {
      t.same(
        table.commits.map((c) => c.operation),
        ['append', 'delete', 'delete', 'append'],
        `${name}: append, two row deltas that only add deletes, append`,
      );
      t.same(
        table.commits.map((c) => c.parentId),
        [null, ...table.commits.slice(0, -1).map((c) => c.snapshotId)],
        `${name}: each commit's parent is the one before`,
      );
      t.same(
        table.commits.map((c) => c.sequenceNumber),
        [1, 2, 3, 4],
        `${name}: sequence numbers 1–4`,
      );
      const short = name.slice('db.'.length);
      const commits = ice.requests.filter((r) => r.method === 'POST' && r.url === `/v1/fx/namespaces/db/tables/${short}`);
      t.ok(commits.length === 4 && commits.every((r) => r.status === 200), `${name}: Icefront answered its four commits (POST /v1/fx/namespaces/db/tables/${short}) with 200`, {
        commits: commits.map((r) => ({ status: r.status, error: r.error })),
      });
    }
    const [, second, third] = written.tables['db.eq_part'].commits;
    t.same(
      [second, third].map((c) => c?.deleteFiles.map((f) => [f.content, f.partition?.region, f.values])),
      [
        [
          ['equality_deletes', 'east', [4, 10]],
          ['equality_deletes', 'west', [3, 25]],
        ],
        [
          ['equality_deletes', 'east', [200]],
          ['equality_deletes', 'west', [310]],
        ],
      ],
      'db.eq_part: each row delta wrote one equality delete file per partition',
    );
    const failed = ice.requests.filter((r) => r.status >= 400);
    t.comment(`Icefront answered ${ice.requests.length} requests; ≥ 400: ${JSON.stringify(failed.map((r) => `${r.method} ${r.url} ${r.status}`))}`);
  });

  await t.test('Spark straight from the fixture reads exactly the rows the deletes leave', { skip: wrote ? false : 'the writer failed' }, async (t) => {
    for (const table of ['db.eq_part', 'db.eq_global'] as const) {
      const expected = EXPECTED[table].map(canonical).sort();
      const got = await worker.run({ client: 'spark', catalog: direct, table, columns: COLUMNS });
      t.equal(got.count, expected.length, `${table}: row count`);
      t.same([...got.rows].sort(), expected, `${table}: rows (canonical, sorted)`, {
        onlyExpected: expected.filter((r) => !got.rows.includes(r)),
        onlyRead: got.rows.filter((r) => !expected.includes(r)),
      });
      t.equal(got.hash, createHash('sha256').update(expected.join('\n')).digest('hex'), `${table}: row hash (clients/rows.py)`);
      const ids = (await worker.run({ client: 'spark', catalog: direct, query: `SELECT id FROM {catalog}.${table} ORDER BY id` })) as { rows: Array<{ id: number }> };
      t.same(
        ids.rows.map((r) => r.id),
        EXPECTED[table].map((r) => r.id).sort((a, b) => a - b),
        `${table}: ids (SELECT id … ORDER BY id)`,
      );
    }
  });

  await t.test('the fixture’s metadata tables show the writer’s snapshots and its delete files', { skip: wrote ? false : 'the writer failed' }, async (t) => {
    const deleteFiles: Record<string, Array<[number, string | null, number[] | null, number]>> = {
      // content 2: equality deletes (one per partition per row delta); equality_ids: field ids.
      'db.eq_part': [
        [2, 'east', [1], 2],
        [2, 'east', [3], 1],
        [2, 'west', [1], 2],
        [2, 'west', [3], 1],
      ],
      // content 2 on note (field 4), content 1: the position delete file.
      'db.eq_global': [
        [1, null, null, 2],
        [2, null, [4], 2],
      ],
    };
    for (const table of ['db.eq_part', 'db.eq_global'] as const) {
      const commits = written?.tables[table].commits ?? [];
      const snapshots = (await worker.run({
        client: 'spark',
        catalog: direct,
        query: `SELECT CAST(snapshot_id AS STRING) AS id, operation,
                       summary['added-equality-delete-files'] AS eq, summary['added-position-delete-files'] AS pos
                FROM {catalog}.${table}.snapshots ORDER BY committed_at`,
      })) as { rows: Array<{ id: string; operation: string; eq: string | null; pos: string | null }> };
      t.same(
        snapshots.rows.map((r) => [r.id, r.operation]),
        commits.map((c) => [c.snapshotId, c.operation]),
        `${table}: the fixture's snapshots are the ones the writer reported, in order`,
      );
      t.same(
        snapshots.rows.map((r) => [r.eq ?? '0', r.pos ?? '0']),
        table === 'db.eq_part'
          ? [
              ['0', '0'],
              ['2', '0'],
              ['2', '0'],
              ['0', '0'],
            ]
          : [
              ['0', '0'],
              ['1', '0'],
              ['0', '1'],
              ['0', '0'],
            ],
        `${table}: snapshot summaries count the equality and position delete files each commit added`,
      );
      const part = table === 'db.eq_part' ? 'partition.region' : 'CAST(NULL AS STRING)';
      const files = (await worker.run({
        client: 'spark',
        catalog: direct,
        query: `SELECT content, ${part} AS region, equality_ids, record_count
                FROM {catalog}.${table}.delete_files ORDER BY content, region, equality_ids[0]`,
      })) as { rows: Array<{ content: number; region: string | null; equality_ids: number[] | null; record_count: number }> };
      t.same(
        files.rows.map((r) => [r.content, r.region, r.equality_ids, r.record_count]),
        deleteFiles[table],
        `${table}: delete_files (content 2 = equality deletes) as written`,
      );
    }
  });
}
