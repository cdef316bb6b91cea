/**
 * The status page at GET / as its HTML is answered (the browser test, status-page-browser.test.ts,
 * loads it in Chromium): catalogs, plans and upstream errors shown, every name escaped, no secret,
 * token or plan-task string anywhere in it, and with authentication on, operators only.
 */
import t from 'tap';
import { buildIcefront } from '../../../src/main.js';
import { STATUS_PAGE_CSP } from '../../../src/http/ui/status-page.js';
import { authConfig, bearer, configWith } from '../../helpers/auth-config.js';
import { testConfig } from '../../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir } from '../../helpers/upstream-stub.js';
import { demoCatalog, DEMO_WAREHOUSE, post } from '../../service/planning/helpers.js';
import { assertError } from '../assertions.js';

const ORDERS = '/v1/demo/namespaces/sales/tables/orders';

/** The text of a table cell holding `text`, as the page writes it. */
const cell = (page: string, text: string) => page.includes(`>${text}<`);

t.test('after a plan, the page lists the catalog and the plan with its counts, and no plan id or plan task', async (t) => {
  const { app } = buildIcefront(testConfig([demoCatalog('demo')], { batchSize: 1 }));
  t.teardown(() => app.close());
  const planned = await post(app, `${ORDERS}/plan`, {});
  t.equal(planned.statusCode, 200);
  const plan = JSON.parse(planned.body) as { 'plan-id': string; 'plan-tasks': string[] };
  t.ok(plan['plan-tasks'].length > 0, 'the plan handed out plan tasks');
  t.equal((await post(app, `${ORDERS}/tasks`, { 'plan-task': plan['plan-tasks'][0] })).statusCode, 200);

  const res = await app.inject({ url: '/' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/html; charset=utf-8/);
  t.equal(res.headers['content-security-policy'], STATUS_PAGE_CSP);
  t.match(STATUS_PAGE_CSP, /default-src 'none'/);
  t.notMatch(STATUS_PAGE_CSP, /unsafe-inline|unsafe-eval/, 'no inline code but the page’s own, by hash');
  const page = res.body;
  t.ok(page.includes('id="catalog-demo"'), 'the catalog has its row');
  t.ok(cell(page, DEMO_WAREHOUSE), 'with its warehouse folder');
  t.ok(page.includes('filesystem catalog: Icefront plans from the table metadata'), 'and who plans it');
  t.ok(page.slice(page.indexOf('id="catalog-demo"')).includes('none: its files on local disk'), 'no upstream: its own files, where they are');
  const rows = page.split('<tr class="plan">').slice(1);
  t.equal(rows.length, 1, 'one plan row (a /tasks redemption is not a plan)');
  t.ok(cell(rows[0]!, 'sales.orders'), 'the plan names its table');
  t.match(rows[0]!, /<td class="num">\d+ \/ \d+<\/td>/, 'manifests and files read / skipped');
  t.match(rows[0]!, /\(\d+ plan tasks\)/, 'and the plan tasks handed out');
  t.ok(page.includes('/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan'), 'requests are listed by route template');
  t.match(page, /<svg class="chart"/, 'with their charts');
  for (const secret of [plan['plan-id'], ...plan['plan-tasks']]) t.notOk(page.includes(secret.slice(3, 43)), 'no plan id or plan-task string');
});

t.test('a refused plan says why, refusals count apart from failures, and each chart has its scale and times', async (t) => {
  const { app } = buildIcefront(testConfig([demoCatalog('demo')], {}));
  t.teardown(() => app.close());
  const refused = await post(app, `${ORDERS}/plan`, { filter: { type: 'eq', term: 'no_such_column', value: 1 } });
  t.equal(refused.statusCode, 400);
  const message = (JSON.parse(refused.body) as { error: { message: string } }).error.message;
  t.equal((await post(app, `${ORDERS}/plan`, {})).statusCode, 200);
  const page = (await app.inject({ url: '/' })).body;
  const rows = page.split('<tr class="plan">').slice(1);
  const row = rows.find((r) => r.includes('>400<'));
  t.ok(row, 'the refused plan has its row');
  if (!row) return;
  t.ok(row.includes(message.replaceAll('\'', '&#39;').replaceAll('"', '&quot;')), `with the reason its client was given: ${message}`);
  t.ok(rows.some((r) => r.includes('>200<') && r.includes('<td class="why"></td>')), 'an answered plan has no reason');
  const requests = page.slice(page.indexOf('id="requests"'), page.indexOf('id="plans"'));
  const plan = requests.split('<tr>').find((r) => r.includes('/tables/{table}/plan<'));
  t.ok(plan, 'the plan route has its row');
  if (!plan) return;
  t.match(plan, /<td class="num">2<\/td><td class="num">1<\/td><td class="num">0<\/td>/, 'two requests: one refused (4xx), none failed (5xx)');
  t.match(plan, /<rect class="bar-refused"/, 'the refusal is drawn in the bar');
  t.match(plan, /<text class="axis"[^>]*>\d\d:\d\d<\/text>/, 'the chart names its first and last minute');
  t.match(plan, /<text class="axis"[^>]*>top 2\/min<\/text>/, 'and what a full bar stands for');
});

t.test('a name holding markup is text on the page', async (t) => {
  const { app } = buildIcefront(testConfig([demoCatalog('demo')]));
  t.teardown(() => app.close());
  const evil = '<script>alert(1)</script>';
  // no such table (and a name with "/" is refused): the refused plan is listed with the name asked for
  const refused = await post(app, `/v1/demo/namespaces/%3Cb%3Ebold/tables/${encodeURIComponent(evil)}/plan`, {});
  t.ok(refused.statusCode >= 400 && refused.statusCode < 500, 'refused');
  const page = (await app.inject({ url: '/' })).body;
  t.notOk(page.includes(evil), 'the markup is not in the page as markup');
  t.notOk(page.includes('<b>bold'), 'nor in a namespace');
  t.ok(page.includes('&lt;b&gt;bold.&lt;script&gt;alert(1)&lt;/script&gt;'), 'it is there escaped');
  t.equal(page.match(/<script>/g)?.length, 1, 'the one script is the page’s own');
});

t.test('an upstream is shown without its credentials; its errors are listed', async (t) => {
  const dir = `${DEMO_WAREHOUSE}/sales/orders/metadata`;
  const stub = await startUpstreamStub({ prefix: 'wh', requireToken: 'upstream-bearer-s3cret', tables: [stubTableFromDir(dir, ['sales'], 'orders')] });
  const port = new URL(stub.uri).port;
  const uri = `http://icefront-user:hunter2-passw0rd@127.0.0.1:${port}/?api_key=query-s3cret#frag`;
  const up = stubCatalogConfig(stub, { uri, auth: { mode: 'bearer', token: 'upstream-bearer-s3cret' } });
  const { app } = buildIcefront(testConfig([demoCatalog('demo'), up]));
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });
  const caller = { authorization: 'Bearer caller-t0ken-never-shown' };
  t.equal((await app.inject({ url: '/v1/up/namespaces/sales/tables/orders', headers: caller })).statusCode, 200);
  stub.fault = { mode: 'reset', match: /broken/ };
  t.equal((await app.inject({ url: '/v1/up/namespaces/sales/tables/broken', headers: caller })).statusCode, 502);

  const page = (await app.inject({ url: '/', headers: caller })).body;
  t.ok(page.includes('id="catalog-up"'));
  t.ok(cell(page, `http://127.0.0.1:${port}`), 'the upstream URI: scheme, host and port only');
  for (const secret of ['icefront-user', 'hunter2', 'query-s3cret', 'api_key', 'frag', 'upstream-bearer-s3cret', 'caller-t0ken'])
    t.notOk(page.includes(secret), `nothing of ${secret}`);
  t.ok(page.includes('auto: the upstream advertises no /plan endpoint'), 'auto planning, and why it chose local');
  const errors = page.slice(page.indexOf('id="upstream-errors"'));
  t.ok(errors.includes('UPSTREAM_BAD_GATEWAY'), 'the failed load is an upstream error');
  t.ok(errors.includes('/tables/broken'), 'naming the request');
  t.match(page.slice(page.indexOf('id="catalog-up"')), /<span class="bad">failing<\/span>/, 'the last contact failed');
});

t.test('with authentication on, the page is for operators only', async (t) => {
  const { app } = buildIcefront(configWith([demoCatalog('demo')], authConfig()));
  t.teardown(() => app.close());
  assertError(t, await app.inject({ url: '/' }), 401, 'NotAuthorizedException', 'no credential');
  assertError(t, await app.inject({ url: '/', headers: bearer('alice') }), 403, 'ForbiddenException', 'a reader');
  assertError(t, await app.inject({ url: '/', headers: bearer('admin') }), 403, 'ForbiddenException', 'a writer of every catalog without an admin role');
  const ops = await app.inject({ url: '/', headers: bearer('ops') });
  t.equal(ops.statusCode, 200, 'a principal with an auth.admin-roles role');
  t.ok(ops.body.includes('authentication on: shown to auth.admin-roles only'));
});

t.test('work in flight counts a request held at its upstream, and no longer once it is answered', async (t) => {
  const dir = `${DEMO_WAREHOUSE}/sales/orders/metadata`;
  const stub = await startUpstreamStub({ prefix: 'wh', tables: [stubTableFromDir(dir, ['sales'], 'orders')] });
  const { app } = buildIcefront(testConfig([stubCatalogConfig(stub)]));
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });
  const inFlight = async () => {
    const page = (await app.inject({ url: '/' })).body;
    const section = page.slice(page.indexOf('id="in-flight"'));
    return Number(/<dt>HTTP requests<\/dt><dd>(\d+)<\/dd>/.exec(section)?.[1]);
  };
  t.equal(await inFlight(), 1, 'the page itself only');
  const hold = stub.hold(/\/tables\/orders$/);
  const load = app.inject({ url: '/v1/up/namespaces/sales/tables/orders' });
  await hold.arrived;
  t.equal(await inFlight(), 2, 'the held load-table and the page');
  hold.release();
  t.equal((await load).statusCode, 200);
  t.equal(await inFlight(), 1, 'the load-table has left');
});
