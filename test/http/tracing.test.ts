/**
 * OpenTelemetry spans as a collector would receive them (the SDK's InMemorySpanExporter): one
 * SERVER span per request, child of the caller's W3C traceparent; children for upstream calls,
 * planning, file reads and cache waits; the upstream receives a traceparent of the same trace.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import t, { type Test } from 'tap';
import type { Config } from '../../src/config/index.js';
import { buildIcefront } from '../../src/main.js';
import { testConfig } from '../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir } from '../helpers/upstream-stub.js';
import { demoCatalog, DEMO_WAREHOUSE } from '../service/planning/helpers.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

function parseTraceparent(value: unknown): { trace: string; parent: string } | undefined {
  const m = typeof value === 'string' ? /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(value) : null;
  return m ? { trace: m[1]!, parent: m[2]! } : undefined;
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

async function setUp(t: Test, workers: number, exporter?: InMemorySpanExporter) {
  const table = stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales'], 'orders');
  const stub = await startUpstreamStub({ tables: [table] });
  const base = testConfig([demoCatalog('demo'), stubCatalogConfig(stub, { name: 'up', planning: 'upstream' })], { batchSize: 2 });
  const config: Config = { ...base, planning: { ...base.planning, workers } };
  const { app } = buildIcefront(config, exporter ? { spanExporter: exporter } : {});
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { stub, url };
}

/** The plan tasks of a plan of demo events.clicks, made by another Icefront (no tracing). */
async function planTasksOfAnotherReplica(t: Test): Promise<string[]> {
  const { app } = buildIcefront(testConfig([demoCatalog('demo')], { batchSize: 2 }));
  t.teardown(() => app.close());
  const res = await app.inject({ method: 'POST', url: '/v1/demo/namespaces/events/tables/clicks/plan', headers: { 'content-type': 'application/json' }, payload: '{}' });
  return (JSON.parse(res.body) as { 'plan-tasks'?: string[] })['plan-tasks'] ?? [];
}

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { ...init, headers: { traceparent: TRACEPARENT, 'content-type': 'application/json', ...init.headers } });
  return { status: res.status, body: await res.text() };
}

for (const workers of [0, 1]) {
  t.test(`spans of a traced request (planning workers: ${workers})`, async (t) => {
    const exporter = new InMemorySpanExporter();
    const { stub, url } = await setUp(t, workers, exporter);

    t.equal((await call(`${url}/v1/up/namespaces/sales/tables/orders`)).status, 200);
    t.equal((await call(`${url}/v1/up/namespaces/sales`)).status, 404, 'streamed to the stub (which serves no namespaces)');
    const plan = await call(`${url}/v1/demo/namespaces/sales/tables/orders/plan`, { method: 'POST', body: '{}' });
    t.equal(plan.status, 200);
    // concurrent cold redemptions of one plan task: one reads, the others wait on its read. The
    // task is of another replica's plan of a table this server has not planned: a task of the
    // plan above would be cut from the manifests that plan decoded (with every column's stats).
    const tasks = await planTasksOfAnotherReplica(t);
    t.ok(tasks.length > 0, 'batch size 2: the plan has plan tasks');
    await Promise.all(
      Array.from({ length: 6 }, () => call(`${url}/v1/demo/namespaces/events/tables/clicks/tasks`, { method: 'POST', body: JSON.stringify({ 'plan-task': tasks[0] }) })),
    );
    const spans = exporter.getFinishedSpans();
    t.ok(spans.every((s) => s.spanContext().traceId === CALLER_TRACE), 'every span is in the caller\'s trace');

    const servers = spans.filter((s) => s.kind === 1 /* SERVER */);
    t.equal(servers.length, 9, 'one SERVER span per request');
    t.ok(servers.every((s) => parentOf(s) === CALLER_SPAN), 'each a child of the caller\'s span');
    const load = servers.find((s) => s.attributes['http.route'] === '/v1/{prefix}/namespaces/{namespace}/tables/{table}');
    t.equal(load?.name, 'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}');
    t.equal(load?.attributes['http.response.status_code'], 200);
    t.equal(load?.attributes['icefront.catalog'], 'up');

    const upstreamCalls = spans.filter((s) => s.name.startsWith('upstream '));
    const loadCall = upstreamCalls.find((s) => parentOf(s) === load?.spanContext().spanId && s.name.includes('/namespaces/sales/tables/orders'));
    t.ok(loadCall, 'the upstream load-table call is a child of the request');
    const received = stub.requests.filter((r) => r.url.includes('/namespaces/sales')).map((r) => parseTraceparent(r.headers.traceparent));
    t.ok(received.length >= 2 && received.every((p) => p?.trace === CALLER_TRACE), 'the upstream receives traceparent of the caller\'s trace');
    const sentIds = new Set(upstreamCalls.map((s) => s.spanContext().spanId));
    t.ok(received.every((p) => p && sentIds.has(p.parent)), 'whose parent is Icefront\'s upstream-call span, not the caller\'s');

    const planSpan = spans.find((s) => s.name === 'plan');
    const planServer = servers.find((s) => s.attributes['http.route']?.toString().endsWith('/plan'));
    t.equal(parentOf(planSpan!), planServer?.spanContext().spanId, 'planning is a child of its request');
    t.match(planSpan?.attributes, { 'icefront.catalog': 'demo', 'icefront.table': 'orders' });
    const reads = spans.filter((s) => s.name.startsWith('read file'));
    const underPlan = reads.filter((s) => parentOf(s) === planSpan?.spanContext().spanId);
    t.ok(underPlan.some((s) => String(s.attributes['icefront.file']).includes('snap-')), 'the manifest list read, under the plan');
    t.ok(underPlan.some((s) => String(s.attributes['icefront.file']).endsWith('.avro') && !String(s.attributes['icefront.file']).includes('snap-')), 'manifest reads, under the plan');
    const taskSpans = spans.filter((s) => s.name === 'tasks');
    t.equal(taskSpans.length, 6, 'a tasks span per redemption');
    if (workers === 0) t.ok(spans.some((s) => s.name === 'cache wait'), 'a redemption waiting on another\'s manifest read has a cache-wait span');

    const everything = JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, status: s.status })));
    t.notOk(tasks.some((task) => everything.includes(task)), 'no plan-task string in any span');
    t.notOk(/authorization|bearer/i.test(everything), 'no credentials in any span');
  });
}

t.test('with tracing off, a caller\'s traceparent still reaches the upstream, on Icefront\'s own calls and streamed ones', async (t) => {
  const { stub, url } = await setUp(t, 0);
  t.equal((await call(`${url}/v1/up/namespaces/sales/tables/orders`)).status, 200);
  t.equal((await call(`${url}/v1/up/namespaces/sales`)).status, 404);
  const received = stub.requests.filter((r) => r.url.includes('/namespaces/sales')).map((r) => r.headers.traceparent);
  t.same(received, [TRACEPARENT, TRACEPARENT]);
});
