/**
 * Real clients configured with nothing but Icefront's URI, warehouse `demo` and a `credential`
 * (`client_id:client_secret`), with authentication on (JWTs from an identity provider on
 * loopback). Iceberg Java (in Spark) and pyiceberg ask for their first token at their default
 * `oauth2-server-uri`, `{uri}/v1/oauth/tokens`, before they read `/v1/config`: Icefront relays that
 * to `auth.jwt.token-endpoint`, the provider grants it (client credentials), and the clients then
 * list, load and plan through Icefront with the provider's JWT. Truth: Spark on the same folder
 * through Iceberg's HadoopCatalog (no Icefront code). Without a credential, both are refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import type { Config } from '../../src/config/index.js';
import { writeDemoWarehouse } from '../../tools/demo-warehouse.js';
import { authConfig } from '../helpers/auth-config.js';
import { testConfig } from '../helpers/config.js';
import { startIdentityProvider } from '../helpers/identity-provider.js';
import { ClientError, ClientWorker, type CatalogRef, type HadoopCatalogRef, type ScanJob } from './harness/clients.js';
import { startRecordedIcefront } from './harness/icefront.js';
import { interopToolchain } from './harness/toolchain.js';

t.setTimeout(15 * 60_000);

const TABLE = 'sales.orders';
const COLUMNS = ['order_id', 'region', 'order_ts', 'customer_id', 'sku', 'amount'];

const env = await interopToolchain(t);
if (env) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-oauth2-clients-')));
  const warehouse = path.join(dir, 'warehouse');
  writeDemoWarehouse(warehouse);
  const clients = {
    'spark-job': { secret: 'spark-secret-4c1d', sub: 'spark-etl', groups: ['analyst'] },
    'py-notebook': { secret: 'py-secret-8e2a', sub: 'analyst-notebook', groups: ['analyst'] },
  };
  const idp = await startIdentityProvider(clients);
  const config: Config = {
    ...testConfig([{ type: 'filesystem', name: 'demo', warehouse, locations: [], planning: 'on' }], { batchSize: 2 }),
    auth: authConfig({
      tokens: [],
      jwt: idp.config({ tokenEndpoint: idp.tokenEndpoint }),
      allow: [{ principals: [], roles: ['analyst'], catalogs: ['demo'], access: 'read' }],
    }),
  };
  const ice = await startRecordedIcefront(config);
  const worker = ClientWorker.start(env);
  t.teardown(async () => {
    await worker.close();
    await ice.close();
    await idp.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const truthCatalog: HadoopCatalogRef = { name: 'truth', type: 'hadoop', warehouse: pathToFileURL(warehouse).href };
  const truth = await worker.run({ client: 'spark', catalog: truthCatalog, table: TABLE, columns: COLUMNS, files: false });
  t.ok(truth.count > 0, `truth: ${truth.count} rows of ${TABLE} (Spark, HadoopCatalog on the folder)`);

  const via = (name: string, credential: string | undefined, planning: 'server' | 'client'): CatalogRef => ({
    name,
    uri: ice.url,
    warehouse: 'demo',
    planning,
    ...(credential && { properties: { credential } }),
  });
  const cases: ReadonlyArray<{ client: ScanJob['client']; id: keyof typeof clients; planning: 'server' | 'client' }> = [
    { client: 'spark', id: 'spark-job', planning: 'server' },
    { client: 'spark', id: 'spark-job', planning: 'client' },
    { client: 'pyiceberg', id: 'py-notebook', planning: 'server' },
    { client: 'pyiceberg', id: 'py-notebook', planning: 'client' },
  ];
  for (const c of cases) {
    await t.test(`${c.client} (scan-planning-mode=${c.planning}) with credential ${c.id}:… gets a token from the provider through Icefront and reads ${TABLE}`, async (t) => {
      const before = idp.tokenRequests.length;
      const got = await worker.run({ client: c.client, catalog: via(`oauth_${c.client}_${c.planning}`, `${c.id}:${clients[c.id].secret}`, c.planning), table: TABLE, columns: COLUMNS, files: false });
      t.equal(got.count, truth.count, 'row count');
      t.equal(got.hash, truth.hash, 'row hash');
      const asked = idp.tokenRequests.slice(before);
      t.ok(asked.some((form) => form['client_id'] === c.id && form['grant_type'] === 'client_credentials'), `the provider granted ${c.id} a token (relayed by Icefront)`, { asked: asked.map((f) => f['client_id']) });
      if (c.planning === 'server') t.ok(ice.requests.some((r) => r.method === 'POST' && r.url.endsWith('/tables/orders/plan') && r.status === 200), 'and planned on the server');
    });
  }

  await t.test('without a credential, both clients are refused with 401', async (t) => {
    for (const client of ['spark', 'pyiceberg'] as const) {
      const err = await worker.run({ client, catalog: via(`anon_${client}`, undefined, 'client'), table: TABLE, columns: COLUMNS, files: false }).then(
        () => undefined,
        (e: ClientError) => e.message,
      );
      t.match(err ?? 'read rows', /NotAuthorized|401|Unauthorized/i, `${client}: refused`);
    }
    t.ok(ice.requests.some((r) => r.url.startsWith('/v1/config') && r.status === 401), 'Icefront answered 401 to the anonymous /v1/config');
  });
  t.test('Icefront relayed every token request and the provider saw each client', async (t) => {
    const relayed = ice.requests.filter((r) => r.method === 'POST' && r.url === '/v1/oauth/tokens');
    t.ok(relayed.length >= 2 && relayed.every((r) => r.status === 200), `POST /v1/oauth/tokens answered 200 (${relayed.length} times)`);
    t.same([...new Set(idp.tokenRequests.map((f) => f['client_id']))].sort(), ['py-notebook', 'spark-job']);
  });
}
