import t from 'tap';
import { logLines } from '../helpers/log-lines.js';
import { buildServer } from '../../src/http/index.js';
import { createLogger } from '../../src/observability/index.js';
import { createService } from '../../src/service/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';
import { buildAwkwardWarehouse } from './temp-warehouse.js';
import { appWith, demoCatalog, post } from '../service/planning/helpers.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

t.test('request logging', { skip }, async (t) => {
  const { lines, destination } = logLines();
  const wh = buildAwkwardWarehouse('awk');
  const logger = createLogger({ level: 'debug', destination });
  const app = buildServer({ service: createService({ catalogs: new Map([['awk', wh.catalog]]) }), logger, bodyLimit: 1 << 20 });
  t.teardown(async () => {
    await app.close();
    wh.remove();
  });

  const secret = 'Bearer s3cr3t-t0k3n-value';
  const ok = await app.inject({ url: '/v1/awk/namespaces/dots.and.more/tables/tbl.v1', headers: { authorization: secret, 'x-request-id': 'req-ok' } });
  t.equal(ok.statusCode, 200);
  const missing = await app.inject({ url: '/v1/awk/namespaces/dots.and.more/tables/nope', headers: { authorization: secret, 'x-request-id': 'req-404' } });
  t.equal(missing.statusCode, 404);

  t.notOk(lines.some((l) => JSON.stringify(l).includes('s3cr3t')), 'the Authorization value is never logged');
  const ofOk = lines.filter((l) => l.reqId === 'req-ok');
  t.ok(ofOk.length > 0, 'lines carry the request id');
  t.ok(
    ofOk.some((l) => l.catalog === 'awk' && JSON.stringify(l.namespace) === '["dots.and.more"]' && l.table === 'tbl.v1'),
    'a line of the request is bound to catalog, namespace and table',
  );
  const errorLine = lines.find((l) => l.reqId === 'req-404' && l.errorType === 'NoSuchTableException');
  t.ok(errorLine, 'the 404 is logged with its Iceberg type');
  t.equal(errorLine?.table, 'nope', 'and with the table it was about');
});

t.test('plan ids never reach a log line: request lines name the route, not the id', async (t) => {
  const { lines, destination } = logLines();
  const app = appWith([demoCatalog()], { batchSize: 1 }, createLogger({ level: 'info', destination }));
  t.teardown(() => app.close());
  const base = '/v1/demo/namespaces/sales/tables/orders';
  const plan = JSON.parse((await post(app, `${base}/plan`, {})).body) as { 'plan-id': string; 'plan-tasks': string[] };
  const id = encodeURIComponent(plan['plan-id']);
  t.equal((await app.inject({ url: `${base}/plan/${id}` })).statusCode, 200);
  t.equal((await app.inject({ method: 'DELETE', url: `${base}/plan/${id}?x=1` })).statusCode, 204);
  t.equal((await post(app, `${base}/tasks`, { 'plan-task': plan['plan-tasks'][0] })).statusCode, 200);
  const text = JSON.stringify(lines);
  t.notOk(text.includes(plan['plan-id'].slice(3, 40)) || text.includes(id.slice(3, 40)), 'no line holds the plan id');
  t.notOk(text.includes(plan['plan-tasks'][0]!.slice(3, 40)), 'no line holds a plan task');
  const urls = lines.filter((l) => l.msg === 'request completed').map((l) => (l.req as { url: string }).url);
  t.equal(urls.filter((u) => u.startsWith(`${base}/plan/{plan-id}`)).length, 2, 'the request lines of GET and DELETE name the route');
  t.ok(lines.some((l) => l.msg === 'request completed' && (l.res as { statusCode: number }).statusCode === 204), 'responses are still logged');
});
