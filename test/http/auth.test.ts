import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { createLogger } from '../../src/observability/index.js';
import { buildIcefront } from '../../src/main.js';
import { authConfig, bearer, configWith, nestedWarehouse, TOKENS } from '../helpers/auth-config.js';
import { AUDIENCE, startIdentityProvider } from '../helpers/identity-provider.js';
import { logLines } from '../helpers/log-lines.js';
import { demoCatalog, DEMO_WAREHOUSE, parse } from '../service/planning/helpers.js';
import { assertError } from './assertions.js';

const json = { 'content-type': 'application/json' };
const SALES_EU = 'sales%1Feu';
const ORDERS = `/v1/demo/namespaces/${SALES_EU}/tables/orders`;

t.test('authentication and the allow rules, on a filesystem catalog', async (t) => {
  const idp = await startIdentityProvider();
  const wh = nestedWarehouse(DEMO_WAREHOUSE);
  const { lines, destination } = logLines();
  const auth = authConfig({ jwt: idp.config({ tokenEndpoint: 'https://idp.test/oauth/token' }) });
  const config = configWith([demoCatalog('demo', wh.dir), demoCatalog('other')], auth, 1);
  const { app } = buildIcefront(config, { logger: createLogger({ level: 'debug', destination }) });
  t.teardown(async () => {
    await app.close();
    await idp.close();
    wh.remove();
  });
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, headers: { ...json, ...headers }, payload: JSON.stringify(body) });

  await t.test('/healthz stays open; everything else without a credential is a 401 with a Bearer challenge', async (t) => {
    t.equal((await get('/healthz')).statusCode, 200);
    const urls = ['/v1/config?warehouse=demo', '/v1/demo/namespaces', ORDERS, '/metrics', '/v1/demo/namespaces/nope', '/nowhere', '/v1/other/namespaces/sales/tables/orders'];
    for (const url of urls) {
      const res = await get(url);
      assertError(t, res, 401, 'NotAuthorizedException', url);
      t.match(res.headers['www-authenticate'], /^Bearer realm="icefront"$/, `${url}: WWW-Authenticate`);
    }
    assertError(t, await post(`${ORDERS}/plan`, {}), 401, 'NotAuthorizedException', 'plan');
    assertError(t, await app.inject({ method: 'DELETE', url: `${ORDERS}/plan/p1.x` }), 401, 'NotAuthorizedException', 'cancel');
  });

  await t.test('a token Icefront does not accept is a 401 that names invalid_token and never echoes it', async (t) => {
    const forged = 'tok-alice-7c1e9a3f5c';
    for (const header of [`Bearer ${forged}`, `Basic ${Buffer.from(`alice:${TOKENS.alice}`).toString('base64')}`, 'Bearer', `Token ${TOKENS.alice}`]) {
      const res = await get(ORDERS, { authorization: header });
      assertError(t, res, 401, 'NotAuthorizedException', header.split(' ')[0]);
      t.match(res.headers['www-authenticate'], /^Bearer realm="icefront"(, error="invalid_token")?$/);
      t.notOk(res.body.includes(forged) || res.body.includes(TOKENS.alice), 'the answer does not echo the token');
    }
    t.match((await get(ORDERS, { authorization: `Bearer ${forged}` })).headers['www-authenticate'], /error="invalid_token"/);
  });

  await t.test('JWTs: a valid one is a principal with its groups; every forged or mismatched one is a 401', async (t) => {
    const analyst = await idp.sign({ sub: 'jane', groups: ['analyst'] });
    t.equal((await get(ORDERS, { authorization: `Bearer ${analyst}` })).statusCode, 200, 'groups: [analyst] reads sales.eu');
    assertError(t, await get('/v1/demo/namespaces/events/tables/clicks', { authorization: `Bearer ${analyst}` }), 403, 'ForbiddenException', 'and nothing else');
    const { generateKeyPair } = await import('jose');
    const stranger = await generateKeyPair('ES256');
    const forged: [string, string][] = [
      ['expired', await idp.sign({ sub: 'jane', groups: ['analyst'] }, { expiresIn: -120 })],
      ['wrong issuer', await idp.sign({ sub: 'jane', groups: ['analyst'] }, { issuer: 'https://evil.example' })],
      ['wrong audience', await idp.sign({ sub: 'jane', groups: ['analyst'] }, { audience: `${AUDIENCE}-not` })],
      ['alg none', idp.unsigned({ sub: 'jane', groups: ['analyst'] })],
      ['HS256 signed with the public key', await idp.sign({ sub: 'jane', groups: ['analyst'] }, { alg: 'HS256', key: new TextEncoder().encode(idp.publicPem) })],
      ['unknown kid', await idp.sign({ sub: 'jane', groups: ['analyst'] }, { alg: 'ES256', kid: 'rotated-away', key: stranger.privateKey })],
    ];
    for (const [what, token] of forged) {
      const res = await get(ORDERS, { authorization: `Bearer ${token}` });
      assertError(t, res, 401, 'NotAuthorizedException', what);
      t.match(res.headers['www-authenticate'], /error="invalid_token"/, `${what}: invalid_token`);
      t.notOk(res.body.includes(token.split('.')[1]!), `${what}: the token is not echoed`);
    }
  });

  await t.test('/v1/config: a catalog the caller may not see is a 403; the token endpoint is advertised', async (t) => {
    const ok = await get('/v1/config?warehouse=demo', bearer('alice'));
    t.equal(ok.statusCode, 200);
    t.equal(JSON.parse(ok.body).defaults['oauth2-server-uri'], 'https://idp.test/oauth/token', 'oauth2-server-uri in defaults');
    const other = await get('/v1/config?warehouse=other', bearer('alice'));
    assertError(t, other, 403, 'ForbiddenException', 'another catalog');
    t.equal(other.json().error.message, 'Forbidden: alice may not see catalog "other" (no auth.allow rule allows it)', 'the 403 says who may not do what, and why');
    assertError(t, await get('/v1/config?warehouse=nope', bearer('alice')), 403, 'ForbiddenException', 'an unknown one looks the same');
    assertError(t, await get('/v1/config?warehouse=nope', bearer('admin')), 404, 'NoSuchWarehouseException', 'unless the caller may see every catalog');
    assertError(t, await get('/v1/config?warehouse=demo', bearer('carol')), 403, 'ForbiddenException', 'a caller no rule names');
  });

  await t.test('listings show what the caller may read, and the namespaces on the path to it', async (t) => {
    const names = async (url: string, who: keyof typeof TOKENS = 'alice') => {
      const res = await get(url, bearer(who));
      t.equal(res.statusCode, 200, url);
      const body = JSON.parse(res.body) as { namespaces?: string[][]; identifiers?: { namespace: string[]; name: string }[] };
      return body.namespaces ?? body.identifiers!.map((i) => [...i.namespace, i.name].join('.'));
    };
    t.same(await names('/v1/demo/namespaces'), [['sales']], 'top level: only the way to sales.eu');
    t.same(await names('/v1/demo/namespaces?parent=sales'), [['sales', 'eu']], 'sales.us is hidden');
    t.same(await names('/v1/demo/namespaces?parent=sales%1Feu'), [], 'below a readable namespace: all of it (here nothing)');
    t.same(await names('/v1/demo/namespaces?pageSize=1'), [['sales']], 'filtered before pagination');
    t.same(await names('/v1/demo/namespaces/sales/tables'), [], 'an ancestor shows no tables');
    t.same(await names(`/v1/demo/namespaces/${SALES_EU}/tables`), ['sales.eu.orders']);
    t.same(await names('/v1/demo/namespaces', 'admin'), [['events'], ['legacy'], ['sales']], 'a whole-catalog rule sees everything');
    assertError(t, await get('/v1/demo/namespaces?parent=events', bearer('alice')), 403, 'ForbiddenException', 'a namespace off the path');
    assertError(t, await get('/v1/demo/namespaces/legacy/tables', bearer('alice')), 403, 'ForbiddenException', 'its tables');
    t.equal((await app.inject({ method: 'HEAD', url: '/v1/demo/namespaces/sales', headers: bearer('alice') })).statusCode, 204, 'an ancestor exists');
    assertError(t, await get('/v1/demo/namespaces/sales', bearer('alice')), 403, 'ForbiddenException', 'but its properties are not readable');
    t.equal((await get(`/v1/demo/namespaces/${SALES_EU}`, bearer('alice'))).statusCode, 200);
    t.equal((await app.inject({ method: 'HEAD', url: '/v1/demo/namespaces/legacy', headers: bearer('alice') })).statusCode, 403);
  });

  await t.test('tables: read where a rule reaches, 403 elsewhere, 404 only where the caller may look', async (t) => {
    t.equal((await get(ORDERS, bearer('alice'))).statusCode, 200);
    t.equal((await app.inject({ method: 'HEAD', url: ORDERS, headers: bearer('alice') })).statusCode, 204);
    assertError(t, await get('/v1/demo/namespaces/events/tables/clicks', bearer('alice')), 403, 'ForbiddenException');
    assertError(t, await get('/v1/demo/namespaces/sales%1Fus/tables/returns', bearer('alice')), 403, 'ForbiddenException', 'a sibling namespace');
    assertError(t, await get(`/v1/demo/namespaces/${SALES_EU}/tables/nope`, bearer('alice')), 404, 'NoSuchTableException');
    assertError(t, await get('/v1/demo/namespaces/events/tables/nope', bearer('alice')), 403, 'ForbiddenException', 'existence is not revealed');
    assertError(t, await get('/v1/nope/namespaces/x/tables/y', bearer('alice')), 403, 'ForbiddenException', 'an unknown catalog');
    assertError(t, await get('/v1/other/namespaces/sales/tables/orders', bearer('alice')), 403, 'ForbiddenException', 'the same name in another catalog');
  });

  await t.test('a plan id or plan task never widens access: the table in the path decides', async (t) => {
    const planned = await post(`${ORDERS}/plan`, {}, bearer('alice'));
    t.equal(planned.statusCode, 200);
    const plan = parse(planned.body);
    const task = plan['plan-tasks']?.[0];
    t.ok(task, 'batches of one: the plan has plan tasks');
    const planId = plan['plan-id']!;
    t.equal((await post(`${ORDERS}/tasks`, { 'plan-task': task }, bearer('alice'))).statusCode, 200, 'alice redeems her task');
    assertError(t, await post(`${ORDERS}/tasks`, { 'plan-task': task }, bearer('bob')), 403, 'ForbiddenException', 'bob holding it under its own table');
    const clicks = '/v1/demo/namespaces/events/tables/clicks';
    assertError(t, await post(`${clicks}/tasks`, { 'plan-task': task }, bearer('bob')), 404, 'NoSuchPlanTaskException', 'bob under a table he may read gets nothing');
    assertError(t, await get(`${ORDERS}/plan/${planId}`, bearer('bob')), 403, 'ForbiddenException', 'fetching the plan');
    assertError(t, await app.inject({ method: 'DELETE', url: `${ORDERS}/plan/${planId}`, headers: bearer('bob') }), 403, 'ForbiddenException', 'cancelling it');
    assertError(t, await get(`${clicks}/plan/${planId}`, bearer('bob')), 404, 'NoSuchPlanIdException', 'its id under another table');
    t.equal((await get(`${ORDERS}/plan/${planId}`, bearer('alice'))).statusCode, 200);
    t.equal((await app.inject({ method: 'DELETE', url: `${ORDERS}/plan/${planId}`, headers: bearer('alice') })).statusCode, 204);
    assertError(t, await post(`${clicks}/plan`, {}, bearer('alice')), 403, 'ForbiddenException', 'planning a table alice may not read');
  });

  await t.test('writes need a write rule on every namespace they change', async (t) => {
    const schema = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] };
    assertError(t, await post(`/v1/demo/namespaces/${SALES_EU}/tables`, { name: 'x', schema }, bearer('alice')), 403, 'ForbiddenException', 'a read rule does not allow create');
    t.notOk(fs.existsSync(path.join(wh.dir, 'sales', 'eu', 'x')), 'and nothing was created');
    t.equal((await post(`/v1/demo/namespaces/${SALES_EU}/tables`, { name: 'x', schema }, bearer('writer'))).statusCode, 200, 'a write rule does');
    t.ok(fs.existsSync(path.join(wh.dir, 'sales', 'eu', 'x', 'metadata', 'v1.metadata.json')), 'and the table is there');
    assertError(t, await app.inject({ method: 'DELETE', url: ORDERS, headers: bearer('alice') }), 403, 'ForbiddenException', 'drop');
    assertError(t, await post(ORDERS, { updates: [] }, bearer('alice')), 403, 'ForbiddenException', 'commit');
    assertError(t, await post('/v1/demo/namespaces', { namespace: ['sales', 'eu', 'x'] }, bearer('alice')), 403, 'ForbiddenException', 'create namespace without any write rule');
    t.equal((await post('/v1/demo/namespaces', { namespace: ['sales', 'eu', 'y'] }, bearer('writer'))).statusCode, 200, 'create below a writable namespace');
    assertError(t, await post('/v1/demo/namespaces', { namespace: ['legacy', 'x'] }, bearer('writer')), 403, 'ForbiddenException', 'create elsewhere');
    assertError(t, await post('/v1/demo/namespaces', { properties: {} }, bearer('writer')), 400, 'BadRequestException', 'a body that names no namespace');
    const id = (ns: string[], name: string) => ({ namespace: ns, name });
    const rename = (from: string[], to: string[]) => post('/v1/demo/tables/rename', { source: id(from, 'orders'), destination: id(to, 'orders2') }, bearer('writer'));
    assertError(t, await rename(['sales', 'eu'], ['sales', 'eu']), 406, 'UnsupportedOperationException', 'rename inside');
    assertError(t, await rename(['sales', 'eu'], ['legacy']), 403, 'ForbiddenException', 'rename out of it');
    assertError(t, await rename(['legacy'], ['sales', 'eu']), 403, 'ForbiddenException', 'rename into it');
    const commit = (...ids: { namespace: string[]; name: string }[]) =>
      post('/v1/demo/transactions/commit', { 'table-changes': ids.map((identifier) => ({ identifier, requirements: [], updates: [] })) }, bearer('writer'));
    t.equal((await commit(id(['sales', 'eu'], 'orders'))).statusCode, 204, 'a transaction inside (one table: a filesystem catalog commits one at a time)');
    assertError(t, await commit(id(['sales', 'eu'], 'orders'), id(['events'], 'clicks')), 403, 'ForbiddenException', 'one table outside');
    assertError(t, await post(`${ORDERS}/sign`, { region: 'us-east-1', method: 'GET', uri: 's3://b/k', headers: {} }, bearer('alice')), 406, 'UnsupportedOperationException', 'signing a GET is a read');
    assertError(t, await post(`${ORDERS}/sign`, { region: 'us-east-1', method: 'PUT', uri: 's3://b/k', headers: {} }, bearer('alice')), 403, 'ForbiddenException', 'signing a PUT is a write');
    assertError(t, await post(`${ORDERS}/metrics`, { 'report-type': 'scan-report' }, bearer('alice')), 406, 'UnsupportedOperationException', 'reporting metrics is a read');
  });

  await t.test('/metrics is for the admin role only; the token route needs no credential and relays to the provider (unreachable here)', async (t) => {
    t.equal((await get('/metrics', bearer('ops'))).statusCode, 200);
    const notOps = await get('/metrics', bearer('admin'));
    assertError(t, notOps, 403, 'ForbiddenException', 'catalog rights are not operator rights');
    t.match(notOps.json().error.message, /^Forbidden: \S+ may not use \/metrics \(it is for operators only: a role listed in auth\.admin-roles\)$/, 'the 403 names the setting, and blames no allow rule (none can grant it)');
    assertError(t, await get('/metrics', bearer('alice')), 403, 'ForbiddenException');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // auth.jwt.token-endpoint is https://idp.test/… here, which does not resolve (test/http/token-route.test.ts relays to a real one)
    assertError(t, await app.inject({ method: 'POST', url: '/v1/oauth/tokens', headers: form, payload: 'grant_type=client_credentials' }), 503, 'ServiceUnavailableException');
    assertError(t, await app.inject({ method: 'PUT', url: ORDERS, headers: bearer('carol') }), 405, 'MethodNotAllowedException', 'a method no route has: 405 for anyone authenticated');
  });

  await t.test('no token reaches a log line; lines name the principal', async (t) => {
    const text = JSON.stringify(lines);
    for (const token of Object.values(TOKENS)) t.notOk(text.includes(token), 'static token not logged');
    t.notOk(/eyJ[A-Za-z0-9_-]{10,}\.eyJ/.test(text), 'no JWT logged');
    t.ok(lines.some((l) => l.principal === 'alice'), 'the principal is bound to request lines');
    t.ok(lines.some((l) => l.msg === 'request completed' && l.principal === 'prometheus'), 'the request-completed line too, on routes without a catalog');
    t.ok(lines.some((l) => l.principal === 'bob' && l.errorType === 'ForbiddenException'), 'refusals are logged with who was refused');
  });
});

t.test('without an auth block every caller is trusted, as before', async (t) => {
  const { app } = buildIcefront(configWith([demoCatalog('demo')], undefined));
  t.teardown(() => app.close());
  t.equal((await app.inject({ url: '/v1/demo/namespaces/sales/tables/orders' })).statusCode, 200);
  t.equal((await app.inject({ url: '/metrics' })).statusCode, 200);
  t.notOk('oauth2-server-uri' in JSON.parse((await app.inject({ url: '/v1/config' })).body).defaults);
});
