import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { IcebergRestCatalog } from 'iceberg-js';
import t from 'tap';
import type { CatalogConfig, Config, RestCatalogConfig } from '../../src/config/index.js';
import { buildIcefront } from '../../src/main.js';
import { REAL_FIXTURES_DIR, REAL_FIXTURES_SKIP, realFixturesAvailable, realFixturesCatalogConfig } from '../helpers/real-fixtures.js';
import { startS3Server } from '../helpers/s3-server.js';
import { planAndRedeem } from '../service/planning/helpers.js';
import { testConfig } from '../helpers/config.js';

/** Real tables whose recorded location is s3(a)://warehouse/…: served from S3 to a front door that plans locally. */
const TABLES: readonly [string[], string, string][] = [
  [['iceberg-cxx', 'tables'], 'deletion_vectors', 'deletion_vectors'],
  [['iceberg-cxx', 'tables'], 'granular_deletes', 'granular_deletes'],
  [['iceberg-cxx', 'tables'], 'partition_evolution', 'partition_evolution'],
  [['iceberg-cxx', 'tables', 'prod', 'db'], 'refdeletes3', 'prod/db/refdeletes3'],
  [['iceberg-cxx', 'tables'], 'day_timestamptz_partitioning', 'day_timestamptz_partitioning'],
];

function configOf(catalogs: CatalogConfig[]): Config {
  return testConfig(catalogs, { batchSize: 2 });
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

t.test('two upstream Icefronts over the real fixtures, one with planning off, behind one front door', { skip: realFixturesAvailable() ? false : REAL_FIXTURES_SKIP }, async (t) => {
  const planning = buildIcefront(configOf([realFixturesCatalogConfig('real')])).app;
  const noPlanning = buildIcefront(configOf([{ ...realFixturesCatalogConfig('real'), planning: 'off' }])).app;
  const [uriA, uriB] = [await listen(planning), await listen(noPlanning)];
  const s3 = await startS3Server({
    bucket: 'warehouse',
    uploads: TABLES.map(([ns, name, key]) => ({ dir: path.join(REAL_FIXTURES_DIR, ...ns, name), prefix: key })),
  });
  const rest = (name: string, uri: string, extra: Partial<RestCatalogConfig> = {}): RestCatalogConfig => ({
    type: 'rest', name, uri, warehouse: 'real', planning: 'auto', auth: { mode: 'forward' }, connectTimeoutMs: 1000, requestTimeoutMs: 5000, ...extra,
  });
  const storage = { s3: { endpoint: s3.endpoint, region: s3.region, pathStyle: true, ...s3.credentials } };
  const front = buildIcefront(configOf([rest('a', uriA), rest('b', uriB, { storage })])).app;
  const frontUrl = await listen(front);
  t.teardown(async () => {
    await Promise.all([front.close(), planning.close(), noPlanning.close()]);
    await s3.close();
  });

  for (const [ns, name] of TABLES) {
    const rel = `/namespaces/${ns.map(encodeURIComponent).join('%1F')}/tables/${encodeURIComponent(name)}`;
    await t.test(`${[...ns, name].join('.')}`, async (t) => {
      const direct = await planAndRedeem(planning, `/v1/real${rel}`, {});
      const viaPlanningUpstream = await planAndRedeem(front, `/v1/a${rel}`, {});
      const viaLocalPlanning = await planAndRedeem(front, `/v1/b${rel}`, {});
      t.ok(direct.keys.length > 0);
      t.same([...viaPlanningUpstream.keys].sort(), [...direct.keys].sort(), 'through the front to the planning upstream: the same tasks');
      t.same(viaPlanningUpstream.plan['plan-tasks'], direct.plan['plan-tasks'], 'its plan-task strings unchanged');
      t.same([...viaLocalPlanning.keys].sort(), [...direct.keys].sort(), 'planned by Icefront for the upstream without planning: the same tasks');
    });
  }

  await t.test('iceberg-js walks both upstreams through the front', async (t) => {
    for (const warehouse of ['a', 'b']) {
      const catalog = new IcebergRestCatalog({ baseUrl: frontUrl, warehouse });
      const top = await catalog.listNamespaces();
      t.ok(top.namespaces.some((n) => n.namespace[0] === 'iceberg-cxx'), `${warehouse}: namespaces`);
      const tables = await catalog.listTables({ namespace: ['iceberg-cxx', 'tables'] });
      t.ok(tables.identifiers.some((i) => i.name === 'deletion_vectors'), `${warehouse}: tables`);
      const loaded = await catalog.loadTable({ namespace: ['iceberg-cxx', 'tables'], name: 'deletion_vectors' });
      t.equal(loaded?.location, 's3a://warehouse/deletion_vectors', `${warehouse}: load table`);
    }
  });
});
