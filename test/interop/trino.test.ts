/**
 * Trino 476 (issue #29 item 1) through Icefront, in front of the Iceberg REST fixture:
 *
 *   Trino 476 ──▶ Icefront fx   (type: rest, planning: upstream) ──▶ REST fixture
 *             └─▶ Icefront fxfs (type: filesystem over the fixture's warehouse folder)
 *   Spark ──▶ Icefront fx (writes), and straight on the fixture (the truth)
 *
 * Trino plans every scan itself (client side); it reaches Icefront for config, namespaces, table
 * loads, commits and metrics. Each Trino catalog is an Iceberg REST catalog created on first use
 * (`CREATE CATALOG … USING iceberg`, clients/trino_client.py) with nested namespaces on.
 *   (a) nested namespaces Spark creates through Icefront: SHOW SCHEMAS / SHOW TABLES in Trino,
 *       Icefront's `?parent=` answers equal to the fixture's, a nested schema Trino creates;
 *   (b) `$snapshots` and `$files` of a table Spark wrote (db.events of tables.ts) equal Spark's
 *       `.snapshots` / `.files` straight on the fixture;
 *   (c) `FOR VERSION AS OF` each snapshot: Spark's `VERSION AS OF` rows on the fixture;
 *   (d) Trino writes through fx (CREATE TABLE AS, INSERT, row-level and metadata DELETE, UPDATE):
 *       Spark straight on the fixture reads exactly the rows the statements leave, and the
 *       fixture's snapshots list the operations.
 */
import t from 'tap';
import { ClientWorker, type CatalogRef, type ScanResult } from './harness/clients.js';
import { filesystemCatalog, restCatalog, startInteropIcefront } from './harness/icefront.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { interopToolchain } from './harness/toolchain.js';
import { startTrinoFor } from './harness/trino.js';
import { INTEROP_TABLES } from './tables.js';

// A cold machine: the toolchain and Trino's 820 MB install, then Spark's writes and Trino's reads.
t.setTimeout(30 * 60_000);

const env = await interopToolchain(t);
const trino = env && (await startTrinoFor(t));
if (env && trino) {
  for (const [name, version] of Object.entries(env.versions)) t.comment(`${name} ${version}`);
  const fixture = await startRestFixture(env);
  const ice = await startInteropIcefront([restCatalog('fx', fixture.url, 'upstream'), filesystemCatalog('fxfs', fixture.warehouseDir)], { batchSize: 2 });
  const worker = ClientWorker.start(env);
  t.teardown(async () => {
    await worker.close();
    await trino.close();
    await ice.close();
    await fixture.close();
  });

  /** Spark straight on the fixture (the truth), and Spark through Icefront (the writer). */
  const direct: CatalogRef = { name: 'fixture', uri: fixture.url, planning: 'client' };
  const sparkVia: CatalogRef = { name: 'ice_fx', uri: ice.url, warehouse: 'fx', planning: 'client' };
  /** Trino through Icefront's catalogs, and Trino straight on the fixture (a control). */
  const trinoVia = (catalog: 'fx' | 'fxfs'): CatalogRef => ({ name: `ice_${catalog}`, uri: ice.url, warehouse: catalog, trino: trino.url });
  const trinoDirect: CatalogRef = { name: 'fixture', uri: fixture.url, trino: trino.url };

  const spark = (catalog: CatalogRef, sql: string[]) => worker.run({ client: 'spark', catalog, sql }, 300_000);
  const sparkQuery = async <R>(catalog: CatalogRef, query: string) => ((await worker.run({ client: 'spark', catalog, query }, 300_000)) as { rows: R[] }).rows;
  const trinoSql = (catalog: CatalogRef, sql: string[]) => worker.run({ client: 'trino', catalog, sql }, 300_000);
  const trinoQuery = async <R>(catalog: CatalogRef, query: string) => ((await worker.run({ client: 'trino', catalog, query }, 300_000)) as { rows: R[] }).rows;
  /** Icefront's requests from index `from` on, for failure messages. */
  const since = (from: number) => ice.requests.slice(from).map((r) => `${r.method} ${r.url} ${r.status}${r.error ? ` ${r.error.slice(0, 200)}` : ''}`);

  await t.test('(a) nested namespaces: Trino lists what Spark created through Icefront', async (t) => {
    await spark(sparkVia, [
      'CREATE NAMESPACE {catalog}.nest',
      'CREATE NAMESPACE {catalog}.nest.sub',
      'CREATE NAMESPACE {catalog}.nest.sub.deep',
      'CREATE TABLE {catalog}.nest.top (id bigint) USING iceberg',
      'CREATE TABLE {catalog}.nest.sub.t (id bigint, name string) USING iceberg',
      "INSERT INTO {catalog}.nest.sub.t VALUES (1, 'one'), (2, 'two'), (3, 'three')",
    ]);
    const from = ice.requests.length;
    const schemas = async (catalog: CatalogRef) =>
      (await trinoQuery<{ Schema: string }>(catalog, 'SHOW SCHEMAS FROM {catalog}')).map((r) => r.Schema).filter((s) => s === 'nest' || s.startsWith('nest.')).sort();
    const viaFx = await schemas(trinoVia('fx'));
    t.same(viaFx, ['nest', 'nest.sub', 'nest.sub.deep'], 'SHOW SCHEMAS through fx lists every nested level', { requests: since(from) });
    t.same(viaFx, await schemas(trinoDirect), 'the same as Trino straight on the fixture');
    // fxfs sees folders: the fixture's JDBC catalog keeps namespaces as rows, and only a table
    // makes a folder; the empty nest.sub.deep has none.
    t.same(await schemas(trinoVia('fxfs')), ['nest', 'nest.sub'], 'SHOW SCHEMAS through fxfs lists the levels that hold tables (folders)', { requests: since(from) });

    for (const catalog of ['fx', 'fxfs'] as const) {
      const tables = async (schema: string) => (await trinoQuery<{ Table: string }>(trinoVia(catalog), `SHOW TABLES FROM {catalog}."${schema}"`)).map((r) => r.Table).sort();
      t.same(await tables('nest'), ['top'], `SHOW TABLES FROM "nest" through ${catalog}`);
      t.same(await tables('nest.sub'), ['t'], `SHOW TABLES FROM "nest.sub" through ${catalog}`);
      const rows = await trinoQuery<{ id: number; name: string }>(trinoVia(catalog), 'SELECT id, name FROM {catalog}."nest.sub".t ORDER BY id');
      t.same(rows, [{ id: 1, name: 'one' }, { id: 2, name: 'two' }, { id: 3, name: 'three' }], `Trino reads nest.sub.t through ${catalog}`);
    }

    // What Icefront answered Trino's listing: the same children as the fixture's own answer.
    const listed = ice.requests.slice(from).filter((r) => r.method === 'GET' && /^\/v1\/fx\/namespaces\?(.*&)?parent=nest(&|$)/.test(r.url));
    t.ok(listed.length > 0 && listed.every((r) => r.status === 200), 'Trino asked Icefront fx for the children of nest (GET …/namespaces?parent=nest), answered 200', {
      requests: since(from),
    });
    for (const [parent, upstreamParent] of [
      ['nest', 'nest'],
      ['nest%1Fsub', 'nest%2Esub'], // the fixture's namespace-separator is %2E; Icefront's is %1F
    ] as const) {
      const ours = (await (await fetch(`${ice.url}/v1/fx/namespaces?parent=${parent}`)).json()) as { namespaces: string[][] };
      const theirs = (await (await fetch(`${fixture.url}/v1/namespaces?parent=${upstreamParent}`)).json()) as { namespaces: string[][] };
      t.ok(theirs.namespaces.length > 0, `the fixture lists children of ${upstreamParent}`);
      t.same(ours.namespaces, theirs.namespaces, `Icefront fx answers ?parent=${parent} with the fixture's children`);
    }
    const fsChildren = (await (await fetch(`${ice.url}/v1/fxfs/namespaces?parent=nest`)).json()) as { namespaces: string[][] };
    t.same(fsChildren.namespaces, [['nest', 'sub']], 'Icefront fxfs answers ?parent=nest with the folder nest/sub');

    // A nested schema Trino creates through Icefront lands in the fixture.
    await trinoSql(trinoVia('fx'), ['CREATE SCHEMA {catalog}."nest.by_trino"']);
    const namespaces = (await sparkQuery<{ namespace: string }>(direct, 'SHOW NAMESPACES IN {catalog}.nest')).map((r) => r.namespace).sort();
    t.same(namespaces, ['nest.by_trino', 'nest.sub'], "Spark straight on the fixture sees Trino's nested schema nest.by_trino");
  });

  // db.events of tables.ts: two appends, a merge-on-read DELETE and UPDATE (position deletes).
  const events = INTEROP_TABLES.find((x) => x.name === 'db.events')!;
  if (events.write === 'equality-delete-writer') throw new Error('db.events is written by Spark');
  const wrote = await t.test('Spark writes db.events through Icefront fx', async (t) => {
    await spark(sparkVia, ['CREATE NAMESPACE IF NOT EXISTS {catalog}.db']);
    for (const step of events.write as ReadonlyArray<{ sql: string; planning?: 'server' }>) {
      await spark({ ...sparkVia, planning: step.planning ?? 'client' }, [step.sql.replaceAll('{table}', '{catalog}.db.events')]);
    }
    const ops = await sparkQuery<{ operation: string }>(direct, 'SELECT operation FROM {catalog}.db.events.snapshots ORDER BY committed_at');
    t.same(
      ops.map((r) => r.operation),
      events.snapshots,
      'the fixture holds its snapshots',
    );
  });

  if (wrote) {
    interface SnapshotRow {
      id: string;
      parent: string | null;
      operation: string;
      manifest_list: string;
      committed_ms: string;
      summary: Record<string, string>;
    }
    /** Spark's `snapshots` of db.events straight on the fixture (read in (b), used by (c)). */
    let truthSnapshots: SnapshotRow[] = [];

    await t.test('(b) $snapshots and $files through Icefront equal Spark’s metadata tables on the fixture', async (t) => {
      truthSnapshots = await sparkQuery<SnapshotRow>(
        direct,
        `SELECT CAST(snapshot_id AS STRING) AS id, CAST(parent_id AS STRING) AS parent, operation, manifest_list,
                CAST(unix_millis(committed_at) AS STRING) AS committed_ms, summary
         FROM {catalog}.db.events.snapshots ORDER BY committed_at`,
      );
      t.equal(truthSnapshots.length, events.snapshots.length, `Spark lists ${events.snapshots.length} snapshots of db.events on the fixture`);
      interface FileRow {
        content: number;
        file_path: string;
        file_format: string;
        spec_id: number;
        record_count: string;
        file_size_in_bytes: string;
      }
      const byPath = (a: FileRow, b: FileRow) => (a.file_path < b.file_path ? -1 : a.file_path > b.file_path ? 1 : 0);
      const truthFiles = (
        await sparkQuery<FileRow>(
          direct,
          `SELECT content, file_path, file_format, spec_id, CAST(record_count AS STRING) AS record_count,
                  CAST(file_size_in_bytes AS STRING) AS file_size_in_bytes FROM {catalog}.db.events.files`,
        )
      ).sort(byPath);
      t.ok(truthFiles.some((f) => f.content === 0) && truthFiles.some((f) => f.content === 1), 'Spark lists data files and position delete files of db.events', {
        files: truthFiles,
      });
      for (const catalog of ['fx', 'fxfs'] as const) {
        const from = ice.requests.length;
        const snapshots = await trinoQuery<SnapshotRow>(
          trinoVia(catalog),
          `SELECT CAST(snapshot_id AS varchar) AS id, CAST(parent_id AS varchar) AS parent, operation, manifest_list,
                  CAST(to_unixtime(committed_at) * 1000 AS bigint) AS committed_ms, summary
           FROM {catalog}.db."events$snapshots" ORDER BY committed_at`,
        );
        const normal = snapshots.map((s) => ({ ...s, committed_ms: String(s.committed_ms) }));
        t.same(normal, truthSnapshots, `Trino's "events$snapshots" through ${catalog} equals Spark's events.snapshots on the fixture`, {
          requests: since(from),
        });
        const files = (
          await trinoQuery<FileRow>(
            trinoVia(catalog),
            `SELECT content, file_path, file_format, spec_id, CAST(record_count AS varchar) AS record_count,
                    CAST(file_size_in_bytes AS varchar) AS file_size_in_bytes FROM {catalog}.db."events$files"`,
          )
        ).sort(byPath);
        t.same(files, truthFiles, `Trino's "events$files" through ${catalog} equals Spark's events.files on the fixture`, { requests: since(from) });
      }
    });

    await t.test('(c) FOR VERSION AS OF each snapshot: the rows of Spark’s VERSION AS OF on the fixture', async (t) => {
      t.equal(truthSnapshots.length, events.snapshots.length, 'one read per snapshot');
      for (const [i, s] of truthSnapshots.entries()) {
        const scan = { table: 'db.events', columns: events.columns, snapshotId: s.id } as const;
        const truth = await worker.run({ client: 'spark', catalog: direct, ...scan, files: false });
        t.ok(truth.count > 0, `snapshot #${i} (${s.operation}) has rows on the fixture`);
        for (const catalog of ['fx', 'fxfs'] as const) {
          const from = ice.requests.length;
          let got: ScanResult;
          try {
            got = await worker.run({ client: 'trino', catalog: trinoVia(catalog), ...scan });
          } catch (e) {
            t.fail(`Trino FOR VERSION AS OF ${s.id} through ${catalog} failed: ${(e as Error).message}`, { requests: since(from) });
            continue;
          }
          t.equal(got.count, truth.count, `snapshot #${i} (${s.operation}) through ${catalog}: row count`);
          t.equal(got.hash, truth.hash, `snapshot #${i} (${s.operation}) through ${catalog}: the rows of Spark's VERSION AS OF`, {
            onlyTrino: got.rows.filter((r) => !truth.rows.includes(r)).slice(0, 5),
            onlySpark: truth.rows.filter((r) => !got.rows.includes(r)).slice(0, 5),
          });
        }
      }
    });
  }

  await t.test('(d) Trino writes through Icefront fx: Spark on the fixture reads what the statements leave', async (t) => {
    const table = 'db.trino_w';
    const from = ice.requests.length;
    const row = (id: number, region: string, amount: string, day: string, ts: string) =>
      `(BIGINT '${id}', '${region}', CAST(DECIMAL '${amount}' AS decimal(10, 2)), DATE '${day}', CAST(TIMESTAMP '${ts} UTC' AS timestamp(6) with time zone))`;
    const statements = [
      `CREATE SCHEMA IF NOT EXISTS {catalog}.db`,
      `CREATE TABLE {catalog}.db.trino_w WITH (format_version = 2, partitioning = ARRAY['region']) AS
         SELECT * FROM (VALUES ${[
           row(1, 'east', '1.50', '2026-01-01', '2026-01-01 10:00:00'),
           row(2, 'east', '2.25', '2026-01-02', '2026-01-02 11:30:00'),
           row(3, 'west', '3.00', '2026-01-03', '2026-01-03 12:00:00.123456'),
         ].join(', ')}) AS v (id, region, amount, day, ts)`,
      `INSERT INTO {catalog}.db.trino_w VALUES ${[
        row(4, 'west', '4.75', '2026-01-04', '2026-01-04 00:00:00'),
        row(5, 'north', '5.00', '2026-01-05', '2026-01-05 23:59:59'),
        row(6, 'east', '6.10', '2026-01-06', '2026-01-06 06:06:06'),
      ].join(', ')}`,
      // a row-level delete: position deletes in the east partition
      `DELETE FROM {catalog}.db.trino_w WHERE id = 2`,
      // a whole partition: Trino drops its files in metadata
      `DELETE FROM {catalog}.db.trino_w WHERE region = 'west'`,
      `UPDATE {catalog}.db.trino_w SET amount = CAST(DECIMAL '9.99' AS decimal(10, 2)) WHERE id = 5`,
    ];
    try {
      await trinoSql(trinoVia('fx'), statements);
    } catch (e) {
      t.fail(`Trino's writes through Icefront fx failed: ${(e as Error).message}`, { requests: since(from) });
      return;
    }
    // What those statements leave, written out here (rows.py's canonical form, as Spark's scan gives it).
    const canonical = (id: number, region: string, amount: string, day: string, ts: string) =>
      JSON.stringify({ amount: { decimal: amount }, day, id, region, ts });
    const expected = [
      canonical(1, 'east', '1.50', '2026-01-01', '2026-01-01T10:00:00+00:00'),
      canonical(5, 'north', '9.99', '2026-01-05', '2026-01-05T23:59:59+00:00'),
      canonical(6, 'east', '6.10', '2026-01-06', '2026-01-06T06:06:06+00:00'),
    ].sort();
    const read = await worker.run({ client: 'spark', catalog: direct, table, columns: ['id', 'region', 'amount', 'day', 'ts'], files: false });
    t.same(read.rows, expected, 'Spark straight on the fixture reads exactly the rows the statements leave', { requests: since(from) });

    const snapshots = await sparkQuery<{ operation: string; summary: Record<string, string> }>(
      direct,
      `SELECT operation, summary FROM {catalog}.${table}.snapshots ORDER BY committed_at`,
    );
    // CTAS, INSERT: appends; the row-level DELETE adds a position delete file only (RowDelta:
    // delete); the partition DELETE removes files (delete); UPDATE adds deletes and a data file.
    t.same(
      snapshots.map((s) => s.operation),
      ['append', 'append', 'delete', 'delete', 'overwrite'],
      'the fixture records the snapshots of CREATE TABLE AS, INSERT, DELETE (row-level), DELETE (a partition), UPDATE',
      { snapshots },
    );
    t.ok(snapshots.every((s) => s.summary['engine-name'] === 'trino') && snapshots.length > 0, 'every snapshot was written by Trino (engine-name)');
    const rowLevel = snapshots[2];
    t.ok(Number(rowLevel?.summary['added-position-delete-files'] ?? 0) > 0, 'the row-level DELETE wrote a position delete file', { summary: rowLevel?.summary });
    const commits = ice.requests.slice(from).filter((r) => r.method === 'POST' && r.url === '/v1/fx/namespaces/db/tables/trino_w' && r.status === 200);
    // CREATE TABLE AS creates the table (POST …/tables) and commits its data as one more commit.
    t.ok(commits.length >= snapshots.length - 1, `Trino's commits went through Icefront (${commits.length} commits answered 200)`, { requests: since(from) });
    // Trino puts a new table in `<name>-<uuid>` (its iceberg.unique-table-location, on by default),
    // so fxfs, which names tables by folder, lists it under that name; Trino reads it there too.
    const listed = (await trinoQuery<{ Table: string }>(trinoVia('fxfs'), 'SHOW TABLES FROM {catalog}.db')).map((r) => r.Table);
    const folder = listed.find((name) => /^trino_w-[0-9a-f]{32}$/.test(name));
    if (t.ok(folder, 'fxfs lists the table under its folder name trino_w-<uuid>', { listed })) {
      const viaFs = await worker.run({ client: 'trino', catalog: trinoVia('fxfs'), table: `db.${folder}`, columns: ['id', 'region', 'amount', 'day', 'ts'] });
      t.same(viaFs.rows, expected, 'Trino reads the same rows through fxfs');
    }
    const failed = ice.requests.slice(from).filter((r) => r.status >= 500);
    t.same(failed, [], 'Icefront answered none of Trino’s requests with a 5xx');
  });
}
