/**
 * An upstream that fails under load, again and again (issue #38). Icefront as operators run it (a
 * process of its own) in front of the Iceberg REST fixture through Toxiproxy, beside a
 * `filesystem` catalog; workers send a mix of requests through it (config, listings, load-table
 * with ETags, local planning, commits, metrics reports, namespace creates and drops: the streamed
 * bodies among them) while a schedule takes the upstream down and up again `ICEFRONT_FAULT_CYCLES`
 * times (50 by default), with a toxic between (latency under and over the request timeout, resets,
 * a timeout, a slow link).
 *
 * What a user checks: the process lives; every answer is a success or an ErrorModel (valid against
 * the spec's IcebergErrorResponse) whose code is its status (a response broken off after its head
 * is counted apart: it is how a cut stream is told); no request goes unanswered past its deadline; /healthz and the filesystem catalog answer
 * promptly throughout; and every commit Icefront acknowledged is in the table afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { startIcefrontProcess } from './harness/icefront-process.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { interopToolchain } from './harness/toolchain.js';
import { startToxiproxy, toxiproxyFor, type Toxic } from './harness/toxiproxy.js';
import { validateAgainst } from '../helpers/openapi.js';
import { DEMO_WAREHOUSE } from '../service/planning/helpers.js';

t.setTimeout(30 * 60_000);

const CYCLES = Number(process.env['ICEFRONT_FAULT_CYCLES'] ?? 50);
/** Icefront's request timeout toward the upstream: the 5 s latency toxic runs past it. */
const REQUEST_TIMEOUT_MS = 2000;
/** No answer within this long is a hang (the deadline is REQUEST_TIMEOUT_MS, plus queueing). */
const HANG_MS = 15_000;

type Outcome = 'success' | 'error-model' | 'cut-after-head' | 'not-an-error-model' | 'no-answer';

interface Tally {
  readonly outcomes: Map<Outcome, number>;
  readonly byStatus: Map<number, number>;
  readonly failures: string[];
  readonly acknowledged: string[];
  probeMaxMs: number;
  probes: number;
}

/** Toxics between the down phases, in turn (toxiproxy README, "Toxics"). */
const TOXICS: readonly Toxic[] = [
  { name: 'slow', type: 'latency', attributes: { latency: 500 } },
  { name: 'slower', type: 'latency', attributes: { latency: 5000 } },
  { name: 'reset', type: 'reset_peer', attributes: { timeout: 50 } },
  { name: 'stall', type: 'timeout', attributes: { timeout: 0 } },
  { name: 'narrow', type: 'bandwidth', attributes: { rate: 10 } },
  { name: 'reset-up', type: 'reset_peer', stream: 'upstream', attributes: { timeout: 0 } },
];

t.test(`the upstream down and up ${CYCLES} times under load: the process lives, every answer is a success or an ErrorModel, nothing hangs, no acknowledged commit is lost`, async (t) => {
  const env = await interopToolchain(t);
  if (!env) return;
  const toxiproxyBin = await toxiproxyFor(t);
  if (!toxiproxyBin) return;
  const fixture = await startRestFixture(env);
  t.teardown(() => fixture.close());
  const toxiproxy = await startToxiproxy(toxiproxyBin);
  t.teardown(() => toxiproxy.close());
  const proxy = await toxiproxy.proxy('fixture', new URL(fixture.url).host);

  // the table the load works on, made on the fixture directly
  const direct = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${fixture.url}/v1${route}`, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
    t.ok(res.status < 300, `fixture ${method} ${route}: ${res.status}`);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
  };
  await direct('POST', '/namespaces', { namespace: ['faults'], properties: {} });
  const schema = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: false, type: 'long' }] };
  const created = await direct('POST', '/namespaces/faults/tables', { name: 't', schema });
  const tableUuid = (created!['metadata'] as { 'table-uuid': string })['table-uuid'];

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-faults-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const config = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(
    config,
    [
      'logging: { level: error }',
      'catalogs:',
      '  up:',
      '    type: rest',
      `    uri: ${proxy.url}`,
      '    planning: local',
      `    timeouts: { connect-ms: 1000, request-ms: ${REQUEST_TIMEOUT_MS} }`,
      `    storage: { local: { roots: [${JSON.stringify(fixture.warehouseDir)}] } }`,
      '  demo:',
      '    type: filesystem',
      `    warehouse: ${JSON.stringify(DEMO_WAREHOUSE)}`,
      '    read-only: true',
      '',
    ].join('\n'),
  );
  const icefront = await startIcefrontProcess(config);
  t.teardown(() => icefront.close());
  let exited = false;
  void icefront.exited.then(() => (exited = true));
  const base = icefront.url;
  t.equal((await fetch(`${base}/v1/config?warehouse=up`)).status, 200, 'Icefront reaches the fixture through the proxy');

  const tally: Tally = { outcomes: new Map(), byStatus: new Map(), failures: [], acknowledged: [], probeMaxMs: 0, probes: 0 };
  const count = (outcome: Outcome) => tally.outcomes.set(outcome, (tally.outcomes.get(outcome) ?? 0) + 1);

  /** One request through Icefront, judged as a client would; the answer's JSON when it succeeded. */
  const send = async (what: string, route: string, init: RequestInit = {}): Promise<{ status: number; json?: unknown; etag?: string | null }> => {
    let res: Response;
    try {
      res = await fetch(`${base}${route}`, { ...init, signal: AbortSignal.timeout(HANG_MS) });
    } catch (err) {
      count('no-answer');
      tally.failures.push(`${what}: no answer (${(err as Error).name}: ${(err as Error).message})`);
      return { status: 0 };
    }
    tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
    let text: string;
    try {
      text = await res.text();
    } catch {
      // the head was out when the upstream broke off: only a broken response can say so
      count('cut-after-head');
      if (res.status >= 400) tally.failures.push(`${what}: an error ${res.status} cut mid-body`);
      return { status: res.status };
    }
    if (res.status < 400) {
      count('success');
      return { status: res.status, etag: res.headers.get('etag'), ...(text !== '' && res.headers.get('content-type')?.includes('json') && { json: JSON.parse(text) as unknown }) };
    }
    try {
      const body = JSON.parse(text) as { error?: { code?: unknown } };
      if (validateAgainst('IcebergErrorResponse', body).length === 0 && body.error?.code === res.status) {
        count('error-model');
        return { status: res.status };
      }
    } catch {
      // not JSON: judged below
    }
    count('not-an-error-model');
    tally.failures.push(`${what}: ${res.status} ${text.slice(0, 200)}`);
    return { status: res.status };
  };
  const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const table = '/v1/up/namespaces/faults/tables/t';

  let running = true;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** One request of the mix (the `i`th of worker `id`); its status. */
  const step = async (id: number, i: number, etag: { value?: string | null }): Promise<number> => {
    switch (i % 8) {
      case 0:
        return (await send('config', '/v1/config?warehouse=up')).status;
      case 1:
        return (await send('list namespaces', '/v1/up/namespaces')).status;
      case 2: {
        const got = await send('load table', table, etag.value ? { headers: { 'if-none-match': etag.value } } : {});
        if (got.status === 200) etag.value = got.etag;
        return got.status;
      }
      case 3: {
        const plan = await send('plan', `${table}/plan`, json({}));
        const tasks = (plan.json as { 'plan-tasks'?: string[] } | undefined)?.['plan-tasks'] ?? [];
        for (const task of tasks) await send('tasks', `${table}/tasks`, json({ 'plan-task': task }));
        return plan.status;
      }
      case 4: {
        const key = `w${id}-${i}`;
        const commit = await send('commit', table, json({ requirements: [{ type: 'assert-table-uuid', uuid: tableUuid }], updates: [{ action: 'set-properties', updates: { [key]: 'x' } }] }));
        if (commit.status === 200) tally.acknowledged.push(key);
        return commit.status;
      }
      case 5:
        return (await send('metrics', `${table}/metrics`, json({ 'report-type': 'scan-report', 'table-name': 'faults.t', 'snapshot-id': 1, filter: true, 'schema-id': 0, 'projected-field-ids': [1], 'projected-field-names': ['id'], metrics: {} }))).status;
      case 6:
        return (await send('create namespace', '/v1/up/namespaces', json({ namespace: [`n${id}_${i}`], properties: {} }))).status;
      default:
        return (await send('drop namespace', `/v1/up/namespaces/n${id}_${i - 1}`, { method: 'DELETE' })).status;
    }
  };
  const worker = async (id: number) => {
    const etag: { value?: string | null } = {};
    for (let i = 0; running; i++) {
      const status = await step(id, i, etag);
      // a client backs off a little after a failure, as Iceberg's clients do before a retry
      if (status === 0 || status >= 500) await pause(25);
    }
  };
  // /healthz and the filesystem catalog, probed throughout: one upstream's trouble stalls nothing else
  const probe = async () => {
    while (running) {
      const started = performance.now();
      const [health, demo] = await Promise.all([send('healthz', '/healthz'), send('filesystem catalog', '/v1/demo/namespaces/sales/tables/orders')]);
      const ms = performance.now() - started;
      tally.probes++;
      tally.probeMaxMs = Math.max(tally.probeMaxMs, ms);
      if (health.status !== 200 || demo.status !== 200) tally.failures.push(`probe: /healthz ${health.status}, filesystem catalog ${demo.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const schedule = async () => {
    for (let cycle = 0; cycle < CYCLES && !exited; cycle++) {
      const toxic = TOXICS[cycle % TOXICS.length]!;
      await proxy.addToxic(toxic);
      await pause(toxic.type === 'latency' && toxic.attributes['latency']! > REQUEST_TIMEOUT_MS ? 2500 : 600);
      await proxy.down(); // the toxic goes with it
      await pause(400);
      await proxy.up();
      await pause(400);
    }
  };

  const started = Date.now();
  const workers = Array.from({ length: 6 }, (_, id) => worker(id));
  const probing = probe();
  try {
    await schedule();
  } finally {
    running = false;
    await Promise.all([...workers, probing]);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);

  const outcomes = Object.fromEntries(tally.outcomes);
  const statuses = Object.fromEntries([...tally.byStatus].sort(([a], [b]) => a - b));
  t.comment(`${CYCLES} down/up cycles in ${seconds} s: ${JSON.stringify(outcomes)}; statuses ${JSON.stringify(statuses)}`);
  t.comment(`probes: ${tally.probes}, the slowest /healthz + filesystem load-table pair ${tally.probeMaxMs.toFixed(0)} ms; commits acknowledged: ${tally.acknowledged.length}`);
  t.notOk(exited, 'the process is alive', { output: icefront.log().slice(-3000) });
  t.same(tally.failures.slice(0, 20), [], `every answer a success or an ErrorModel, none missing (${tally.failures.length} failures)`);
  t.ok((tally.byStatus.get(503) ?? 0) > 0 && (tally.byStatus.get(504) ?? 0) > 0 && (tally.byStatus.get(502) ?? 0) > 0, 'the faults were met: 502, 503 and 504 answered');
  t.ok(tally.acknowledged.length > 0, 'commits went through between the faults');
  t.ok(tally.probeMaxMs < 2000, `/healthz and the filesystem catalog answered within 2 s throughout (slowest ${tally.probeMaxMs.toFixed(0)} ms)`);

  // after the faults, the upstream serves again through Icefront, and no acknowledged commit is lost
  const after = await fetch(`${base}${table}`);
  t.equal(after.status, 200, 'load-table through Icefront works again');
  const properties = ((await direct('GET', '/namespaces/faults/tables/t'))!['metadata'] as { properties: Record<string, string> }).properties;
  const lost = tally.acknowledged.filter((key) => properties[key] !== 'x');
  t.same(lost, [], `every acknowledged commit is in the table (${tally.acknowledged.length})`);
});
