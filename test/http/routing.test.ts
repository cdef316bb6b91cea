import t from 'tap';
import { buildServer, SPEC_PATHS } from '../../src/http/index.js';
import { createService, READ_ENDPOINTS } from '../../src/service/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';
import { assertBody, assertError, type ResponseLike } from './assertions.js';
import { buildAwkwardWarehouse } from './temp-warehouse.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;
const SERVED = new Set([...READ_ENDPOINTS, 'GET /v1/config']);
const BODY_LIMIT = 4096;

/** A concrete URL for a spec template, pointing at an existing table of the temp warehouse. */
function concrete(template: string, prefix = 'awk'): string {
  return template
    .replace('{prefix}', prefix)
    .replace('{namespace}', 'dots.and.more')
    .replace('{table}', 'tbl.v1')
    .replace(/\{[^}]+\}/g, 'x');
}

t.test('routing and error envelopes', { skip }, async (t) => {
  const wh = buildAwkwardWarehouse('awk');
  const app = buildServer({ service: createService({ catalogs: new Map([['awk', wh.catalog]]) }), bodyLimit: BODY_LIMIT });
  t.teardown(async () => {
    await app.close();
    wh.remove();
  });

  t.test('GET /healthz answers {"status":"ok"}', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    t.equal(res.statusCode, 200);
    t.same(res.json(), { status: 'ok' });
  });

  t.test('/v1/config is a CatalogConfig; an unknown warehouse is NoSuchWarehouseException', async (t) => {
    const config = assertBody<{ overrides: Record<string, string> }>(t, await app.inject({ url: '/v1/config?warehouse=awk' }), 'CatalogConfig');
    t.equal(config.overrides.prefix, 'awk');
    assertError(t, await app.inject({ url: '/v1/config?warehouse=nope' }), 404, 'NoSuchWarehouseException');
    assertError(t, await app.inject({ url: '/v1/config?warehouse=a&warehouse=b' }), 400, 'BadRequestException', 'repeated warehouse');
  });

  t.test('every advertised endpoint is served for an existing table', async (t) => {
    for (const endpoint of READ_ENDPOINTS) {
      const [method, template] = endpoint.split(' ') as [string, string];
      const res = await app.inject({ method: method as 'GET', url: concrete(template) });
      t.ok(res.statusCode === 200 || res.statusCode === 204, `${endpoint} → ${res.statusCode}`);
    }
  });

  t.test('every spec operation not served answers 406 UnsupportedOperationException, after the prefix is checked', async (t) => {
    let count = 0;
    for (const spec of SPEC_PATHS) {
      for (const method of spec.methods) {
        if (SERVED.has(`${method} ${spec.path}`)) continue;
        count++;
        const payload = method === 'POST' ? {} : undefined;
        const check = (res: ResponseLike, status: number, type: string, what: string) =>
          method === 'HEAD' ? t.equal(res.statusCode, status, `${what} (HEAD: no body)`) : assertError(t, res, status, type, what);
        const res = await app.inject({ method, url: concrete(spec.path), ...(payload ? { payload } : {}) });
        check(res, 406, 'UnsupportedOperationException', `${method} ${spec.path}`);
        if (spec.path.includes('{prefix}')) {
          const unknown = await app.inject({ method, url: concrete(spec.path, 'nope'), ...(payload ? { payload } : {}) });
          check(unknown, 404, 'NoSuchWarehouseException', `${method} ${spec.path} with an unknown prefix`);
        }
      }
    }
    t.ok(count >= 25, `${count} unsupported operations checked`);
  });

  t.test('a method the spec does not define on a known path is 405 with an Allow header', async (t) => {
    for (const spec of SPEC_PATHS) {
      for (const method of ['PUT', 'PATCH'] as const) {
        const res = await app.inject({ method, url: concrete(spec.path) });
        assertError(t, res, 405, 'MethodNotAllowedException', `${method} ${spec.path}`);
        t.ok(String(res.headers.allow).includes(spec.methods[0]!), 'Allow lists the spec methods');
      }
    }
    assertError(t, await app.inject({ method: 'DELETE', url: '/v1/awk/namespaces' }), 405, 'MethodNotAllowedException');
    assertError(t, await app.inject({ method: 'POST', url: '/healthz' }), 405, 'MethodNotAllowedException');
  });

  t.test('an unknown path is 404 NotFoundException', async (t) => {
    for (const url of ['/', '/v2/config', '/v1', '/v1/namespaces', '/v1/awk', '/v1/awk/namespaces/a/tables/b/c/d/e', '/favicon.ico']) {
      assertError(t, await app.inject({ url }), 404, 'NotFoundException', url);
    }
  });

  t.test('unknown prefix, namespace and table are 404s with their Iceberg types', async (t) => {
    assertError(t, await app.inject({ url: '/v1/nope/namespaces' }), 404, 'NoSuchWarehouseException');
    assertError(t, await app.inject({ url: '/v1/nope/namespaces/dots.and.more/tables/tbl.v1' }), 404, 'NoSuchWarehouseException');
    assertError(t, await app.inject({ url: '/v1/awk/namespaces/missing' }), 404, 'NoSuchNamespaceException');
    assertError(t, await app.inject({ url: '/v1/awk/namespaces?parent=missing' }), 404, 'NoSuchNamespaceException');
    assertError(t, await app.inject({ url: '/v1/awk/namespaces/missing/tables' }), 404, 'NoSuchNamespaceException');
    assertError(t, await app.inject({ url: '/v1/awk/namespaces/missing/tables/x' }), 404, 'NoSuchTableException'); // spec loadTable 404
    assertError(t, await app.inject({ url: '/v1/awk/namespaces/dots.and.more/tables/missing' }), 404, 'NoSuchTableException');
    const head = await app.inject({ method: 'HEAD', url: '/v1/awk/namespaces/dots.and.more/tables/missing' });
    t.equal(head.statusCode, 404, 'HEAD of a missing table');
    t.equal(head.body, '', 'HEAD has no body');
  });

  t.test('malformed percent-encoding anywhere in the path is a 400, never a 500', async (t) => {
    for (const url of [
      '/v1/awk/namespaces/%zz',
      '/v1/awk/namespaces/%E0%A4/tables',
      '/v1/awk/namespaces/dots.and.more/tables/%E0%A4',
      '/v1/awk/namespaces/a%2',
      '/v1/%zz/namespaces',
      '/v1/awk/namespaces/%C0%AF',
      '/v1/awk/namespaces/%ED%A0%80',
      '/nope/%zz',
    ]) {
      assertError(t, await app.inject({ url }), 400, 'BadRequestException', url);
    }
  });

  t.test('a page size above the most a page holds is lowered to it (REST spec: an upper bound), not refused', async (t) => {
    for (const q of ['pageSize=1001', 'pageSize=1000000000000', `pageSize=${'9'.repeat(400)}`]) {
      const res = await app.inject({ url: `/v1/awk/namespaces?${q}` });
      t.equal(res.statusCode, 200, `${q.slice(0, 30)}: 200`);
      t.ok(Array.isArray(res.json().namespaces) && res.json().namespaces.length > 0, `${q.slice(0, 30)}: a page of namespaces`);
    }
  });

  t.test('absurd page sizes and garbage page tokens are 400s', async (t) => {
    for (const q of ['pageSize=0', 'pageSize=-1', 'pageSize=abc', 'pageSize=', 'pageSize=1&pageSize=2', 'pageSize=1.5']) {
      assertError(t, await app.inject({ url: `/v1/awk/namespaces?${q}` }), 400, 'BadRequestException', q);
      assertError(t, await app.inject({ url: `/v1/awk/namespaces/dots.and.more/tables?${q}` }), 400, 'BadRequestException', q);
    }
    for (const token of ['garbage', 'eyJ2IjoxfQ', '%zz', 'a'.repeat(10000), '../../etc']) {
      const q = `pageToken=${encodeURIComponent(token)}`;
      assertError(t, await app.inject({ url: `/v1/awk/namespaces?${q}` }), 400, 'BadRequestException', `token ${token.slice(0, 12)}`);
    }
  });

  t.test('request bodies: malformed JSON 400, too large 413, unsupported content type 415', async (t) => {
    const json = { 'content-type': 'application/json' };
    assertError(t, await app.inject({ method: 'POST', url: '/v1/awk/namespaces', headers: json, payload: '{"namespace": [' }), 400, 'BadRequestException');
    assertError(t, await app.inject({ method: 'POST', url: '/v1/awk/namespaces', headers: json, payload: '' }), 400, 'BadRequestException');
    const huge = JSON.stringify({ namespace: ['x'.repeat(BODY_LIMIT * 4)] });
    const tooLarge = await app.inject({ method: 'POST', url: '/v1/awk/namespaces', headers: json, payload: huge });
    assertError(t, tooLarge, 413, 'PayloadTooLargeException');
    t.match(tooLarge.json().error.message, `more than ${BODY_LIMIT} bytes`, 'the 413 names the limit');
    t.match(tooLarge.json().error.message, 'server.body-limit', 'and the setting that raises it');
    const xml = { 'content-type': 'application/xml' };
    assertError(t, await app.inject({ method: 'POST', url: '/v1/awk/namespaces', headers: xml, payload: '<a/>' }), 415, 'UnsupportedMediaTypeException');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const token = await app.inject({ method: 'POST', url: '/v1/oauth/tokens', headers: form, payload: 'grant_type=client_credentials' });
    assertError(t, token, 406, 'UnsupportedOperationException', 'the deprecated OAuth token route');
    // curl -d sends a form type: the caller is told about the header, not that its JSON is wrong
    const formPlan = await app.inject({ method: 'POST', url: '/v1/awk/namespaces', headers: form, payload: '{"namespace":["x"]}' });
    assertError(t, formPlan, 415, 'UnsupportedMediaTypeException', 'a JSON body sent as a form');
    t.match(formPlan.json().error.message, /Content-Type: application\/json.*'application\/x-www-form-urlencoded'/);
    const untyped = await app.inject({ method: 'POST', url: '/v1/awk/namespaces', headers: { 'content-type': '' }, payload: '{"namespace":["x"]}' });
    t.equal(untyped.statusCode, 415, 'a body without Content-Type');
    t.match(untyped.json().error.message, /Content-Type: application\/json.*missing/);
  });

  t.test('every response carries a request id, echoed from a sane X-Request-Id', async (t) => {
    const echoed = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    t.equal(echoed.headers['x-request-id'], 'abc-123');
    const replaced = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id\twith spaces' } });
    t.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });
});
