import t from 'tap';
import { createComputeCache } from '../../src/cache/index.js';
import { createMetrics } from '../../src/observability/index.js';

interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}
interface Exposition {
  readonly help: Map<string, string>;
  readonly type: Map<string, string>;
  readonly samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: \\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"$/;

/** A strict reader of the Prometheus text format (0.0.4): fails on any line it does not understand. */
function parseExposition(text: string): Exposition {
  const help = new Map<string, string>();
  const type = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      (meta[1] === 'HELP' ? help : type).set(meta[2]!, meta[3]!);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus text line: ${line}`);
    const labels: Record<string, string> = {};
    // Label values here never contain commas, so a split is enough for this strict check.
    for (const pair of m[2] ? m[2].split(',').filter((p) => p !== '') : []) {
      const l = LABEL.exec(pair);
      if (!l) throw new Error(`bad label ${pair} in: ${line}`);
      labels[l[1]!] = l[2]!;
    }
    // a value as Go's ParseFloat reads it (the format's definition): NaN and Inf in any case, as prom-client writes `Nan`
    const value = /^nan$/i.test(m[3]!) ? NaN : /^[+-]?inf$/i.test(m[3]!) ? (m[3]!.startsWith('-') ? -Infinity : Infinity) : Number(m[3]);
    if (Number.isNaN(value) && !/^nan$/i.test(m[3]!)) throw new Error(`bad value in: ${line}`);
    samples.push({ name: m[1]!, labels, value });
  }
  return { help, type, samples };
}

/** The value of the one sample named `name` whose labels include `labels`. */
function valueOf(exp: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = exp.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples match ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

const REQUIRED: Record<string, string> = {
  icefront_manifest_reads_total: 'counter',
  icefront_manifest_reads_coalesced_total: 'counter',
  icefront_delete_index_builds_total: 'counter',
  icefront_plan_requests_total: 'counter',
  icefront_task_requests_total: 'counter',
  icefront_cache_hits_total: 'counter',
  icefront_cache_misses_total: 'counter',
  icefront_cache_bytes: 'gauge',
  icefront_inflight: 'gauge',
  icefront_http_request_duration_seconds: 'histogram',
};

const PLAN_ROUTE = '/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan';

t.test('render() is valid Prometheus text with HELP and TYPE for every Icefront metric', async (t) => {
  const metrics = createMetrics();
  metrics.observeHttpRequest({ catalog: 'demo', route: PLAN_ROUTE, method: 'POST', status: 200 }, 0.03);
  createComputeCache<string>({ maxBytes: 10, sizeOf: (s) => s.length, name: 'manifests', metrics: metrics.cache });
  const exp = parseExposition(await metrics.render());
  for (const [name, type] of Object.entries(REQUIRED)) {
    t.equal(exp.type.get(name), type, `${name} is a ${type}`);
    t.ok(exp.help.get(name), `${name} has help text`);
  }
  t.match(metrics.contentType, /^text\/plain; version=0\.0\.4/);
});

t.test('unlabelled counters count what callers report', async (t) => {
  const metrics = createMetrics();
  metrics.manifestReads.inc();
  metrics.manifestReads.inc(4);
  metrics.manifestReadsCoalesced.inc(2);
  metrics.deleteIndexBuilds.inc();
  metrics.planRequests.inc(3);
  metrics.taskRequests.inc(7);
  const exp = parseExposition(await metrics.render());
  t.equal(valueOf(exp, 'icefront_manifest_reads_total'), 5);
  t.equal(valueOf(exp, 'icefront_manifest_reads_coalesced_total'), 2);
  t.equal(valueOf(exp, 'icefront_delete_index_builds_total'), 1);
  t.equal(valueOf(exp, 'icefront_plan_requests_total'), 3);
  t.equal(valueOf(exp, 'icefront_task_requests_total'), 7);
});

t.test('a cache wired to the metrics reports hits, misses, coalescing, bytes and in-flight under its name', async (t) => {
  const metrics = createMetrics();
  const cache = createComputeCache<string>({ maxBytes: 100, sizeOf: (s) => s.length, name: 'manifests', metrics: metrics.cache });
  const other = createComputeCache<string>({ maxBytes: 100, sizeOf: (s) => s.length, name: 'deletes', metrics: metrics.cache });
  const cacheLabel = { cache: 'manifests' };

  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const slow = async () => {
    await gate;
    return 'x'.repeat(40);
  };
  const pending = [cache.get('m1', slow), cache.get('m1', slow), cache.get('m1', slow)];
  let exp = parseExposition(await metrics.render());
  t.equal(valueOf(exp, 'icefront_inflight', cacheLabel), 1, 'one computation in flight');
  release();
  await Promise.all(pending);
  await cache.get('m1', slow);
  await cache.get('m2', async () => 'y'.repeat(70)); // evicts m1: 40 + 70 > 100

  exp = parseExposition(await metrics.render());
  t.equal(valueOf(exp, 'icefront_cache_misses_total', cacheLabel), 2);
  t.equal(valueOf(exp, 'icefront_cache_hits_total', cacheLabel), 1);
  t.equal(valueOf(exp, 'icefront_cache_coalesced_total', cacheLabel), 2);
  t.equal(valueOf(exp, 'icefront_cache_evictions_total', cacheLabel), 1);
  t.equal(valueOf(exp, 'icefront_cache_bytes', cacheLabel), 70);
  t.equal(valueOf(exp, 'icefront_inflight', cacheLabel), 0);
  t.equal(valueOf(exp, 'icefront_cache_hits_total', { cache: 'deletes' }), 0, 'an idle cache shows its series at zero');
  t.equal(valueOf(exp, 'icefront_cache_bytes', { cache: 'deletes' }), 0);
  t.equal(other.bytes, 0);
});

t.test('HTTP durations land in the histogram under the route template, method and status', async (t) => {
  const metrics = createMetrics();
  metrics.observeHttpRequest({ catalog: 'demo', route: PLAN_ROUTE, method: 'POST', status: 200 }, 0.2);
  metrics.observeHttpRequest({ catalog: 'demo', route: PLAN_ROUTE, method: 'POST', status: 200 }, 3);
  metrics.observeHttpRequest({ catalog: 'demo', route: PLAN_ROUTE, method: 'POST', status: '404' }, 0.001);
  const exp = parseExposition(await metrics.render());
  const ok = { route: PLAN_ROUTE, method: 'POST', status: '200' };
  t.equal(valueOf(exp, 'icefront_http_request_duration_seconds_count', ok), 2);
  t.equal(valueOf(exp, 'icefront_http_request_duration_seconds_sum', ok), 3.2);
  t.equal(valueOf(exp, 'icefront_http_request_duration_seconds_bucket', { ...ok, le: '0.25' }), 1);
  t.equal(valueOf(exp, 'icefront_http_request_duration_seconds_bucket', { ...ok, le: '+Inf' }), 2);
  t.equal(valueOf(exp, 'icefront_http_request_duration_seconds_count', { route: PLAN_ROUTE, status: '404' }), 1);
});

t.test('two metrics instances count independently', async (t) => {
  const a = createMetrics();
  const b = createMetrics();
  a.planRequests.inc(5);
  a.cache.hit('manifests');
  b.planRequests.inc();
  const expA = parseExposition(await a.render());
  const expB = parseExposition(await b.render());
  t.equal(valueOf(expA, 'icefront_plan_requests_total'), 5);
  t.equal(valueOf(expB, 'icefront_plan_requests_total'), 1);
  t.equal(valueOf(expA, 'icefront_cache_hits_total', { cache: 'manifests' }), 1);
  t.equal(valueOf(expB, 'icefront_cache_hits_total', { cache: 'manifests' }), undefined, 'b never heard of that cache');
});

t.test('process metrics only where asked (the served process), valid Prometheus text there too', async (t) => {
  const plain = await createMetrics().render();
  t.notMatch(plain, /^process_resident_memory_bytes /m, 'an embedded instance reports no process figures');
  const exp = parseExposition(await createMetrics({ process: true }).render());
  for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds'])
    t.ok(exp.samples.some((s) => s.name === name), `${name} is there`);
  t.ok(exp.samples.find((s) => s.name === 'process_resident_memory_bytes')!.value > 0, 'a resident set, in bytes');
});
