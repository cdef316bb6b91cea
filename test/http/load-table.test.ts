import t from 'tap';
import { buildServer } from '../../src/http/index.js';
import { createService } from '../../src/service/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';
import { assertBody, assertError } from './assertions.js';
import { buildAwkwardWarehouse, V2_CURRENT_SNAPSHOT } from './temp-warehouse.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;
const URL_ = '/v1/awk/namespaces/sp%20ace%1F%C3%BC%20ni%25code/tables/t%20%2Bplus';

t.test('loadTable over HTTP', { skip }, async (t) => {
  const wh = buildAwkwardWarehouse('awk');
  const app = buildServer({ service: createService({ catalogs: new Map([['awk', wh.catalog]]) }), bodyLimit: 1 << 20 });
  t.teardown(async () => {
    await app.close();
    wh.remove();
  });
  const first = await app.inject({ url: URL_ });
  const etag = String(first.headers.etag);

  t.test('200 carries a LoadTableResult with exact 64-bit ids and a strong quoted ETag', async (t) => {
    const body = assertBody<{ 'metadata-location': string; config: object }>(t, first, 'LoadTableResult');
    t.type(body['metadata-location'], 'string');
    t.same(body.config, {});
    t.match(first.body, new RegExp(`"current-snapshot-id":${V2_CURRENT_SNAPSHOT}[,}]`), 'snapshot id written as exact digits');
    t.match(etag, /^"[^"]+"$/);
  });

  t.test('If-None-Match with the current ETag, a list holding it, its weak form or * → 304 without a body', async (t) => {
    for (const inm of [etag, `"other", ${etag}`, `W/${etag}`, '*', etag.slice(1, -1)]) {
      const res = await app.inject({ url: URL_, headers: { 'if-none-match': inm } });
      t.equal(res.statusCode, 304, `If-None-Match: ${inm}`);
      t.equal(res.body, '', 'no body');
      t.equal(res.headers.etag, etag, 'ETag repeated');
    }
  });

  t.test('If-None-Match with another ETag → 200 with the body', async (t) => {
    for (const inm of ['"nope"', 'W/"nope"', '""']) {
      const res = await app.inject({ url: URL_, headers: { 'if-none-match': inm } });
      assertBody(t, res, 'LoadTableResult', `If-None-Match: ${inm}`);
    }
  });

  t.test('snapshots=refs is another representation: other ETag, fewer snapshots; other values are 400', async (t) => {
    const refs = await app.inject({ url: `${URL_}?snapshots=refs` });
    const body = assertBody<{ metadata: { snapshots: unknown[] } }>(t, refs, 'LoadTableResult');
    t.not(refs.headers.etag, etag);
    t.equal(body.metadata.snapshots.length, 1);
    t.equal((await app.inject({ url: `${URL_}?snapshots=all` })).headers.etag, etag, 'all is the default');
    const stale = await app.inject({ url: `${URL_}?snapshots=refs`, headers: { 'if-none-match': etag } });
    t.equal(stale.statusCode, 200, 'the all-ETag does not match the refs representation');
    for (const q of ['snapshots=none', 'snapshots=', 'snapshots=ALL', 'snapshots=all&snapshots=refs']) {
      assertError(t, await app.inject({ url: `${URL_}?${q}` }), 400, 'BadRequestException', q);
    }
  });

  t.test('HEAD of an existing table is 204 with no body', async (t) => {
    const res = await app.inject({ method: 'HEAD', url: URL_ });
    t.equal(res.statusCode, 204);
    t.equal(res.body, '');
  });
});
