import t from 'tap';
import { buildServer } from '../../src/http/index.js';
import { createService } from '../../src/service/index.js';
import { listen, rawRequest } from '../helpers/iceberg-js.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';
import { assertBody, assertError } from './assertions.js';
import { AWKWARD_TABLES, buildAwkwardWarehouse, javaEncode, nsPath, recordingCatalog } from './temp-warehouse.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

t.test('namespace and table names through the URL', { skip }, async (t) => {
  const wh = buildAwkwardWarehouse('awk');
  const { catalog, seen } = recordingCatalog(wh.catalog);
  const app = buildServer({ service: createService({ catalogs: new Map([['awk', catalog]]) }), bodyLimit: 1 << 20 });
  t.teardown(async () => {
    await app.close();
    wh.remove();
  });
  const lastCall = () => seen[seen.length - 1];

  t.test('awkward names load with encodeURIComponent (iceberg-js) and URLEncoder (Java) encodings', async (t) => {
    for (const table of AWKWARD_TABLES) {
      for (const [style, encode] of [['encodeURIComponent', encodeURIComponent], ['URLEncoder', javaEncode]] as const) {
        const what = `${style} ${[...table.namespace, table.name].join(' / ')}`;
        const url = `/v1/awk/namespaces/${nsPath(table.namespace, encode)}/tables/${encode(table.name)}`;
        assertBody(t, await app.inject({ url }), 'LoadTableResult', what);
        t.same(lastCall(), ['loadTable', table.namespace, table.name], `${what}: catalog saw the exact names`);
        const ns = assertBody<{ namespace: string[] }>(t, await app.inject({ url: `/v1/awk/namespaces/${nsPath(table.namespace, encode)}` }), 'GetNamespaceResponse', what);
        t.same(ns.namespace, table.namespace);
      }
    }
  });

  t.test('%2F stays inside its level and %25 is decoded exactly once', async (t) => {
    await app.inject({ url: '/v1/awk/namespaces/we%2Fird%1Fx/tables' });
    t.same(lastCall(), ['listTables', ['we/ird', 'x']], 'we%2Fird is the single level "we/ird"');
    const res = await app.inject({ url: '/v1/awk/namespaces/%2541/tables' });
    t.same(lastCall(), ['listTables', ['%41']], '%2541 is "%41", not "A"');
    const body = assertBody<{ identifiers: { name: string }[] }>(t, res, 'ListTablesResponse');
    t.same(body.identifiers.map((i) => i.name), ['100%']);
    await app.inject({ url: '/v1/awk/namespaces/a%2Bb%1Fc+d' });
    t.same(lastCall(), ['loadNamespace', ['a+b', 'c d']], '%2B is "+", a bare + is a space (URLDecoder)');
    await app.inject({ url: '/v1/awk/namespaces/x%1fy' });
    t.same(lastCall(), ['loadNamespace', ['x', 'y']], 'the separator matches in lower case too');
  });

  t.test('the parent parameter splits on 0x1F, and on the literal %1F older Java clients send', async (t) => {
    const parent = ['sp ace', 'ü ni%code'];
    for (const [label, query] of [
      ['0x1F (iceberg-js, Java 1.7+)', new URLSearchParams({ parent: parent.join('\x1f') }).toString()],
      ['literal %1F (Java < 1.7)', new URLSearchParams({ parent: parent.join('%1F') }).toString()],
    ] as const) {
      await app.inject({ url: `/v1/awk/namespaces?${query}` });
      t.same(lastCall(), ['listNamespaces', parent], label);
    }
    const top = assertBody<{ namespaces: string[][] }>(t, await app.inject({ url: '/v1/awk/namespaces?parent=' }), 'ListNamespacesResponse');
    t.same(lastCall(), ['listNamespaces', []], 'an empty parent means the top level');
    t.ok(top.namespaces.some((ns) => ns[0] === 'dots.and.more'), 'dotted names stay one level');
  });

  t.test('empty levels, empty names and NUL are 400 before the catalog is asked', async (t) => {
    const before = seen.length;
    for (const url of [
      '/v1/awk/namespaces/a%1F%1Fb',
      '/v1/awk/namespaces/%1Fa',
      '/v1/awk/namespaces/a%00b',
      '/v1/awk/namespaces//tables',
      '/v1/awk/namespaces/dots.and.more/tables/',
      '/v1/awk/namespaces/dots.and.more/tables/a%00',
      '/v1/awk/namespaces?parent=a%00',
      '/v1/awk/namespaces?parent=a%1F%1Fb',
    ]) {
      assertError(t, await app.inject({ url }), 400, 'BadRequestException', url);
    }
    t.equal(seen.length, before, 'no catalog call');
  });

  t.test('.., . and / in names never escape the warehouse (real HTTP, no URL normalisation)', async (t) => {
    const live = buildServer({ service: createService({ catalogs: new Map([['awk', wh.catalog]]) }), bodyLimit: 1 << 20 });
    t.teardown(() => live.close());
    const base = await listen(live);
    for (const path of [
      '/v1/awk/namespaces/../tables',
      '/v1/awk/namespaces/%2E%2E/tables',
      '/v1/awk/namespaces/%2E%2E%1F%2E%2E%1Fetc/tables/passwd',
      '/v1/awk/namespaces/dots.and.more/tables/..',
      '/v1/awk/namespaces/dots.and.more/tables/%2E%2E%2F%2E%2E%2Fetc',
      '/v1/awk/namespaces/.',
      '/v1/awk/namespaces/sp%20ace%2F%C3%BC%20ni%25code/tables/t%20%2Bplus',
      '/v1/awk/namespaces/dots.and.more/tables/..%2Ftbl.v1',
    ]) {
      const res = await rawRequest(base, 'GET', path);
      t.ok(res.status >= 400 && res.status < 500, `${path} → ${res.status}`);
      const body = JSON.parse(res.body) as { error: { code: number } };
      t.equal(body.error.code, res.status, `${path}: ErrorModel`);
    }
  });
});
