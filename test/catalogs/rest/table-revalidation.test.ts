/**
 * A `rest` catalog planned by Icefront (`planning: local`) loads the table through the upstream,
 * as the caller, so the upstream authorizes each plan (issue #31 item 4). With an upstream that
 * gives ETags (Rustberg, Gravitino), a load revalidates the body Icefront already holds
 * (If-None-Match → 304) instead of reading and parsing the table again. A plan task's redemption
 * needs only the snapshot it pinned, so within PINNED_REUSE_MS of the upstream's last answer to
 * the same caller it asks nothing: a scan's burst of redemptions costs one load, and a caller the
 * upstream stops allowing is refused within that window. The upstream here is a real HTTP server
 * on loopback that answers 304 to a matching If-None-Match; the table is a real Iceberg table in
 * local files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import { createRestUpstream, PINNED_REUSE_MS } from '../../../src/catalogs/rest/rest-upstream.js';
import { buildIcefront } from '../../../src/main.js';
import { buildWarehouse } from '../../../tools/make-fixtures.js';
import { testConfig } from '../../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir, type LoggedRequest } from '../../helpers/upstream-stub.js';
import { demoCatalog, keysOf, planAndRedeem, type ScanTasks } from '../../service/planning/helpers.js';

t.test("a scan's redemptions reuse the caller's load of moments ago; every /plan asks the upstream, conditionally, as the caller", async (t) => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-revalidate-')));
  const warehouse = path.join(base, 'wh');
  buildWarehouse(warehouse, pathToFileURL(warehouse).href);
  const stub = await startUpstreamStub({ tables: [stubTableFromDir(path.join(warehouse, 'sales/returns/metadata'), ['sales'], 'returns')], requireToken: 'alice', conditionalLoads: true });
  // the clock stands still: every redemption comes within PINNED_REUSE_MS of the plan, however slow the machine
  const now = Date.now();
  const { app } = buildIcefront(
    testConfig([stubCatalogConfig(stub, { planning: 'local', storage: { local: { roots: [warehouse], locations: [] } } }), demoCatalog('direct', warehouse)], { batchSize: 1 }),
    { now: () => now },
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
  const first = stub.requests.filter(isLoad);
  t.equal(first.length, 1, "the /plan loaded the table; its redemptions, moments later, reused alice's load");
  t.equal(first[0]!.headers['if-none-match'], undefined, 'the first load is a full one');

  const again = await call('plan', {});
  t.equal(again.status, 200);
  const loads = stub.requests.filter(isLoad);
  t.equal(loads.length, 2, 'a new /plan asks the upstream again');
  t.ok(typeof loads[1]!.headers['if-none-match'] === 'string' && loads[1]!.headers['if-none-match'] !== '', 'revalidating the body held with its ETag');
  t.ok(loads.every((r) => r.headers.authorization === 'Bearer alice'), "each as the caller, so the upstream judges the caller's access");

  // another caller is never served the first caller's load: the upstream, which does not know bob, refuses him
  const bob = await call('tasks', { 'plan-task': tasks[0] }, 'bob');
  t.equal(bob.status, 401, "another caller's redemption is the upstream's to refuse");
  const bobs = stub.requests.filter((r) => r.headers.authorization === 'Bearer bob');
  t.ok(bobs.length > 0 && bobs.every((r) => r.headers['if-none-match'] === undefined), "the upstream was asked as bob, never conditionally on alice's body");

  // the upstream stops allowing alice: her next plan is refused, not answered from the body held
  stub.respond = (req) => (isLoad(req) ? { status: 403, body: JSON.stringify({ error: { message: 'Access denied', type: 'ForbiddenException', code: 403 } }) } : undefined);
  const refused = await call('plan', {});
  t.equal(refused.status, 403, 'a caller the upstream no longer allows is refused');
  t.equal(refused.body.error?.type, 'ForbiddenException');
});

/** The demo warehouse's sales.returns behind a stub upstream; its loads counted, and a load as a caller. */
async function returnsUpstream(t: Test, options: { requireToken?: string; conditionalLoads?: boolean }, now?: () => number) {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-pinned-')));
  const warehouse = path.join(base, 'wh');
  buildWarehouse(warehouse, pathToFileURL(warehouse).href);
  const stub = await startUpstreamStub({ tables: [stubTableFromDir(path.join(warehouse, 'sales/returns/metadata'), ['sales'], 'returns')], ...options });
  const upstream = createRestUpstream(stubCatalogConfig(stub), now ? { now } : {});
  t.teardown(async () => {
    await upstream.close();
    await stub.close();
    fs.rmSync(base, { recursive: true, force: true });
  });
  const loads = () => stub.requests.filter((r) => r.method === 'GET' && r.url.endsWith('/namespaces/sales/tables/returns')).length;
  const load = (options?: { pinned?: boolean }, caller = 'Bearer alice') => upstream.loadTable(['sales'], 'returns', caller, undefined, options);
  return { stub, loads, load };
}

t.test('a pinned load reuses the upstream\'s answer to the same caller for PINNED_REUSE_MS, then asks again, and is refused once the caller is', async (t) => {
  let clock = 1_000_000;
  const { stub, loads, load } = await returnsUpstream(t, { requireToken: 'alice', conditionalLoads: true }, () => clock);

  const first = await load();
  t.equal(loads(), 1);
  clock += PINNED_REUSE_MS - 1;
  t.equal(await load({ pinned: true }), first, 'within the window, a pinned load is the last answer');
  t.equal(loads(), 1, 'and asks nothing');
  await load();
  t.equal(loads(), 2, 'a load that is not pinned always asks');
  clock += PINNED_REUSE_MS - 1;
  await load({ pinned: true });
  t.equal(loads(), 2, "the window counts from the upstream's last answer (a 304 too)");
  await t.rejects(load({ pinned: true }, 'Bearer bob'), "another caller's pinned load asks the upstream, which refuses it");

  stub.respond = () => ({ status: 403, body: JSON.stringify({ error: { message: 'Access denied', type: 'ForbiddenException', code: 403 } }) });
  clock += PINNED_REUSE_MS;
  const refused = await load({ pinned: true }).then(
    () => undefined,
    (err: unknown) => err,
  );
  t.ok(refused !== undefined, 'past the window, a pinned load asks again, and the upstream refuses alice');
  t.equal((refused as { upstream?: { status?: number } }).upstream?.status, 403, `refused with the upstream's 403: ${String(refused)}`);
});

t.test('concurrent pinned loads for one caller share one upstream call; unpinned ones and other callers each ask', async (t) => {
  const { stub, loads, load } = await returnsUpstream(t, {});

  // a burst of redemptions before any load was answered (nothing held to reuse)
  const held = stub.hold(/\/tables\/returns$/);
  const burst = Array.from({ length: 8 }, () => load({ pinned: true }));
  const other = load({ pinned: true }, 'Bearer bob');
  await held.arrived;
  held.release();
  const tables = await Promise.all(burst);
  await other;
  t.ok(tables.every((x) => x === tables[0]), 'the eight pinned loads got one answer');
  t.equal(loads(), 2, "one upstream call for alice's eight, one for bob's");
  await Promise.all([load(), load()]);
  t.equal(loads(), 4, 'unpinned loads each ask the upstream, even at the same moment');
});
