import t from 'tap';
import { routeRequest } from '../../src/service/request-route.js';

const names = new Set(['up', 'a|b', 'signed']);
const upstreams = { has: (name: string) => names.has(name), hashesBodies: (name: string) => name === 'signed' };
const none = () => false;
const route = (endpoint: string, path: string, readsBody: (e: string) => boolean = none) => routeRequest(endpoint, path, upstreams, readsBody);

t.test('a request under an upstream catalog is routed to it, in the way its endpoint needs', async (t) => {
  const table = '/v1/up/namespaces/db/tables/t';
  t.same(route('GET /v1/{prefix}/namespaces/{namespace}/tables/{table}', table), { to: 'upstream', catalog: 'up', endpoint: 'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}', way: 'load-table', readBody: false });
  t.match(route('GET /v1/{prefix}/namespaces', '/v1/up/namespaces'), { way: 'listing', lists: 'namespaces', readBody: false });
  t.match(route('GET /v1/{prefix}/namespaces/{namespace}/tables', '/v1/up/namespaces/db/tables'), { way: 'listing', lists: 'identifiers' });
  t.match(route('GET /v1/{prefix}/namespaces/{namespace}/views', '/v1/up/namespaces/db/views'), { way: 'listing', lists: 'identifiers' });
  t.match(route('POST /v1/{prefix}/transactions/commit', '/v1/up/transactions/commit'), { way: 'commit', readBody: false });
  t.match(route('POST /v1/{prefix}/namespaces/{namespace}/tables/{table}', table), { way: 'stream', readBody: false });
  for (const e of ['POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan', 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks'])
    t.match(route(e, `${table}/${e.split('/').pop()}`), { way: 'planning', readBody: true }, `${e}: planning, its body read`);
  t.match(route('POST /v1/{prefix}/namespaces', '/v1/up/namespaces', (e) => e === 'POST /v1/{prefix}/namespaces'), { way: 'stream', readBody: true }, 'a body authorization reads is read');
  t.match(route('GET /v1/{prefix}/namespaces', '/v1/a%7Cb/namespaces'), { to: 'upstream', catalog: 'a|b' }, 'the prefix is decoded');
});

t.test('every body to an upstream whose signature covers the body is read before it leaves', async (t) => {
  const table = '/v1/signed/namespaces/db/tables/t';
  t.match(route('POST /v1/{prefix}/namespaces/{namespace}/tables/{table}', table), { way: 'stream', readBody: true }, 'a commit');
  t.match(route('POST /v1/{prefix}/namespaces', '/v1/signed/namespaces'), { way: 'stream', readBody: true }, 'a namespace create');
  t.match(route('POST /v1/{prefix}/transactions/commit', '/v1/signed/transactions/commit'), { way: 'commit', readBody: true });
  t.match(route('POST /v1/{prefix}/namespaces', '/v1/up/namespaces'), { way: 'stream', readBody: false }, 'another upstream still streams');
});

t.test('anything else is answered by Icefront', async (t) => {
  t.same(route('GET /v1/{prefix}/namespaces', '/v1/demo/namespaces'), { to: 'icefront' }, 'a catalog of its own');
  t.same(route('GET /v1/{prefix}/namespaces', '/v1/%E0%A4%A/namespaces'), { to: 'icefront' }, 'malformed percent-encoding names no catalog');
  t.same(route('GET /v1/config', '/v1/config'), { to: 'icefront' }, '/v1/config');
  t.same(route('GET /healthz', '/healthz'), { to: 'icefront' });
});
