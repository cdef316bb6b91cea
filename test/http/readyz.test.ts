/**
 * GET /readyz over real upstreams: one that answers, one that is dead (a closed port), one that
 * is slower than its timeout. Not ready, naming the two and why; ready once they recover. The
 * checks run in the background on a short interval; the test polls /readyz until it changes.
 */
import t from 'tap';
import { startIcefront } from '../../src/main.js';
import { authConfig, configWith } from '../helpers/auth-config.js';
import { testConfig } from '../helpers/config.js';
import { eventually } from '../helpers/serve-process.js';
import { startUpstreamStub, stubCatalogConfig } from '../helpers/upstream-stub.js';
import { demoCatalog } from '../service/planning/helpers.js';

interface ReadyBody {
  status: string;
  'not-ready': string[];
  catalogs: Record<string, { ready: boolean; reason?: string; status?: number; message?: string }>;
}

const SECRET = 'icefront-own-upstream-token-5f3e';

t.test('/readyz: 503 naming the dead and the slow upstream and why, 200 once they answer again', async (t) => {
  const ok = await startUpstreamStub({ requireToken: SECRET });
  const slow = await startUpstreamStub();
  const dead = await startUpstreamStub();
  const deadPort = Number(new URL(dead.origin).port);
  await dead.refuse();
  slow.fault = { mode: 'hang', match: /\/v1\/config/ };
  t.teardown(() => Promise.all([ok.close(), slow.close()]));
  const config = testConfig([
    stubCatalogConfig(ok, { name: 'ok', auth: { mode: 'bearer', token: SECRET } }),
    stubCatalogConfig(slow, { name: 'slow', requestTimeoutMs: 300 }),
    stubCatalogConfig(dead, { name: 'dead' }),
    demoCatalog('local'),
  ]);
  const icefront = await startIcefront({ ...config, server: { ...config.server, readinessIntervalMs: 100 }, planning: { ...config.planning, workers: 0 } }, { port: 0 });
  t.teardown(() => icefront.close());
  const readyz = async () => {
    const res = await fetch(`${icefront.url}/readyz`);
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as ReadyBody };
  };

  let seen = await readyz();
  await eventually('both bad upstreams were checked', async () => {
    seen = await readyz();
    return seen.body.catalogs.slow?.reason === 'timeout' && seen.body.catalogs.dead?.reason === 'connection-refused';
  });
  t.equal(seen.status, 503);
  t.equal(seen.body.status, 'not-ready');
  t.same(seen.body['not-ready'].sort(), ['dead', 'slow'], 'names the catalogs that are not ready');
  t.match(seen.body.catalogs.dead, { ready: false, reason: 'connection-refused' });
  t.match(seen.body.catalogs.slow, { ready: false, reason: 'timeout' });
  t.match(seen.body.catalogs.ok, { ready: true }, 'the upstream that answers (with Icefront’s own token) is ready');
  t.notOk('local' in seen.body.catalogs, 'filesystem catalogs are not part of readiness');
  for (const leak of [SECRET, ok.origin, slow.origin, dead.origin]) t.notMatch(seen.text, leak, 'no credential or upstream URL in the body');

  slow.fault = undefined;
  const back = await startUpstreamStub({ port: deadPort });
  t.teardown(() => back.close());
  await eventually('ready again', async () => (seen = await readyz()).status === 200);
  t.equal(seen.body.status, 'ready');
  t.same(seen.body['not-ready'], []);

  ok.respond = () => ({ status: 500, body: '{}' });
  await eventually('an upstream answering 500 is not ready', async () => (seen = await readyz()).status === 503);
  t.match(seen.body.catalogs.ok, { ready: false, reason: 'status', status: 500 });
});

t.test('/readyz needs no credential when authentication is on', async (t) => {
  const config = configWith([demoCatalog('demo')], authConfig());
  const icefront = await startIcefront({ ...config, planning: { ...config.planning, workers: 0 } }, { port: 0 });
  t.teardown(() => icefront.close());
  const res = await fetch(`${icefront.url}/readyz`);
  t.equal(res.status, 200, 'no rest catalogs: ready');
  t.match(await res.json(), { status: 'ready' });
  t.equal((await fetch(`${icefront.url}/v1/config?warehouse=demo`)).status, 401, 'while other routes still need one');
});
