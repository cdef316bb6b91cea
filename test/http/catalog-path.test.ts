/**
 * A catalog route's path parameters, decoded once per request target and shared by the requests
 * that name it (catalog-path.ts): decoded as RESTUtil decodes them, never changed by a request,
 * a malformed target refused every time, the kept targets bounded, and the access and audit
 * lines of a shared target written as those of any other request.
 */
import t from 'tap';
import { isIcefrontError } from '../../src/errors/index.js';
import { accessLineMembers, sharedBindings } from '../../src/http/access-line.js';
import { AUDIT_LOGGER_NAME } from '../../src/http/audit-line.js';
import { decodeCatalogPath, KEPT_TARGETS } from '../../src/http/catalog-path.js';
import { buildIcefront } from '../../src/main.js';
import { createLogger } from '../../src/observability/index.js';
import { testConfig } from '../helpers/config.js';
import { logLines } from '../helpers/log-lines.js';
import { demoCatalog } from '../service/planning/helpers.js';

const TABLE = '/v1/{prefix}/namespaces/{namespace}/tables/{table}';

t.test('path parameters are decoded as RESTUtil decodes them, and bound to the log as catalog, namespace and table', async (t) => {
  const { path, bindings } = decodeCatalogPath(TABLE, '/v1/my%20wh/namespaces/we%2Fird%1Fa+b/tables/c%2Bd?snapshots=refs');
  t.same(path, { prefix: 'my wh', namespace: ['we/ird', 'a b'], table: 'c+d' });
  t.same(bindings, { catalog: 'my wh', namespace: ['we/ird', 'a b'], table: 'c+d' });
  t.same(decodeCatalogPath('/v1/{prefix}/namespaces', '/v1/demo/namespaces').bindings, { catalog: 'demo' }, 'only the parameters the route has');
});

t.test('a target decoded once is shared by the requests that name it, and none of them can change it', async (t) => {
  const url = '/v1/demo/namespaces/sales/tables/orders';
  const first = decodeCatalogPath(TABLE, url);
  t.equal(decodeCatalogPath(TABLE, url), first, 'the same decoded path');
  t.throws(() => (first.path.namespace as string[]).push('x'), TypeError);
  t.throws(() => ((first.bindings as Record<string, unknown>).table = 'other'), TypeError);
  t.same(decodeCatalogPath(TABLE, url).path, { prefix: 'demo', namespace: ['sales'], table: 'orders' });
});

t.test('a malformed target is refused each time it is sent, with the code of what is malformed', async (t) => {
  const refusal = (url: string): unknown => {
    try {
      decodeCatalogPath(TABLE, url);
    } catch (err) {
      return err;
    }
    return undefined;
  };
  for (let i = 0; i < 2; i++) {
    t.ok(isIcefrontError(refusal('/v1/demo/namespaces/sales/tables/%zz'), 'INVALID_IDENTIFIER'), `a malformed table name, time ${i + 1}`);
    t.ok(isIcefrontError(refusal('/v1/%E0%A4/namespaces/sales/tables/t'), 'BAD_REQUEST'), `a malformed prefix, time ${i + 1}`);
  }
});

t.test('at most KEPT_TARGETS targets are kept per route: the least recently used is decoded again once more have come', async (t) => {
  const route = '/v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics';
  const target = (i: number) => `/v1/demo/namespaces/n/tables/t${i}/metrics`;
  const first = decodeCatalogPath(route, target(0));
  const used = decodeCatalogPath(route, target(1));
  for (let i = 2; i <= KEPT_TARGETS + 1; i++) {
    decodeCatalogPath(route, target(i));
    decodeCatalogPath(route, target(1)); // asked for all along
  }
  t.equal(decodeCatalogPath(route, target(1)), used, 'a target in use stays kept');
  const again = decodeCatalogPath(route, target(0));
  t.not(again, first, 'the least recently used was dropped, and is decoded anew');
  t.same(again.path, first.path, 'to the same parameters');
});

t.test('the access-line members of a shared record are those of a record of its own', async (t) => {
  const fields = { catalog: 'we"ird', namespace: ['a', 'b\n'], table: 't', upstream: true };
  const shared = sharedBindings({ ...fields });
  t.equal(accessLineMembers(shared), accessLineMembers(fields));
  t.same(JSON.parse(`{${accessLineMembers(shared).slice(1)}}`), fields, 'members JSON reads back');
  t.same(Object.keys(shared), Object.keys(fields), 'nothing enumerable added');
});

t.test('requests for tables kept and not kept each log their own catalog, namespace and table', async (t) => {
  const { lines, destination } = logLines();
  const { app } = buildIcefront(testConfig([demoCatalog('demo')]), { logger: createLogger({ level: 'info', destination }) });
  t.teardown(() => app.close());
  const urls = ['/v1/demo/namespaces/sales/tables/orders', '/v1/demo/namespaces/sales/tables/orders', '/v1/demo/namespaces/sales/tables/returns', '/v1/demo/namespaces/events/tables/clicks'];
  for (const [i, url] of urls.entries()) t.equal((await app.inject({ url, headers: { 'x-request-id': `r${i}` } })).statusCode, 200, url);
  for (const [i, url] of urls.entries()) {
    const [, namespace, table] = /namespaces\/([^/]+)\/tables\/([^/]+)/.exec(url)!;
    const expected = { catalog: 'demo', namespace: [namespace], table };
    const mine = lines.filter((l) => l.reqId === `r${i}`);
    t.match(mine.find((l) => l.msg === 'request completed'), { ...expected, req: { url }, res: { statusCode: 200 } }, `r${i} access line`);
    t.match(mine.find((l) => l.name === AUDIT_LOGGER_NAME), { ...expected, operation: 'load-table', status: 200 }, `r${i} audit line`);
  }
});
