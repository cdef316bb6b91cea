import t from 'tap';
import { logLines } from '../helpers/log-lines.js';
import { buildServer } from '../../src/http/index.js';
import { createLogger } from '../../src/observability/index.js';
import { createService } from '../../src/service/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';
import { buildAwkwardWarehouse } from './temp-warehouse.js';

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
