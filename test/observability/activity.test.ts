import t from 'tap';
import { Activity, createMetrics, MINUTES, RECENT_PLANS } from '../../src/observability/index.js';
import { metric } from '../service/planning/helpers.js';

const plan = (table: string) => ({ catalog: 'c', namespace: ['ns'], table, status: 200, durationMs: 1 });

t.test('the last plans are kept, newest first, the oldest dropped past the ring', async (t) => {
  const activity = new Activity();
  for (let i = 0; i < RECENT_PLANS + 5; i++) activity.plan(plan(`t${i}`));
  const plans = activity.snapshot().plans;
  t.equal(plans.length, RECENT_PLANS);
  t.equal(plans[0]!.table, `t${RECENT_PLANS + 4}`, 'newest first');
  t.equal(plans.at(-1)!.table, 't5', 'the five oldest are gone');
});

t.test('requests are counted per route and minute over the window; older minutes fall out', async (t) => {
  let now = Date.UTC(2026, 0, 1, 12, 0, 30);
  const activity = new Activity(() => now);
  const route = '/v1/{prefix}/namespaces';
  activity.request(route, 'GET', 200, 10);
  activity.request(route, 'GET', 503, 30);
  activity.request(route, 'POST', 200, 5);
  now += 60_000;
  activity.request(route, 'GET', 200, 20);
  let [get, post] = activity.snapshot().routes;
  t.equal(get!.method, 'GET', 'busiest first');
  t.equal(get!.minutes.length, MINUTES);
  t.match(get!.minutes.at(-2), { count: 2, errors: 1, meanMs: 20, maxMs: 30 }, 'the previous minute');
  t.match(get!.minutes.at(-1), { count: 1, errors: 0, meanMs: 20, maxMs: 20 }, 'the current one');
  t.equal(post!.minutes.at(-2)!.count, 1, 'methods apart');
  now += MINUTES * 60_000;
  activity.request(route, 'GET', 200, 1);
  [get] = activity.snapshot().routes;
  t.equal(get!.minutes.reduce((n, m) => n + m.count, 0), 1, 'a minute reused after the window holds only its own requests');
  t.equal(activity.snapshot().routes.length, 1, 'a route without requests in the window is not listed');
});

t.test('cache reports are tallied and still reach Prometheus, budgets included', async (t) => {
  const activity = new Activity();
  const metrics = activity.observeCaches(createMetrics());
  metrics.cache.budget?.('manifests', 1000);
  metrics.cache.hit('manifests');
  metrics.cache.miss('manifests');
  metrics.cache.coalesced('manifests');
  metrics.cache.evicted('manifests');
  metrics.cache.bytes('manifests', 400);
  t.match(activity.snapshot().caches, [{ name: 'manifests', hits: 1, misses: 1, coalesced: 1, evictions: 1, bytes: 400, budget: 1000 }]);
  const text = await metrics.render();
  t.equal(metric(text, 'icefront_cache_hits_total{cache="manifests"}'), 1);
  t.equal(metric(text, 'icefront_cache_budget_bytes{cache="manifests"}'), 1000);
});

t.test('an upstream’s last contact, and its failures as errors', async (t) => {
  const activity = new Activity();
  activity.upstream.answered('up', 'GET /v1/config', 12, 200);
  t.match(activity.snapshot().upstreams.get('up'), { status: 200, healthy: true, ms: 12 });
  activity.upstream.answered('up', 'GET /v1/x', 3, 503);
  activity.upstream.failed('up', 'GET /v1/y', 5, 'UPSTREAM_TIMEOUT', 'timed out');
  const snap = activity.snapshot();
  t.match(snap.upstreams.get('up'), { healthy: false, what: 'GET /v1/y' });
  t.match(snap.upstreamErrors, [{ code: 'UPSTREAM_TIMEOUT', message: 'timed out' }, { status: 503 }], 'newest first');
});
