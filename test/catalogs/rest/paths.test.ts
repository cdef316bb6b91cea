import t, { type Test } from 'tap';
import { createRestUpstream, type RestUpstream } from '../../../src/catalogs/index.js';
import { startUpstreamStub, stubCatalogConfig, type UpstreamStubOptions } from '../../helpers/upstream-stub.js';

/** An upstream whose /v1/config has been loaded from a stub announcing `options`. */
async function loaded(t: Test, options: UpstreamStubOptions): Promise<RestUpstream> {
  const stub = await startUpstreamStub(options);
  const upstream = createRestUpstream(stubCatalogConfig(stub));
  t.teardown(async () => {
    await upstream.close();
    await stub.close();
  });
  await upstream.fetchConfig();
  return upstream;
}

t.test('a single-segment prefix is put after /v1/ and the rest is appended untouched', async (t) => {
  const upstream = await loaded(t, { prefix: 'wh1' });
  t.equal(upstream.upstreamPath('/namespaces'), '/v1/wh1/namespaces');
  t.equal(upstream.upstreamPath('/namespaces?parent=a%1Fb&pageToken=x%2By'), '/v1/wh1/namespaces?parent=a%1Fb&pageToken=x%2By');
  t.equal(upstream.upstreamPath('/namespaces/a%1Fb/tables/t%20x/plan'), '/v1/wh1/namespaces/a%1Fb/tables/t%20x/plan');
  t.equal(upstream.upstreamPath('/tables/rename'), '/v1/wh1/tables/rename');
  t.equal(upstream.upstreamPath(''), '/v1/wh1');
});

t.test('a multi-segment prefix stays several path segments (Unity Catalog `catalogs/<name>`)', async (t) => {
  const upstream = await loaded(t, { prefix: 'catalogs/unity' });
  t.equal(upstream.upstreamPath('/namespaces/db/tables/t'), '/v1/catalogs/unity/namespaces/db/tables/t');
});

t.test('a UUID prefix (Lakekeeper) is used as is', async (t) => {
  const upstream = await loaded(t, { prefix: '0195b6a2-7c1e-7b3a-9d41-3f5e6a7b8c9d' });
  t.equal(upstream.upstreamPath('/namespaces'), '/v1/0195b6a2-7c1e-7b3a-9d41-3f5e6a7b8c9d/namespaces');
});

t.test('a Nessie `ref|warehouse` prefix is one segment: a raw `|` is encoded, an encoded one is kept', async (t) => {
  const raw = await loaded(t, { prefix: 'main|warehouse' });
  t.equal(raw.upstreamPath('/namespaces'), '/v1/main%7Cwarehouse/namespaces');
  const encoded = await loaded(t, { prefix: 'dev%7Cwh', prefixIn: 'defaults' });
  t.equal(encoded.upstreamPath('/namespaces'), '/v1/dev%7Cwh/namespaces');
  const nested = await loaded(t, { prefix: 'feature\u001fx|wh', prefixPath: 'feature%1Fx%7Cwh' });
  t.equal(nested.upstreamPath('/namespaces'), '/v1/feature%1Fx%7Cwh/namespaces', 'a ref with `/` carried as 0x1F');
});

t.test('no prefix: paths go straight under /v1', async (t) => {
  const upstream = await loaded(t, {});
  t.equal(upstream.upstreamPath('/namespaces/db'), '/v1/namespaces/db');
});

t.test('the namespace separator is translated in the namespace segment only', async (t) => {
  const upstream = await loaded(t, { prefix: 'wh', namespaceSeparator: '%2E' });
  t.equal(upstream.upstreamPath('/namespaces/a%1Fb%1fc/tables/x%1Fy'), '/v1/wh/namespaces/a%2Eb%2Ec/tables/x%1Fy');
  t.equal(upstream.upstreamPath('/namespaces?parent=a%1Fb'), '/v1/wh/namespaces?parent=a%1Fb', 'the query is not touched');
  t.equal(upstream.upstreamPath('/namespaces/a%1Fb?x=%1F'), '/v1/wh/namespaces/a%2Eb?x=%1F');
});

t.test('an upstream that also speaks %1F gets the path unchanged', async (t) => {
  const upstream = await loaded(t, { prefix: 'wh', namespaceSeparator: '%1f' });
  t.equal(upstream.upstreamPath('/namespaces/a%1Fb'), '/v1/wh/namespaces/a%1Fb');
});

t.test('a path that does not start below the prefix is rejected', async (t) => {
  const upstream = await loaded(t, { prefix: 'wh' });
  t.throws(() => upstream.upstreamPath('namespaces'), { code: 'BAD_REQUEST' });
});
