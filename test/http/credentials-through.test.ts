/**
 * REST spec loadCredentials (`GET …/tables/{table}/credentials`, optional `planId`) under a `rest`
 * catalog: routed to the addressed upstream like every other table route, query kept, answer as sent.
 */
import t from 'tap';
import { buildIcefront } from '../../src/main.js';
import { testConfig } from '../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig } from '../helpers/upstream-stub.js';

const CREDENTIALS = '{"storage-credentials":[{"prefix":"s3://bucket/t/","config":{"s3.access-key-id":"AKIA","s3.secret-access-key":"shh"}}]}';

t.test('credentials, with and without planId, go to the addressed upstream only, as asked, as its own identity sees fit', async (t) => {
  const a = await startUpstreamStub({ prefix: 'wh', basePath: '/api/catalog', requireToken: 'token-a' });
  const b = await startUpstreamStub({ prefix: 'other', requireToken: 'token-b' });
  const app = buildIcefront(
    testConfig([
      stubCatalogConfig(a, { name: 'a', auth: { mode: 'bearer', token: 'token-a' } }),
      stubCatalogConfig(b, { name: 'b', auth: { mode: 'bearer', token: 'token-b' } }),
    ]),
  ).app;
  t.teardown(async () => {
    await app.close();
    await a.close();
    await b.close();
  });
  a.respond = (req) => (req.url.includes('/credentials') && req.headers.authorization === 'Bearer token-a' ? { status: 200, body: CREDENTIALS, headers: { 'cache-control': 'no-store' } } : undefined);
  for (const query of ['', '?planId=p1.abc%2Bdef', '?planId=p1.x&referenced-by=v%1Fw']) {
    const before = a.requests.length;
    const res = await app.inject({ url: `/v1/a/namespaces/sales%1Feu/tables/orders/credentials${query}`, headers: { authorization: 'Bearer caller' } });
    t.equal(res.statusCode, 200, `${query || 'no query'}: 200`);
    t.equal(res.body, CREDENTIALS, 'the upstream’s answer as sent');
    t.equal(res.headers['cache-control'], 'no-store');
    const seen = a.requests.slice(before).filter((r) => r.url.includes('/credentials'));
    t.equal(seen.length, 1, 'one upstream request');
    t.equal(seen[0]?.url, `/api/catalog/v1/wh/namespaces/sales%1Feu/tables/orders/credentials${query}`, 'path mapped, raw query kept');
    t.equal(seen[0]?.headers.authorization, 'Bearer token-a', 'the upstream’s own identity');
  }
  t.notOk(b.requests.some((r) => r.url.includes('/credentials')), 'the other upstream saw none');
  a.respond = (req) => (req.url.includes('/credentials') ? { status: 404, body: '{"error":{"message":"no table","type":"NoSuchTableException","code":404}}' } : undefined);
  const missing = await app.inject({ url: '/v1/a/namespaces/sales/tables/nope/credentials?planId=p1' });
  t.equal(missing.statusCode, 404, 'an upstream error passes');
  t.equal((JSON.parse(missing.body) as { error: { type: string } }).error.type, 'NoSuchTableException');
});
