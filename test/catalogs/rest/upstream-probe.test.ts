import t, { type Test } from 'tap';
import { createRestUpstream, probeUpstream } from '../../../src/catalogs/index.js';
import type { RestCatalogConfig } from '../../../src/config/index.js';
import { startUpstreamStub, stubCatalogConfig, type UpstreamStub } from '../../helpers/upstream-stub.js';

async function probe(t: Test, stub: UpstreamStub, overrides: Partial<RestCatalogConfig> = {}) {
  const config = stubCatalogConfig(stub, { requestTimeoutMs: 300, ...overrides });
  const upstream = createRestUpstream(config);
  t.teardown(() => upstream.close());
  return probeUpstream(upstream, config);
}

t.test('an upstream is ready when its GET /v1/config answers 200, and the probe reaches it every time', async (t) => {
  const stub = await startUpstreamStub({ warehouse: 'wh' });
  t.teardown(() => stub.close());
  t.match(await probe(t, stub, { warehouse: 'wh' }), { ready: true });
  t.match(await probe(t, stub, { warehouse: 'wh' }), { ready: true });
  t.equal(stub.requests.filter((r) => r.url === '/v1/config?warehouse=wh').length, 2, 'never answered from a cache');
});

t.test('why an upstream is not ready: its status, a timeout, a refused connection', async (t) => {
  const stub = await startUpstreamStub();
  t.teardown(() => stub.close());
  stub.respond = () => ({ status: 503, body: '{}' });
  t.match(await probe(t, stub), { ready: false, reason: 'status', status: 503 });
  stub.respond = undefined;
  stub.fault = { mode: 'hang' };
  t.match(await probe(t, stub), { ready: false, reason: 'timeout' });
  stub.fault = undefined;
  await stub.refuse();
  t.match(await probe(t, stub), { ready: false, reason: 'connection-refused' });
});

t.test('Icefront’s own identity is sent; in forward mode a 401 still is an answer', async (t) => {
  const stub = await startUpstreamStub({ requireToken: 'own-token' });
  t.teardown(() => stub.close());
  t.match(await probe(t, stub, { auth: { mode: 'bearer', token: 'own-token' } }), { ready: true });
  t.match(await probe(t, stub, { auth: { mode: 'bearer', token: 'wrong' } }), { ready: false, reason: 'status', status: 401 });
  t.match(await probe(t, stub, { auth: { mode: 'forward' } }), { ready: true }, 'forward: no credential of its own to send');
});

t.test('an oauth2 upstream whose token endpoint fails is not ready, without quoting the secret', async (t) => {
  const stub = await startUpstreamStub({ oauth: { clientId: 'icefront', clientSecret: 'the-client-secret' } });
  t.teardown(() => stub.close());
  const auth = { mode: 'oauth2' as const, tokenUrl: stub.tokenUrl, clientId: 'icefront', clientSecret: 'wrong-secret' };
  const result = await probe(t, stub, { auth });
  t.match(result, { ready: false, reason: 'credentials' });
  t.notMatch(JSON.stringify(result), /secret/);
});
