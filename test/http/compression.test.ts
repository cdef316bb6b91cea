/**
 * Planning answers compressed when the client asks (issue #31; RFC 9110 §12.5.3, §8.4): the
 * table is a real Spark-written one of 10,000 data files (../shared fixtures), so a page of tasks
 * is tens of KiB of JSON. What a client checks: the answer it decodes is the one it would have
 * read uncompressed, and fewer bytes came over the wire.
 */
import path from 'node:path';
import zlib from 'node:zlib';
import t from 'tap';
import { acceptsGzip, MIN_COMPRESSED_BYTES, negotiatedBody } from '../../src/http/compression.js';
import { buildIcefront } from '../../src/main.js';
import { testConfig } from '../helpers/config.js';
import { realFixturesAvailable, realFixturesCatalogConfig, REAL_FIXTURES_SKIP } from '../helpers/real-fixtures.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir } from '../helpers/upstream-stub.js';
import { DEMO_WAREHOUSE, demoCatalog } from '../service/planning/helpers.js';

t.test('Accept-Encoding is read as RFC 9110 §12.5.3 says', async (t) => {
  const cases: Array<[string | undefined, boolean]> = [
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['gzip, deflate', true], // Iceberg Java (HttpClient 5), pyiceberg (requests)
    ['GZIP', true],
    ['x-gzip', true],
    ['deflate, br', false],
    ['gzip;q=0', false],
    ['gzip; q=0.0, deflate', false],
    ['gzip;q=0.5', true],
    ['*', true],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
    ['identity', false],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
  ];
  for (const [header, expected] of cases) t.equal(acceptsGzip(header), expected, `${JSON.stringify(header)}: ${expected ? 'gzip' : 'as is'}`);
});

t.test('a /plan and a /tasks answer come gzipped when asked, and decode to the answer sent uncompressed', { skip: !realFixturesAvailable() && REAL_FIXTURES_SKIP }, async (t) => {
  const { app } = buildIcefront(testConfig([realFixturesCatalogConfig('real')]));
  t.teardown(() => app.close());
  const table = '/v1/real/namespaces/iceberg-cxx%1Fmeta_perf%1Fwarehouse%1Fperformance/tables/manifest_entries';
  const post = (path: string, body: Record<string, unknown>, acceptEncoding?: string) =>
    app.inject({ method: 'POST', url: `${table}/${path}`, payload: body, headers: { 'content-type': 'application/json', ...(acceptEncoding && { 'accept-encoding': acceptEncoding }) } });

  const plain = await post('plan', {});
  const zipped = await post('plan', {}, 'gzip, deflate');
  t.equal(plain.statusCode, 200);
  t.equal(zipped.statusCode, 200);
  t.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: sent as is');
  t.equal(zipped.headers['content-encoding'], 'gzip', 'Accept-Encoding: gzip, deflate (as Java and pyiceberg send): gzipped');
  t.match(zipped.headers['vary'], /accept-encoding/i, 'Vary names Accept-Encoding');
  t.match(plain.headers['vary'], /accept-encoding/i, 'on the uncompressed answer too');
  const planText = zlib.gunzipSync(zipped.rawPayload).toString('utf8');
  const planned = JSON.parse(plain.payload) as { 'file-scan-tasks': unknown[]; 'plan-tasks': string[] };
  const decoded = JSON.parse(planText) as typeof planned;
  t.ok(planned['file-scan-tasks'].length > 0 && planned['plan-tasks'].length > 0, `the plan has inline tasks (${planned['file-scan-tasks'].length}) and plan tasks (${planned['plan-tasks'].length})`);
  t.same(decoded['file-scan-tasks'], planned['file-scan-tasks'], 'the decoded inline tasks are the uncompressed ones');
  t.equal(decoded['plan-tasks'].length, planned['plan-tasks'].length, 'as many plan tasks');
  t.ok(zipped.rawPayload.length < plain.rawPayload.length / 5, `fewer bytes over the wire: ${zipped.rawPayload.length} of ${plain.rawPayload.length}`);

  const task = planned['plan-tasks'][0]!;
  const tasksPlain = await post('tasks', { 'plan-task': task });
  const tasksZipped = await post('tasks', { 'plan-task': task }, 'gzip');
  t.equal(tasksZipped.statusCode, 200);
  t.equal(tasksZipped.headers['content-encoding'], 'gzip', 'a /tasks answer is gzipped too');
  t.equal(zlib.gunzipSync(tasksZipped.rawPayload).toString('utf8'), tasksPlain.payload, 'and decodes to the same bytes');
  const refused = await post('tasks', { 'plan-task': task }, 'gzip;q=0, identity');
  t.equal(refused.headers['content-encoding'], undefined, 'gzip;q=0: sent as is');
  t.equal(refused.payload, tasksPlain.payload);
});

t.test('a tiny answer is never compressed, even when asked', { skip: !realFixturesAvailable() && REAL_FIXTURES_SKIP }, async (t) => {
  const { app } = buildIcefront(testConfig([realFixturesCatalogConfig('real')]));
  t.teardown(() => app.close());
  const table = '/v1/real/namespaces/iceberg-cxx%1Fmeta_perf%1Fwarehouse%1Fperformance/tables/manifest_entries';
  // a filter no file can match: an empty plan
  const res = await app.inject({
    method: 'POST',
    url: `${table}/plan`,
    payload: { filter: false },
    headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
  });
  t.equal(res.statusCode, 200);
  t.ok(res.rawPayload.length < MIN_COMPRESSED_BYTES, `the answer is ${res.rawPayload.length} bytes`);
  t.equal(res.headers['content-encoding'], undefined, 'sent as is');
  t.same((JSON.parse(res.payload) as { 'file-scan-tasks': unknown[] })['file-scan-tasks'], []);
});

t.test("an answer's compressed form is made once: the same answer object gives the same bytes, another object its own", async (t) => {
  const tasks = Array.from({ length: 200 }, (_, i) => ({ 'data-file': { 'file-path': `s3://b/t/data/${i}.parquet`, 'record-count': i } }));
  const page = { 'file-scan-tasks': tasks };
  const a = await negotiatedBody(page, 'gzip');
  const b = await negotiatedBody(page, 'gzip, deflate');
  t.ok(a.gzip && b.gzip, 'gzip, as asked');
  t.equal(a.body, b.body, 'the very same buffer: not compressed again');
  const copy = await negotiatedBody({ 'file-scan-tasks': tasks }, 'gzip');
  t.not(copy.body, a.body, 'an equal but other answer is compressed on its own');
  t.same(copy.body, a.body, 'to the same bytes');
  const plain = await negotiatedBody(page, undefined);
  t.equal(plain.gzip, false, 'a client that does not ask gets the text');
  t.same(JSON.parse(plain.body.toString('utf8')), page, 'the answer as JSON');
  t.same(zlib.gunzipSync(a.body), Buffer.from(plain.body), 'which is what the gzip form decodes to');
});

t.test('a load-table answer comes gzipped when asked, under the weak form of its ETag; either form revalidates', async (t) => {
  const { app } = buildIcefront(testConfig([demoCatalog()]));
  t.teardown(() => app.close());
  const url = '/v1/demo/namespaces/sales/tables/orders';
  const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });
  const plain = await get({});
  const zipped = await get({ 'accept-encoding': 'gzip, deflate' });
  t.equal(plain.statusCode, 200);
  t.ok(plain.rawPayload.length >= MIN_COMPRESSED_BYTES, `the table's answer is ${plain.rawPayload.length} bytes`);
  t.equal(plain.headers['content-encoding'], undefined);
  t.equal(zipped.headers['content-encoding'], 'gzip', 'gzipped when asked');
  t.equal(zlib.gunzipSync(zipped.rawPayload).toString('utf8'), plain.payload, 'and decodes to the uncompressed answer');
  const strong = String(plain.headers['etag']);
  t.match(strong, /^"[^"]+"$/, 'the uncompressed answer has a strong ETag');
  t.equal(zipped.headers['etag'], `W/${strong}`, 'the gzipped one its weak form');
  t.match(zipped.headers['vary'], /accept-encoding/i);
  for (const tag of [strong, `W/${strong}`])
    for (const encoding of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
      const again = await get({ 'if-none-match': tag, ...encoding });
      t.equal(again.statusCode, 304, `If-None-Match ${tag}${'accept-encoding' in encoding ? ', gzip accepted' : ''}: 304`);
    }
});

t.test("a rest upstream's load-table answer is relayed gzipped when asked, under its ETag's weak form, which the upstream still recognises", async (t) => {
  const stub = await startUpstreamStub({ tables: [stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales'], 'orders')], conditionalLoads: true });
  const { app } = buildIcefront(testConfig([stubCatalogConfig(stub)]));
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });
  const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/v1/up/namespaces/sales/tables/orders', headers });
  const plain = await get({});
  const zipped = await get({ 'accept-encoding': 'gzip, deflate' });
  t.equal(plain.statusCode, 200);
  t.ok(plain.rawPayload.length >= MIN_COMPRESSED_BYTES, `the upstream's answer is ${plain.rawPayload.length} bytes`);
  t.equal(plain.headers['content-encoding'], undefined, 'not asked: as the upstream sent it');
  t.equal(zipped.headers['content-encoding'], 'gzip', 'gzipped when asked');
  t.equal(zlib.gunzipSync(zipped.rawPayload).toString('utf8'), plain.payload, 'and decodes to the uncompressed answer');
  t.ok(zipped.rawPayload.length < plain.rawPayload.length / 2, `fewer bytes over the wire: ${zipped.rawPayload.length} of ${plain.rawPayload.length}`);
  const strong = String(plain.headers['etag']);
  t.match(strong, /^"[^"]+"$/, "the uncompressed answer carries the upstream's strong ETag");
  t.equal(zipped.headers['etag'], `W/${strong}`, 'the gzipped one its weak form');
  t.match(plain.headers['vary'], /accept-encoding/i, 'Vary names Accept-Encoding');
  t.match(zipped.headers['vary'], /accept-encoding/i);
  // the stub compares tags as text, as many upstreams do: the weak form must reach it strong
  const revalidated = await get({ 'if-none-match': `W/${strong}`, 'accept-encoding': 'gzip' });
  t.equal(revalidated.statusCode, 304, 'If-None-Match with the weak form: 304 from the upstream');
  t.equal(stub.requests.at(-1)!.headers['if-none-match'], strong, 'the upstream was asked with the strong form');
});
