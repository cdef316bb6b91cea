import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import t from 'tap';
import { LabelledHistogram } from '../../src/observability/histogram.js';

// The truth here is prom-client's own Histogram: the same observations, recorded by it and by
// LabelledHistogram, must read the same from a Registry (the text /metrics serves, and the JSON).
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const LABELS = ['catalog', 'route', 'method', 'status'] as const;

function pair() {
  const theirs = new Registry();
  const ours = new Registry();
  const reference = new Histogram({ name: 'h_seconds', help: 'A "help" text\\ with\nodd characters.', labelNames: LABELS, buckets: BUCKETS, registers: [theirs] });
  const histogram = new LabelledHistogram('h_seconds', 'A "help" text\\ with\nodd characters.', LABELS, BUCKETS, ours);
  return {
    theirs,
    ours,
    observe(values: readonly string[], seconds: number) {
      reference.labels(...values).observe(seconds);
      histogram.labels(...values).observe(seconds);
    },
  };
}

t.test('exports what prom-client exports for the same observations: bounds hit exactly, above the last, label values needing escapes', async (t) => {
  const { theirs, ours, observe } = pair();
  const a = ['up', '/v1/{prefix}/namespaces', 'GET', '200'];
  const b = ['', '/healthz', 'GET', '503'];
  const c = ['we"ird\\cat\nalog', '/v1/{prefix}/namespaces/{namespace}/tables/{table}', 'POST', '500'];
  for (const v of [0, 0.005, 0.0051, 0.01, 0.3, 1, 60, 61, 3600]) observe(a, v);
  observe(b, 0.02);
  observe(c, 2.5);
  observe(c, 1e-9);
  const text = await ours.metrics();
  t.equal(text, await theirs.metrics());
  t.match(text, /h_seconds_bucket\{le="0.005",catalog="up",route="\/v1\/\{prefix\}\/namespaces",method="GET",status="200"\} 2\n/);
  t.match(text, /h_seconds_bucket\{le="60",catalog="up",[^\n]*\} 7\n/);
  t.match(text, /h_seconds_bucket\{le="\+Inf",catalog="up",[^\n]*\} 9\n/);
  t.match(text, /h_seconds_count\{catalog="up",[^\n]*\} 9\n/);
  // as JSON (prom-client's sum and count carry an `exemplar: undefined` JSON drops)
  t.equal(JSON.stringify(await ours.getMetricsAsJSON()), JSON.stringify(await theirs.getMetricsAsJSON()));
});

t.test('a histogram with nothing observed exports its help and type and no series, as prom-client does', async (t) => {
  const { theirs, ours } = pair();
  t.equal(await ours.metrics(), await theirs.metrics());
});

t.test('any observations read the same as prom-client reads them (property)', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom(['x', 'r', 'GET', '200'], ['y', 'r', 'GET', '200'], ['x', 'r', 'PUT', '404']), fc.double({ min: 0, max: 100, noNaN: true })), { maxLength: 40 }),
      async (observations) => {
        const { theirs, ours, observe } = pair();
        for (const [labels, seconds] of observations) observe(labels, seconds);
        t.equal(await ours.metrics(), await theirs.metrics());
      },
    ),
    { numRuns: 100 },
  );
});

t.test('refuses what prom-client refuses: a NaN observation, a wrong number of label values, an `le` label', async (t) => {
  const registry = new Registry();
  const h = new LabelledHistogram('x_seconds', 'x', ['a'], BUCKETS, registry);
  t.throws(() => h.labels('1').observe(Number.NaN), TypeError);
  t.throws(() => h.labels('1', '2'));
  t.throws(() => new LabelledHistogram('y_seconds', 'y', ['le'], BUCKETS, registry));
  t.match(await registry.metrics(), /^# HELP x_seconds x\n# TYPE x_seconds histogram\n$/);
});
