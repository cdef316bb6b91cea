/**
 * A `rest` catalog planned by Icefront (`planning: local`) loads the table through the upstream
 * for the /plan and again for every /tasks redemption, as the caller, so the upstream authorizes
 * each. With an upstream that gives ETags (Rustberg, Gravitino), those loads revalidate the body
 * Icefront already holds (If-None-Match → 304) instead of reading and parsing the table again
 * (issue #31 item 4). The upstream here is a real HTTP server on loopback that answers 304 to a
 * matching If-None-Match; the table is a real Iceberg table in local files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { buildIcefront } from '../../../src/main.js';
import { buildWarehouse } from '../../../tools/make-fixtures.js';
import { testConfig } from '../../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir, type LoggedRequest } from '../../helpers/upstream-stub.js';
import { demoCatalog, keysOf, planAndRedeem, type ScanTasks } from '../../service/planning/helpers.js';

t.test("a plan's redemptions revalidate the table with the upstream's ETag; the upstream still authorizes every one", async (t) => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-revalidate-')));
  const warehouse = path.join(base, 'wh');
  buildWarehouse(warehouse, pathToFileURL(warehouse).href);
  const stub = await startUpstreamStub({ tables: [stubTableFromDir(path.join(warehouse, 'sales/returns/metadata'), ['sales'], 'returns')], requireToken: 'alice', conditionalLoads: true });
  const { app } = buildIcefront(
    testConfig([stubCatalogConfig(stub, { planning: 'local', storage: { local: { roots: [warehouse], locations: [] } } }), demoCatalog('direct', warehouse)], { batchSize: 1 }),
  );
  t.teardown(async () => {
    await app.close();
    await stub.close();
    fs.rmSync(base, { recursive: true, force: true });
  });
  const call = async (what: string, body: unknown, caller = 'alice') => {
    const res = await app.inject({
      method: 'POST',
      url: `/v1/up/namespaces/sales/tables/returns/${what}`,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${caller}` },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) as ScanTasks & { error?: { type: string } } };
  };
  const isLoad = (r: LoggedRequest) => r.method === 'GET' && r.url.endsWith('/namespaces/sales/tables/returns');

  const plan = await call('plan', {});
  t.equal(plan.status, 200);
  const tasks = plan.body['plan-tasks'] ?? [];
  t.ok(tasks.length >= 2, `the plan hands out ${tasks.length} plan tasks`);
  const keys = keysOf(plan.body);
  for (const task of tasks) {
    const page = await call('tasks', { 'plan-task': task });
    t.equal(page.status, 200, 'a redemption is answered');
    keys.push(...keysOf(page.body));
  }
  const direct = await planAndRedeem(app, '/v1/direct/namespaces/sales/tables/returns', {});
  t.same([...keys].sort(), [...direct.keys].sort(), 'the tasks are those of a filesystem catalog over the same folder');

  const loads = stub.requests.filter(isLoad);
  t.equal(loads.length, 1 + tasks.length, 'the /plan and every /tasks asked the upstream');
  t.equal(loads[0]!.headers['if-none-match'], undefined, 'the first load is a full one');
  t.ok(
    loads.slice(1).every((r) => typeof r.headers['if-none-match'] === 'string' && r.headers['if-none-match'] !== ''),
    'every later load revalidates the body held with its ETag',
  );
  t.ok(loads.every((r) => r.headers.authorization === 'Bearer alice'), "each as the caller, so the upstream judges the caller's access each time");

  // another caller is never served the first caller's body: the upstream, which does not know bob, refuses him
  const bob = await call('tasks', { 'plan-task': tasks[0] }, 'bob');
  t.equal(bob.status, 401, "another caller's redemption is the upstream's to refuse");
  const bobs = stub.requests.filter((r) => r.headers.authorization === 'Bearer bob');
  t.ok(bobs.length > 0 && bobs.every((r) => r.headers['if-none-match'] === undefined), "the upstream was asked as bob, never conditionally on alice's body");

  // the upstream stops allowing alice: her next redemption is refused, not answered from the body held
  stub.respond = (req) => (isLoad(req) ? { status: 403, body: JSON.stringify({ error: { message: 'Access denied', type: 'ForbiddenException', code: 403 } }) } : undefined);
  const refused = await call('tasks', { 'plan-task': tasks[0] });
  t.equal(refused.status, 403, 'a caller the upstream no longer allows is refused');
  t.equal(refused.body.error?.type, 'ForbiddenException');
});
