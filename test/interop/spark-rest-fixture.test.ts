/**
 * End to end: Spark, pointed only at Icefront, writes a partitioned format-v2 table into the
 * Iceberg REST fixture (two appends, then a merge-on-read DELETE that leaves position deletes).
 * The truth is Spark reading straight from the fixture with client-side planning. Every other
 * reader goes through Icefront, and must return the same rows for each filter:
 *   - catalog `fx` (type: rest, planning: upstream): the fixture plans when the client asks;
 *   - catalog `fxlocal` (type: rest, planning: local): tables loaded through the fixture, Icefront
 *     plans them, reading the fixture's file: metadata within `storage.local` roots;
 *   - catalog `fxfs` (type: filesystem over the fixture's warehouse folder): Icefront plans.
 * One worker process (one Spark JVM) runs every client job of this file.
 */
import t from 'tap';
import { ClientError, ClientWorker, type CatalogRef, type ScanJob, type ScanResult } from './harness/clients.js';
import { compareScan, label, type Comparison } from './harness/compare.js';
import { filesystemCatalog, restCatalog, startInteropIcefront } from './harness/icefront.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { interopToolchain } from './harness/toolchain.js';

// Setup on a cold machine (pip + Maven downloads) plus one Spark JVM fits well inside this.
t.setTimeout(15 * 60_000);

const TABLE = 'db.events';
const COLUMNS = ['id', 'category', 'amount', 'note', 'day'];

/** Filters in the one syntax all three clients parse. */
const FILTERS: ReadonlyArray<{ readonly name: string; readonly filter?: string; readonly atDelete?: true }> = [
  { name: 'none' },
  { name: 'identity partition', filter: "category = 'b'" },
  { name: 'metrics (id range of the second commit)', filter: 'id >= 100' },
  { name: 'is null', filter: 'note IS NULL' },
  { name: 'partition and metrics', filter: "category = 'a' AND id < 110" },
  { name: 'time travel to the DELETE’s snapshot (before the UPDATE), metrics', filter: 'id < 110', atDelete: true },
];

function rowsOf(ids: number[]): string {
  return ids
    .map((i) => {
      const category = ['a', 'b', 'c'][i % 3];
      const note = i % 4 === 0 ? 'NULL' : `'n${i}'`;
      return `(${i}, '${category}', ${(i * 1.5).toFixed(1)}D, ${note}, DATE '2026-01-0${1 + (i % 5)}')`;
    })
    .join(', ');
}
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, k) => from + k);

const env = await interopToolchain(t);
if (env) {
  for (const [name, version] of Object.entries(env.versions)) t.comment(`${name} ${version}`);
  const fixture = await startRestFixture(env);
  // batch-size 2: Icefront's own plans (fxfs) answer with plan tasks, so clients redeem them at
  // /tasks (the fixture batches 100 file tasks per plan task, more than this table has).
  const ice = await startInteropIcefront(
    [
      restCatalog('fx', fixture.url, 'upstream'),
      { ...restCatalog('fxlocal', fixture.url, 'local'), storage: { local: { roots: [fixture.warehouseDir], locations: [] } } },
      filesystemCatalog('fxfs', fixture.warehouseDir),
    ],
    { batchSize: 2 },
  );
  const worker = ClientWorker.start(env);
  t.teardown(async () => {
    await worker.close();
    await ice.close();
    await fixture.close();
  });

  const direct: CatalogRef = { name: 'fixture', uri: fixture.url, planning: 'client' };
  const viaRest = (planning: 'server' | 'client'): CatalogRef => ({ name: 'ice', uri: ice.url, warehouse: 'fx', planning });
  const viaFs = (planning: 'server' | 'client'): CatalogRef => ({ name: 'icefs', uri: ice.url, warehouse: 'fxfs', planning });
  const viaLocal = (planning: 'server' | 'client'): CatalogRef => ({ name: 'icelocal', uri: ice.url, warehouse: 'fxlocal', planning });

  /** The snapshot after the DELETE (before the UPDATE): the time-travel target. */
  let deleteSnapshot: string | undefined;

  const wrote = await t.test('Spark through Icefront creates, appends twice, deletes and updates merge-on-read in the fixture', async (t) => {
    const statements = [
      'CREATE NAMESPACE IF NOT EXISTS {catalog}.db',
      `CREATE TABLE {catalog}.${TABLE} (id bigint, category string, amount double, note string, day date)
         USING iceberg PARTITIONED BY (category)
         TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read',
                        'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')`,
      `INSERT INTO {catalog}.${TABLE} VALUES ${rowsOf(range(1, 24))}`,
      `INSERT INTO {catalog}.${TABLE} VALUES ${rowsOf(range(101, 124))}`,
      `DELETE FROM {catalog}.${TABLE} WHERE id % 5 = 0`,
    ];
    await worker.run({ client: 'spark', catalog: viaRest('client'), sql: statements }, 300_000);
    // Row-level DML whose scan the fixture plans (Spark asks Icefront, Icefront proxies): its
    // select carries _file, _pos, _spec_id, _partition.
    await worker.run({ client: 'spark', catalog: viaRest('server'), sql: [`UPDATE {catalog}.${TABLE} SET note = 'updated' WHERE id IN (7, 107)`] }, 300_000);
    const summary = (await worker.run({
      client: 'spark',
      catalog: direct,
      query: `SELECT operation, CAST(snapshot_id AS STRING) AS id, summary['added-position-delete-files'] AS pos
              FROM {catalog}.${TABLE}.snapshots ORDER BY committed_at`,
    })) as { rows: Array<{ operation: string; id: string; pos: string | null }> };
    t.same(
      summary.rows.map((r) => r.operation),
      ['append', 'append', 'delete', 'overwrite'],
      'the fixture holds two appends, a row-level delete and an update',
    );
    t.ok(Number(summary.rows[2]?.pos) > 0 && Number(summary.rows[3]?.pos) > 0, 'DELETE and UPDATE wrote position delete files (merge-on-read)', {
      snapshots: summary.rows,
    });
    deleteSnapshot = summary.rows[2]?.id;
    t.ok(
      ice.requests.some((r) => r.method === 'POST' && r.url === '/v1/fx/namespaces/db/tables/events/plan' && r.body?.includes('"_pos"')),
      'the UPDATE’s scan was planned on the server, through Icefront',
    );
    t.ok(
      ice.requests.some((r) => r.method === 'POST' && r.url === `/v1/fx/namespaces/db/tables/events` && r.status === 200),
      'the commits went through Icefront',
    );
  });

  const PYICEBERG_REST_SERVER = 'pyiceberg → icefront rest catalog, server planning';
  const PYICEBERG_FS_SERVER = 'pyiceberg → icefront filesystem catalog, server planning (Icefront plans)';
  // `control`: the same client asking the fixture directly, run only when a reader disagrees
  // with the truth, to tell a client's own bug from one Icefront introduces.
  const readers: ReadonlyArray<{ readonly client: ScanJob['client']; readonly name: string; readonly catalog: CatalogRef; readonly files: Comparison['files']; readonly control?: CatalogRef }> = [
    { client: 'spark', name: 'spark → icefront rest catalog, server planning (the fixture plans)', catalog: viaRest('server'), files: 'read', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', name: PYICEBERG_REST_SERVER, catalog: viaRest('server'), files: 'planned', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', name: 'pyiceberg → icefront rest catalog, client planning', catalog: viaRest('client'), files: 'planned', control: direct },
    { client: 'duckdb', name: 'duckdb → icefront rest catalog', catalog: viaRest('client'), files: 'none', control: direct },
    { client: 'spark', name: 'spark → icefront rest catalog with local planning, server planning (Icefront plans)', catalog: viaLocal('server'), files: 'read', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', name: 'pyiceberg → icefront rest catalog with local planning, server planning (Icefront plans)', catalog: viaLocal('server'), files: 'planned', control: { ...direct, planning: 'server' } },
    { client: 'spark', name: 'spark → icefront filesystem catalog, server planning (Icefront plans)', catalog: viaFs('server'), files: 'read', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', name: PYICEBERG_FS_SERVER, catalog: viaFs('server'), files: 'planned', control: { ...direct, planning: 'server' } },
    { client: 'duckdb', name: 'duckdb → icefront filesystem catalog', catalog: viaFs('client'), files: 'none', control: direct },
  ];

  await t.test('every client through Icefront reads what Spark reads straight from the fixture', { skip: wrote ? false : 'the write step failed' }, async (t) => {
    for (const f of FILTERS) {
      await t.test(`filter ${f.name}${f.filter ? `: ${f.filter}` : ''}`, async (t) => {
        const snapshot = f.atDelete ? deleteSnapshot : undefined;
        const scan = (catalog: CatalogRef, client: ScanJob['client']): ScanJob => ({
          client,
          catalog,
          table: TABLE,
          columns: COLUMNS,
          ...(f.filter && { filter: f.filter }),
          ...(snapshot !== undefined && { snapshotId: snapshot }),
        });
        const truth = await worker.run(scan(direct, 'spark'));
        t.ok(truth.count > 0, `truth (spark → fixture, client planning) has rows for [${f.filter ?? 'none'}]`);
        if (f.atDelete) t.ok(truth.rows.every((r) => !r.includes('"updated"')), 'the snapshot predates the UPDATE');
        const results = new Map<string, ScanResult>();
        for (const r of readers) {
          const c: Comparison = { table: TABLE, filter: `${f.filter ?? 'none'}${snapshot ? ` @ snapshot ${snapshot}` : ''}`, client: r.name, files: r.files };
          let got: ScanResult;
          try {
            got = await worker.run(scan(r.catalog, r.client));
          } catch (e) {
            const err = e as ClientError;
            t.fail(`${label(c)}: the client failed: ${err.message}`, { traceback: err.traceback, recentRequests: ice.requests.slice(-8) });
            continue;
          }
          if (got.hash !== truth.hash && r.control) {
            const control = await worker.run(scan(r.control, r.client)).catch(() => undefined);
            if (control?.hash === got.hash) {
              compareScan(t, { ...c, clientBug: `${r.client} bug, not Icefront's: it returns the same rows for this scan straight from the fixture` }, truth, got);
              continue;
            }
          }
          compareScan(t, c, truth, got);
          results.set(r.name, got);
        }
        // Same scan, two server planners: the fixture's (Java, through the rest catalog) and
        // Icefront's own (filesystem catalog). They must plan the same data files and attach the
        // same delete files to each; pyiceberg reports both sets.
        const fixturePlan = results.get(PYICEBERG_REST_SERVER);
        const icefrontPlan = results.get(PYICEBERG_FS_SERVER);
        if (fixturePlan && icefrontPlan) {
          const where = `table ${TABLE}, filter [${f.filter ?? 'none'}${snapshot ? ` @ snapshot ${snapshot}` : ''}]`;
          t.same(icefrontPlan.files, fixturePlan.files, `${where}: Icefront's plan names the same data files as the fixture's`);
          t.same(icefrontPlan.deletes, fixturePlan.deletes, `${where}: Icefront's plan attaches the same delete files to each data file as the fixture's`);
        }
      });
    }
  });

  t.test('the server-planning clients really planned on the server, and Spark’s plan cancellations succeeded', async (t) => {
    for (const catalog of ['fx', 'fxlocal', 'fxfs']) {
      const plans = ice.requests.filter((r) => r.method === 'POST' && r.url === `/v1/${catalog}/namespaces/db/tables/events/plan`);
      t.ok(plans.length > 0 && plans.every((r) => r.status === 200), `Icefront answered POST /v1/${catalog}/…/events/plan`, {
        failed: plans.filter((r) => r.status !== 200),
      });
      if (catalog !== 'fx') {
        const tasks = ice.requests.filter((r) => r.method === 'POST' && r.url === `/v1/${catalog}/namespaces/db/tables/events/tasks`);
        t.ok(tasks.length > 0 && tasks.every((r) => r.status === 200), `clients redeemed Icefront's plan tasks at POST /v1/${catalog}/…/tasks`, {
          count: tasks.length,
          failed: tasks.filter((r) => r.status !== 200).slice(0, 3),
        });
      }
      // The Java client cancels every plan it got an id for when its task iterable closes (§9 of the notes).
      const cancels = ice.requests.filter((r) => r.method === 'DELETE' && r.url.startsWith(`/v1/${catalog}/namespaces/db/tables/events/plan/`));
      const failed = cancels.filter((r) => r.status !== 204);
      t.ok(cancels.length > 0, `Spark sent DELETE /v1/${catalog}/…/plan/{plan-id}`);
      t.ok(failed.length === 0, `every DELETE /v1/${catalog}/…/plan/{plan-id} answered 204`, { failed: failed.slice(0, 3) });
    }
  });
}
