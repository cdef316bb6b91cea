import path from 'node:path';
import t from 'tap';
import { loadConfigFile, parseConfig } from '../../src/config/index.js';
import { parseJson } from '../../src/json/index.js';
import { buildIcefront } from '../../src/main.js';
import { assertBody, assertError } from './assertions.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const PLAN = (ns: string, table: string) => `/v1/demo/namespaces/${ns}/tables/${table}/plan`;
const PLAN_ENDPOINT = 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan';

interface Task {
  'data-file': { 'file-path': string; partition: unknown[]; 'record-count': number; 'lower-bounds'?: unknown };
  'delete-file-references'?: number[];
  'residual-filter': unknown;
}
interface PlanResult {
  status: string;
  'plan-id': string;
  'file-scan-tasks': Task[];
  'delete-files'?: { content: string; 'file-path': string }[];
}

const { app } = buildIcefront(loadConfigFile(path.join(REPO, 'fixtures/test-config.yaml')));
t.teardown(() => app.close());

async function plan(ns: string, table: string, body: unknown) {
  return app.inject({ method: 'POST', url: PLAN(ns, table), headers: { 'content-type': 'application/json' }, payload: body as object });
}

t.test('/v1/config advertises the exact planning endpoint string', async (t) => {
  const res = await app.inject({ url: '/v1/config?warehouse=demo' });
  const body = assertBody<{ endpoints: string[] }>(t, res, 'CatalogConfig');
  t.ok(body.endpoints.includes(PLAN_ENDPOINT));
});

t.test('an unfiltered plan is completed with every live data file once, deletes referenced by index', async (t) => {
  const body = assertBody<PlanResult>(t, await plan('sales', 'returns', {}), 'PlanTableScanResult');
  t.equal(body.status, 'completed');
  t.match(body['plan-id'], /^[A-Za-z0-9._~-]+$/, 'plan id is URL-safe');
  const paths = body['file-scan-tasks'].map((task) => task['data-file']['file-path']);
  t.equal(new Set(paths).size, paths.length, 'no data file twice');
  t.equal(paths.length, 5, 'the five live data files of sales.returns');
  const deletes = body['delete-files'] ?? [];
  t.ok(deletes.length > 0, 'sales.returns has deletes that apply');
  for (const task of body['file-scan-tasks']) {
    t.equal(task['residual-filter'], true, 'residual of an unfiltered scan is true');
    for (const i of task['delete-file-references'] ?? []) t.ok(i >= 0 && i < deletes.length, 'reference in range');
  }
  const referenced = new Set(body['file-scan-tasks'].flatMap((task) => task['delete-file-references'] ?? []));
  t.equal(referenced.size, deletes.length, 'every listed delete file is referenced by some task');
  t.notOk('lower-bounds' in body['file-scan-tasks'][0]!['data-file'], 'no column stats unless stats-fields asks');
});

t.test('a partition filter keeps only matching partitions and a metrics filter prunes files', async (t) => {
  const all = assertBody<PlanResult>(t, await plan('sales', 'orders', {}), 'PlanTableScanResult');
  const eu = assertBody<PlanResult>(t, await plan('sales', 'orders', { filter: { type: 'eq', term: 'region', value: 'EU' } }), 'PlanTableScanResult');
  t.ok(eu['file-scan-tasks'].length > 0 && eu['file-scan-tasks'].length < all['file-scan-tasks'].length);
  for (const task of eu['file-scan-tasks']) t.equal(task['data-file'].partition[0], 'EU');
  const low = assertBody<PlanResult>(
    t,
    await plan('sales', 'orders', { filter: { type: 'lt', term: 'order_id', value: 5 }, 'stats-fields': ['order_id'] }),
    'PlanTableScanResult',
  );
  t.ok(low['file-scan-tasks'].length < all['file-scan-tasks'].length, 'order_id < 5 prunes by column bounds');
  for (const task of low['file-scan-tasks']) {
    t.ok(task['data-file']['lower-bounds'], 'stats-fields brings the requested bounds');
    t.same(task['residual-filter'], { type: 'lt', term: 'order_id', value: 5 }, 'residual keeps the non-partition predicate');
  }
});

t.test('timestamptz literals with short offsets (±HH, ±HHMM) plan like ±HH:MM; garbage is a 400 naming the value', async (t) => {
  const taskPaths = async (value: string) => {
    const body = assertBody<PlanResult>(t, await plan('sales', 'orders', { filter: { type: 'lt', term: 'order_ts', value } }), 'PlanTableScanResult');
    return body['file-scan-tasks'].map((task) => task['data-file']['file-path']).sort();
  };
  const reference = await taskPaths('2024-03-02T00:00:00+00:00');
  t.ok(reference.length > 0);
  for (const value of ['2024-03-02T00:00:00+00', '2024-03-02T01:00:00+01', '2024-03-02T01:00:00+0100', '2024-03-01T19:00:00-05', '2024-03-02T00:00:00Z']) {
    t.same(await taskPaths(value), reference, `${value} names the same instant`);
  }
  for (const value of ['2024-03-02T00:00:00+1', '2024-03-02T00:00:00+010', '2024-03-02T00:00:00+01:0', '2024-03-02T00:00:00 +01']) {
    const res = await plan('sales', 'orders', { filter: { type: 'lt', term: 'order_ts', value } });
    assertError(t, res, 400, 'ValidationException', value);
    t.ok(res.body.includes(value), `the message names ${value}`);
  }
});

t.test('time travel by a snapshot id above 2^53 plans that snapshot exactly', async (t) => {
  const load = await app.inject({ url: '/v1/demo/namespaces/sales/tables/orders' });
  const metadata = (parseJson(load.body) as { metadata: { snapshots: { 'snapshot-id': bigint | number; 'sequence-number': number }[] } }).metadata;
  const oldest = [...metadata.snapshots].sort((a, b) => a['sequence-number'] - b['sequence-number'])[0]!;
  const first = String(oldest['snapshot-id']);
  t.ok(BigInt(first) > 2n ** 53n, 'the demo snapshot ids exceed 2^53');
  const raw = `{"snapshot-id":${first},"use-snapshot-schema":true}`;
  const res = await app.inject({ method: 'POST', url: PLAN('sales', 'orders'), headers: { 'content-type': 'application/json' }, payload: raw });
  const body = assertBody<PlanResult>(t, res, 'PlanTableScanResult');
  const current = assertBody<PlanResult>(t, await plan('sales', 'orders', {}), 'PlanTableScanResult');
  t.ok(body['file-scan-tasks'].length < current['file-scan-tasks'].length, 'the first snapshot had fewer files');
  const wrong = `{"snapshot-id":${BigInt(first) + 1n}}`;
  const res2 = await app.inject({ method: 'POST', url: PLAN('sales', 'orders'), headers: { 'content-type': 'application/json' }, payload: wrong });
  assertError(t, res2, 400, 'IllegalArgumentException', 'an id one off (lost by float rounding) is not a snapshot');
});

t.test("select may name Iceberg's metadata columns, as Spark's row-level DML and SELECT _file do", async (t) => {
  const all = assertBody<PlanResult>(t, await plan('sales', 'orders', {}), 'PlanTableScanResult');
  const body = { select: ['order_id', '_file', '_pos', '_spec_id', '_partition', '_partition.region', '_DELETED'], filter: { type: 'eq', term: 'region', value: 'EU' } };
  const withMeta = assertBody<PlanResult>(t, await plan('sales', 'orders', body), 'PlanTableScanResult');
  const plain = assertBody<PlanResult>(t, await plan('sales', 'orders', { ...body, select: ['order_id'] }), 'PlanTableScanResult');
  t.same(withMeta['file-scan-tasks'], plain['file-scan-tasks'], 'the same tasks as selecting the schema columns alone');
  t.ok(withMeta['file-scan-tasks'].length > 0 && withMeta['file-scan-tasks'].length < all['file-scan-tasks'].length);
});

t.test('bad plan requests are 4xx ErrorModels naming the problem', async (t) => {
  assertError(t, await plan('sales', 'orders', { filter: { type: 'eq', term: 'nope', value: 1 } }), 400, 'ValidationException', 'unknown column');
  assertError(t, await plan('sales', 'orders', { filter: { type: 'bogus', term: 'region' } }), 400, 'ValidationException', 'unknown op');
  assertError(t, await plan('sales', 'orders', { filter: null }), 400, 'ValidationException', 'null filter');
  assertError(t, await plan('sales', 'orders', { select: ['nope'] }), 400, 'IllegalArgumentException', 'unknown select column');
  assertError(t, await plan('sales', 'orders', { 'stats-fields': ['_file'] }), 400, 'IllegalArgumentException', 'a metadata column has no stats');
  assertError(t, await plan('sales', 'orders', { 'snapshot-id': 1, 'start-snapshot-id': 1, 'end-snapshot-id': 2 }), 400, 'IllegalArgumentException', 'snapshot-id with a range');
  assertError(t, await plan('sales', 'orders', { 'case-sensitive': 'yes' }), 400, 'BadRequestException', 'non-boolean flag');
  assertError(t, await plan('sales', 'orders', [1, 2]), 400, 'BadRequestException', 'array body');
  const malformed = await app.inject({ method: 'POST', url: PLAN('sales', 'orders'), headers: { 'content-type': 'application/json' }, payload: '{"filter":' });
  assertError(t, malformed, 400, 'BadRequestException', 'malformed JSON');
  const empty = await app.inject({ method: 'POST', url: PLAN('sales', 'orders'), headers: { 'content-type': 'application/json' }, payload: '' });
  assertError(t, empty, 400, 'BadRequestException', 'empty body');
  assertError(t, await plan('sales', 'nope', {}), 404, 'NoSuchTableException', 'unknown table');
  assertError(t, await plan('nope', 'orders', {}), 404, 'NoSuchTableException', 'unknown namespace (spec planTableScan 404: either type)');
});

t.test('a catalog with planning off neither advertises nor serves /plan', async (t) => {
  const config = parseConfig(
    `catalogs:\n  demo: { type: filesystem, warehouse: ./fixtures/warehouse, planning: off, read-only: true, locations: { "s3://icefront-demo/warehouse": ./fixtures/warehouse } }\n`,
    path.join(REPO, 'off.yaml'),
  );
  const off = buildIcefront(config).app;
  t.teardown(() => off.close());
  const cfg = assertBody<{ endpoints: string[] }>(t, await off.inject({ url: '/v1/config?warehouse=demo' }), 'CatalogConfig');
  t.notOk(cfg.endpoints.some((e) => e.endsWith('/plan')), 'not advertised');
  const res = await off.inject({ method: 'POST', url: PLAN('sales', 'orders'), headers: { 'content-type': 'application/json' }, payload: {} });
  assertError(t, res, 406, 'UnsupportedOperationException');
});

t.test('JSON nested thousands of levels deep anywhere in a planning body is a 400, never a stack overflow', async (t) => {
  const deep = (open: string, close: string, n: number, inner = '1') => open.repeat(n) + inner + close.repeat(n);
  const bodies: Record<string, string> = {
    'nested filter (not)': `{"filter":${deep('{"type":"not","child":', '}', 5000, '{"type":"eq","term":"region","value":"EU"}')}}`,
    'arrays in a literal value': `{"filter":{"type":"eq","term":"region","value":${deep('[', ']', 6000, '')}}}`,
    'arrays in an in-list': `{"filter":{"type":"in","term":"region","values":${deep('[', ']', 6000, '')}}}`,
    'objects in an unknown field': `{"x":${deep('{"a":', '}', 4000)}}`,
    'arrays in select': `{"select":${deep('[', ']', 6000, '')}}`,
  };
  for (const [what, body] of Object.entries(bodies)) {
    for (const route of ['plan', 'tasks']) {
      const res = await app.inject({ method: 'POST', url: PLAN('sales', 'orders').replace(/plan$/, route), headers: { 'content-type': 'application/json' }, payload: body });
      assertError(t, res, 400, 'BadRequestException', `${what} at /${route}`);
    }
  }
  const brackets = `{"filter":{"type":"eq","term":"region","value":"${'['.repeat(5000)}"}}`;
  const inString = await plan('sales', 'orders', JSON.parse(brackets));
  t.equal(inString.statusCode, 200, 'brackets inside a string are text, not nesting');
  const limit = await plan('sales', 'orders', { filter: JSON.parse(deep('{"type":"not","child":', '}', 999, '{"type":"eq","term":"region","value":"EU"}')) });
  t.equal(limit.statusCode, 200, '999 nested expressions still plan');
});
