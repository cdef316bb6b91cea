/**
 * `npm run bench:large-table` (issue #41 goal 5, "a larger table"): the first plan of a
 * 1,000,000-file table on far-away storage, by the Iceberg REST fixture itself and through a fresh
 * Icefront. The table: BENCH_LARGE_MANIFESTS (default 1,000) manifests × BENCH_LARGE_ENTRIES
 * (default 1,000) data files, 20 columns with stats, metadata only (bench/synthetic-table.ts,
 * written once under bench/.work by a child process with a large heap: the writer holds every
 * file's record until it commits), its metadata uploaded to S3 (moto, the interop suite's; 8
 * uploads at once, and asynchronously: see uploadFolder).
 * Toxiproxy (tools/interop/toxiproxy.sh) sits between moto and every reader of metadata, adding
 * BENCH_LATENCY_MS (default 20) each way (a latency toxic on both streams): the fixture's S3FileIO
 * (its S3 endpoint is the proxy) and Icefront's `storage.s3` both read every manifest through it.
 *
 * In BENCH_RUNS (default 1) rounds, one heavy thing at a time (2 cores):
 *   1. the fixture cold: a freshly started fixture (RESTCatalogServer 1.11.0, JVM options
 *      BENCH_LARGE_JVM_OPTS, default none) with the table registered plans it itself: its first
 *      full protocol walk (bench/peer-protocol.ts: `POST …/plan` and every `/tasks`, as Iceberg
 *      Java walks it, 4 fetchers, gzip asked), timed from the /plan request to the last /tasks
 *      answer; the JVM's RSS before it and its peak (VmHWM, reset just before) during it. Then that
 *      fixture is stopped;
 *   2. Icefront cold: another fresh fixture as its upstream (the table registered and loaded
 *      once, untimed: an upstream catalog is a long-running server), and a fresh Icefront child
 *      (bench/peer-icefront.ts: `rest` in front of it, `planning: local`, `storage.s3` through the
 *      proxy, every other setting its default); its first full walk, the same way. During it:
 *      the peak RSS of the Icefront process (VmHWM, reset just before the walk, read just after)
 *      and `/healthz` polled every 5 ms by another process (this file run with `--probe`: the
 *      open loop of bench/stall-probe.ts, kept polling until the walk has ended, so it covers
 *      all of it however long it takes; the longest wait of any poll due during the walk counts).
 *      Also Icefront's own time for the /plan answer (its request log: request received to
 *      response sent). The probe takes some CPU beside Icefront, as in bench/peer.ts.
 * Each walk is also split, client side (undici's diagnostics channels), into the wait for the
 * /plan answer and the /tasks requests after it (count, median, longest): where a server's time
 * goes (the fixture plans everything in /plan, then hands its tasks out 100 per /tasks, in a chain).
 * Every walk must list exactly the table's files: MANIFESTS × ENTRIES file-scan-tasks, no
 * duplicate path, no delete file, and the same path set as the fixture's first walk; Icefront's
 * answers must stay within its default max-response-bytes. Any mismatch stops the bench.
 *
 * Printed: each step's time, a table per round, goal 5's three measures (ratios of medians of the
 * rounds; the peak RSS and the longest wait are the worst round's) and a final JSON line whose
 * goals are met when ratio ≤ bound (for peak RSS and the wait, base is the budget, 1024 MiB and
 * 50 ms, and the bound 1). Needs the interop toolchain and Toxiproxy (both installed by their
 * scripts on first use). Smoke test: BENCH_LARGE_MANIFESTS=20 BENCH_LARGE_ENTRIES=500.
 */
import { spawn } from 'node:child_process';
import diagnosticsChannel from 'node:diagnostics_channel';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import type { InteropEnv } from '../test/interop/harness/toolchain.js';
import { startMoto, type MotoS3 } from '../test/interop/harness/moto.js';
import { startRestFixture, type RestFixture } from '../test/interop/harness/rest-fixture.js';
import type { ToxiProxy } from '../test/interop/harness/toxiproxy.js';
import { toolchainAndToxiproxy } from './toolchain-toxiproxy.js';
import { jvmSettings, registerTable } from './peer-fixture.js';
import { startIcefrontChild } from './peer-icefront.js';
import { checkPlannedFiles } from './planned-files.js';
import { runProtocol, type ProtocolRun } from './peer-protocol.js';
import { procMemory, resetPeak } from './proc-memory.js';
import { median } from './median.js';
import { uploadFolder } from './s3-upload.js';
import { pollOpenLoop } from './open-loop-poll.js';
import { currentMetadataFile, ensureSyntheticTable, type SyntheticSpec, type SyntheticTableRef } from './synthetic-table.js';
import { DEFAULTS } from '../src/config/index.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 1);
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 20);
const MANIFESTS = Number(process.env['BENCH_LARGE_MANIFESTS'] ?? 1000);
const ENTRIES = Number(process.env['BENCH_LARGE_ENTRIES'] ?? 1000);
const JVM_OPTS = (process.env['BENCH_LARGE_JVM_OPTS'] ?? '').split(/\s+/).filter(Boolean);
const FILES = MANIFESTS * ENTRIES;
const SPEC: SyntheticSpec = { manifests: MANIFESTS, entriesPerManifest: ENTRIES, columns: 20, scheme: 's3' };
/** V8 old-space limit of the process that writes the table (1,000,000 records held until the commit: ~5 GB). */
const WRITER_HEAP_MB = 12_288;
const PROBE_INTERVAL_MS = 5;
const SELF = import.meta.filename;

/** One fresh server's first walk. */
interface Cold {
  readonly ms: number;
  /** Client side (undici's diagnostics channels): the /plan answer's headers and its end, ms after the walk began. */
  readonly planHeadersMs: number;
  readonly planDoneMs: number;
  /** Client side: each /tasks request from its start to its answer's end, ms. */
  readonly tasks: { readonly count: number; readonly medianMs: number; readonly maxMs: number; readonly sumMs: number };
  readonly requests: number;
  readonly planTasks: number;
  readonly wireBytes: number;
  readonly jsonBytes: number;
  readonly largestJson: number;
  /** RSS before the walk, its peak during it (VmHWM, reset before), RSS after it: MiB. */
  readonly idleMB: number;
  readonly peakMB: number;
  readonly endMB: number;
  /** Whether the peak could be reset (else it is the process lifetime's). */
  readonly peakReset: boolean;
}

interface IcefrontCold extends Cold {
  /** Icefront's own time for the /plan answer (its request log), and for every /tasks answer summed. */
  readonly planAnswerMs: number;
  readonly tasksBusyMs: number;
  readonly heapLimitMB: number;
  readonly healthz: HealthzStats;
}

interface HealthzStats {
  readonly polls: number;
  readonly p99Ms: number;
  readonly worstMs: number;
  /** When the worst poll was due, ms after the walk started. */
  readonly worstAtMs: number;
  /** Polls due during the walk that waited more than 50 ms. */
  readonly over50: number;
}

interface Round {
  readonly fixture: Cold;
  readonly icefront: IcefrontCold;
  /** Seconds each setup step of the round took. */
  readonly steps: Record<string, number>;
}

/**
 * The walk's requests as this process's undici makes them (bench/peer-protocol.ts's own
 * dispatcher publishes to undici's diagnostics channels): when each started, got its headers and
 * ended, so a cold walk's time can be split into the /plan answer and the /tasks that follow.
 */
interface Timed {
  readonly route: string;
  readonly start: number;
  headers?: number;
  end?: number;
}
const timing: { recording: boolean; requests: Timed[] } = { recording: false, requests: [] };
const timedRequests = new WeakMap<object, Timed>();
diagnosticsChannel.subscribe('undici:request:create', (message) => {
  const { request } = message as { request: { method: string; path: string } };
  if (!timing.recording || request.method !== 'POST') return;
  const t: Timed = { route: request.path.slice(request.path.lastIndexOf('/')), start: performance.now() };
  timedRequests.set(request, t);
  timing.requests.push(t);
});
diagnosticsChannel.subscribe('undici:request:headers', (message) => {
  const t = timedRequests.get((message as { request: object }).request);
  if (t) t.headers = performance.now();
});
diagnosticsChannel.subscribe('undici:request:trailers', (message) => {
  const t = timedRequests.get((message as { request: object }).request);
  if (t) t.end = performance.now();
});

/** runProtocol with its requests timed. */
async function timedWalk(tableUrl: string): Promise<{ run: ProtocolRun; split: Pick<Cold, 'planHeadersMs' | 'planDoneMs' | 'tasks'> }> {
  timing.requests = [];
  timing.recording = true;
  let run: ProtocolRun;
  try {
    run = await runProtocol(tableUrl, { walk: 'java', gzip: true });
  } finally {
    timing.recording = false;
  }
  const plan = timing.requests.find((r) => r.route === '/plan');
  const tasks = timing.requests.filter((r) => r.route === '/tasks').map((r) => (r.end ?? Number.NaN) - r.start);
  if (!plan || plan.headers === undefined || plan.end === undefined || tasks.length !== run.planTasks || tasks.some(Number.isNaN)) {
    throw new Error(`the walk's requests were not all timed (${timing.requests.length} seen, /plan ${plan ? 'seen' : 'not seen'}, ${tasks.length} /tasks of ${run.planTasks})`);
  }
  const split = {
    planHeadersMs: plan.headers - plan.start,
    planDoneMs: plan.end - plan.start,
    tasks: { count: tasks.length, medianMs: tasks.length ? median(tasks) : 0, maxMs: Math.max(0, ...tasks), sumMs: tasks.reduce((a, b) => a + b, 0) },
  };
  return { run, split };
}

const closers: (() => Promise<void>)[] = [];
const closeAll = async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
};
const seconds = (since: number) => (performance.now() - since) / 1000;
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

/** `--write-table`: the table written (or found complete) in this process, which the parent starts with a large heap. */
function writeTable(): void {
  const started = performance.now();
  const table = ensureSyntheticTable(SPEC);
  console.log(JSON.stringify({ written: table.written, seconds: seconds(started) }));
}

/**
 * `--probe URL`: GET URL every PROBE_INTERVAL_MS, open loop as bench/stall-probe.ts (a request
 * starts when due whatever the earlier ones do; its latency counts from then), from the first
 * answered one (then `READY` on stdout) until stdin closes; then one JSON line [[dueEpochMs, ms], …].
 */
async function probe(url: string): Promise<void> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 8 });
  let stop = false;
  process.stdin.on('end', () => {
    stop = true;
  });
  process.stdin.resume();
  const first = await pool.request({ method: 'GET', path: target.pathname });
  await first.body.dump();
  if (first.statusCode !== 200) throw new Error(`${url}: status ${first.statusCode}`);
  process.stdout.write('READY\n');
  const samples = await pollOpenLoop(pool, target.pathname, PROBE_INTERVAL_MS, () => !stop);
  process.stdout.write(`${JSON.stringify(samples)}\n`);
  await pool.close();
}

/** The probe in its own process, polling once it resolves; `stop()` ends it and gives its samples. */
async function startProbe(url: string): Promise<{ stop(): Promise<[number, number][]> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--probe', url], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.startsWith('READY\n')) resolve();
    });
    void exited.then((code) => reject(new Error(`the /healthz probe exited with ${code} before polling: ${err.slice(-2000)}`)));
  });
  return {
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the /healthz probe exited with ${code}: ${err.slice(-2000)}`);
      return JSON.parse(out.slice('READY\n'.length)) as [number, number][];
    },
  };
}

/** The polls due between `start` and `end` (epoch ms). */
function healthzDuring(samples: [number, number][], start: number, end: number): HealthzStats {
  const during = samples.filter(([due]) => due >= start && due <= end);
  if (during.length === 0) throw new Error('the /healthz probe made no request during the walk');
  const worst = during.reduce((a, b) => (b[1] > a[1] ? b : a));
  const sorted = during.map(([, ms]) => ms).sort((a, b) => a - b);
  return {
    polls: during.length,
    p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))]!,
    worstMs: worst[1],
    worstAtMs: worst[0] - start,
    over50: sorted.filter((ms) => ms > 50).length,
  };
}

/** Every file exactly once and, given `truth`, exactly its set (bench/planned-files.ts). */
function checkFiles(label: string, run: ProtocolRun, truth: Set<string> | undefined): Set<string> {
  return checkPlannedFiles(label, run, FILES, truth);
}

/** The table written by a child process with a large heap, or reused. */
async function ensureTable(): Promise<{ table: SyntheticTableRef; written: boolean; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [`--max-old-space-size=${WRITER_HEAP_MB}`, '--import', 'tsx', SELF, '--write-table'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  if (code !== 0) throw new Error(`writing the table failed (exit ${code}): ${out.slice(-2000)}`);
  const { written } = JSON.parse(out.trim().split('\n').at(-1)!) as { written: boolean };
  const table = ensureSyntheticTable(SPEC);
  if (table.written) throw new Error('the table was not complete after its writer exited');
  return { table, written, seconds: seconds(started) };
}

/** A fresh fixture whose S3FileIO reads through the proxy, with the table registered. */
async function startFixture(env: InteropEnv, moto: MotoS3, proxy: ToxiProxy, table: SyntheticTableRef): Promise<RestFixture> {
  const fixture = await startRestFixture(env, {
    jvmOptions: JVM_OPTS,
    s3: { warehouse: 's3://bench/warehouse', endpoint: proxy.url, region: moto.region, accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey },
  });
  try {
    await registerTable(fixture.url, 'bench', table.name, `${table.location}/metadata/${path.basename(currentMetadataFile(table.root))}`);
  } catch (e) {
    await fixture.close();
    throw e;
  }
  return fixture;
}

async function round(env: InteropEnv, moto: MotoS3, proxy: ToxiProxy, table: SyntheticTableRef, truth: { set?: Set<string> }): Promise<Round> {
  const steps: Record<string, number> = {};
  const tablePath = `namespaces/bench/tables/${table.name}`;

  // 1. the fixture cold: its first plan, on a fresh JVM
  let t = performance.now();
  const fixture = await startFixture(env, moto, proxy, table);
  steps['fixture started, table registered'] = seconds(t);
  let fixtureCold: Cold;
  try {
    await settle(1000);
    const idle = procMemory(fixture.pid);
    const peakReset = resetPeak(fixture.pid);
    t = performance.now();
    let walk: Awaited<ReturnType<typeof timedWalk>>;
    try {
      walk = await timedWalk(`${fixture.url}/v1/${tablePath}`);
    } catch (e) {
      throw new Error(`the fixture's cold walk failed after ${seconds(t).toFixed(1)} s: ${(e as Error).message}\n${fixture.log().slice(-3000)}`);
    }
    steps['fixture cold walk'] = seconds(t);
    const { run, split } = walk;
    const peak = procMemory(fixture.pid);
    await settle(1000);
    const end = procMemory(fixture.pid);
    fixtureCold = { ms: run.ms, ...split, requests: run.requests, planTasks: run.planTasks, wireBytes: run.bytes, jsonBytes: run.jsonBytes, largestJson: run.largestJson, idleMB: idle.rssMB, peakMB: peak.peakMB, endMB: end.rssMB, peakReset };
    console.log(`  fixture (Java) cold walk: ${run.ms.toFixed(0)} ms (its /plan answer ${split.planDoneMs.toFixed(0)} ms), ${run.requests} requests; RSS ${idle.rssMB.toFixed(0)} MiB before, peak ${peak.peakMB.toFixed(0)} MiB`);
    t = performance.now();
    const set = checkFiles('the fixture', run, truth.set);
    truth.set ??= set;
    steps['fixture files checked'] = seconds(t);
  } finally {
    t = performance.now();
    await fixture.close();
    steps['fixture stopped'] = seconds(t);
  }

  // 2. Icefront cold: a fresh Icefront in front of a fresh fixture (that one loaded the table once)
  t = performance.now();
  const upstream = await startFixture(env, moto, proxy, table);
  try {
    const res = await fetch(`${upstream.url}/v1/${tablePath}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`loading the table from the upstream fixture: ${res.status}`);
    steps['upstream fixture started, table registered and loaded'] = seconds(t);
    t = performance.now();
    const ice = await startIcefrontChild(
      `logging: { level: warn }\ncatalogs:\n  fx:\n    type: rest\n    uri: ${JSON.stringify(upstream.url)}\n    planning: local\n` +
        `    storage: { s3: { endpoint: ${JSON.stringify(proxy.url)}, region: ${moto.region}, path-style: true, access-key-id: ${moto.accessKeyId}, secret-access-key: ${moto.secretAccessKey} } }\n`,
    );
    steps['Icefront started'] = seconds(t);
    try {
      t = performance.now();
      const poll = await startProbe(`${ice.url}/healthz`);
      steps['/healthz probe started'] = seconds(t);
      await settle(1000); // the probe's start-up (tsx) done before the walk
      const idle = procMemory(ice.pid);
      const peakReset = resetPeak(ice.pid);
      const start = Date.now();
      t = performance.now();
      let walk: Awaited<ReturnType<typeof timedWalk>>;
      try {
        walk = await timedWalk(`${ice.url}/v1/fx/${tablePath}`);
      } catch (e) {
        await poll.stop().catch(() => undefined);
        throw e;
      } finally {
        steps['Icefront cold walk'] = seconds(t);
      }
      const { run, split } = walk;
      const end = Date.now();
      const peak = procMemory(ice.pid);
      const samples = await poll.stop();
      await settle(1000); // the request log's last lines read
      const after = procMemory(ice.pid);
      const healthz = healthzDuring(samples, start, end);
      const cold: IcefrontCold = {
        ms: run.ms,
        ...split,
        requests: run.requests,
        planTasks: run.planTasks,
        wireBytes: run.bytes,
        jsonBytes: run.jsonBytes,
        largestJson: run.largestJson,
        idleMB: idle.rssMB,
        peakMB: peak.peakMB,
        endMB: after.rssMB,
        peakReset,
        planAnswerMs: ice.busyMs('/plan'),
        tasksBusyMs: ice.busyMs('/tasks'),
        heapLimitMB: ice.heapLimitMB,
        healthz,
      };
      console.log(
        `  Icefront cold walk: ${run.ms.toFixed(0)} ms (its /plan answer ${cold.planAnswerMs.toFixed(0)} ms), ${run.requests} requests; RSS ${idle.rssMB.toFixed(0)} MiB before, peak ${peak.peakMB.toFixed(0)} MiB; longest /healthz wait ${healthz.worstMs.toFixed(1)} ms`,
      );
      if (ice.count('/plan') !== 1 || ice.count('/tasks') !== run.planTasks) throw new Error(`Icefront's request log shows ${ice.count('/plan')} /plan and ${ice.count('/tasks')} /tasks, the walk sent 1 and ${run.planTasks}`);
      if (run.largestJson > DEFAULTS.maxResponseBytes) throw new Error(`Icefront answered ${run.largestJson} bytes of JSON, over max-response-bytes ${DEFAULTS.maxResponseBytes}`);
      t = performance.now();
      checkFiles('Icefront', run, truth.set);
      steps['Icefront files checked'] = seconds(t);
      return { fixture: fixtureCold, icefront: cold, steps };
    } finally {
      await ice.close();
    }
  } finally {
    await upstream.close();
  }
}

async function main(): Promise<void> {
  if (!(RUNS >= 1) || !(MANIFESTS >= 1) || !(ENTRIES >= 1)) throw new Error('BENCH_RUNS, BENCH_LARGE_MANIFESTS and BENCH_LARGE_ENTRIES must be at least 1');
  const setup: Record<string, number> = {};
  const load: { phase: string; loadavg: number[] }[] = [{ phase: 'start', loadavg: os.loadavg() }];
  try {
    let t = performance.now();
    const { env, toxiproxy } = await toolchainAndToxiproxy();
    closers.push(toxiproxy.close);
    setup['toolchain and Toxiproxy checked, Toxiproxy started'] = seconds(t);

    const { table, written, seconds: tableSeconds } = await ensureTable();
    setup[written ? 'table written' : 'table found (cached)'] = tableSeconds;
    t = performance.now();
    const moto = await startMoto(env, ['bench']);
    closers.push(moto.close);
    setup['moto started'] = seconds(t);
    t = performance.now();
    const uploaded = await uploadFolder(env, moto, 'bench', `warehouse/bench/${table.name}/metadata`, path.join(table.root, 'metadata'));
    setup[`${uploaded} metadata files uploaded to moto`] = seconds(t);

    // every read of the table's metadata, by the fixture and by Icefront, goes through the proxy
    const proxy = await toxiproxy.proxy('moto', new URL(moto.endpoint).host);
    for (const stream of ['downstream', 'upstream'] as const)
      await proxy.addToxic({ name: `latency-${stream}`, type: 'latency', stream, attributes: { latency: LATENCY_MS, jitter: 0 } });

    const jvm = jvmSettings(JVM_OPTS);
    console.log(
      `large-table: bench.${table.name}, ${FILES.toLocaleString('en')} data files in ${MANIFESTS.toLocaleString('en')} manifests (20 columns with stats), on moto behind Toxiproxy, +${LATENCY_MS} ms each way; ${os.cpus().length} cores; ${RUNS} round${RUNS > 1 ? 's' : ''}`,
    );
    console.log(`  fixture JVM: ${jvm}; Icefront: node ${process.version}`);
    for (const [step, s] of Object.entries(setup)) console.log(`  setup: ${step}: ${s.toFixed(1)} s`);
    load.push({ phase: 'setup done', loadavg: os.loadavg() });

    const rounds: Round[] = [];
    const truth: { set?: Set<string> } = {};
    for (let r = 1; r <= RUNS; r++) {
      console.log(`round ${r}`);
      rounds.push(await round(env, moto, proxy, table, truth));
      for (const [step, s] of Object.entries(rounds.at(-1)!.steps)) console.log(`  step: ${step}: ${s.toFixed(1)} s`);
      load.push({ phase: `after round ${r}`, loadavg: os.loadavg() });
    }
    report(rounds, jvm, setup, load);
  } catch (err) {
    console.error(`large-table: ${(err as Error).stack ?? String(err)}`);
    process.exitCode = 1;
  } finally {
    await closeAll();
  }
}

function report(rounds: Round[], jvm: string, setup: Record<string, number>, load: { phase: string; loadavg: number[] }[]): void {
  const pad = (s: string, n: number) => s.padStart(n);
  const ms = (x: number) => `${Math.round(x).toLocaleString('en')} ms`;
  const mib = (x: number) => `${x.toFixed(0)} MiB`;
  const wire = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  console.log(`\nlarge-table: cold = a fresh server's first plan, the java walk (4 fetchers), gzip asked, timed by the client from the /plan request to the last /tasks answer`);
  console.log(`  /plan = the client's wait for the /plan answer (its end); /tasks = each request's time, median and longest; RSS of the planning process: before, peak during the walk, after`);
  console.log(
    `  ${'round, server'.padEnd(34)} ${pad('cold walk', 11)} ${pad('/plan', 10)} ${pad('/tasks', 7)} ${pad('median', 8)} ${pad('longest', 9)} ${pad('wire gz', 10)} ${pad('JSON', 11)} ${pad('RSS before', 10)} ${pad('peak', 9)} ${pad('after', 9)}`,
  );
  const row = (label: string, c: Cold) =>
    console.log(
      `  ${label.padEnd(34)} ${pad(ms(c.ms), 11)} ${pad(ms(c.planDoneMs), 10)} ${pad(String(c.tasks.count), 7)} ${pad(ms(c.tasks.medianMs), 8)} ${pad(ms(c.tasks.maxMs), 9)} ${pad(wire(c.wireBytes), 10)} ${pad(wire(c.jsonBytes), 11)} ${pad(mib(c.idleMB), 10)} ${pad(mib(c.peakMB), 9)} ${pad(mib(c.endMB), 9)}`,
    );
  for (const [i, r] of rounds.entries()) {
    row(`${i + 1}, fixture (Java) plans itself`, r.fixture);
    row(`${i + 1}, Icefront rest, planning: local`, r.icefront);
  }
  for (const [i, r] of rounds.entries()) {
    const c = r.icefront;
    const h = c.healthz;
    console.log(
      `  round ${i + 1}, Icefront: its /plan answer ${ms(c.planAnswerMs)} by its request log (the client had its headers after ${ms(c.planHeadersMs)}), its /tasks answers ${ms(c.tasksBusyMs)} summed (4 at once), largest answer ${(c.largestJson / 1000).toFixed(0)} kB`,
    );
    console.log(`    /healthz every ${PROBE_INTERVAL_MS} ms during the walk: ${h.polls} polls, p99 ${h.p99Ms.toFixed(1)} ms, longest ${h.worstMs.toFixed(1)} ms (due at +${(h.worstAtMs / 1000).toFixed(1)} s), ${h.over50} over 50 ms`);
  }
  const resets = rounds.every((r) => r.fixture.peakReset && r.icefront.peakReset);
  console.log(
    `  every walk: ${FILES.toLocaleString('en')} file-scan-tasks, the fixture's path set exactly, no delete files; Icefront's answers each within ${DEFAULTS.maxResponseBytes} bytes; V8 heap limit in Icefront ${rounds[0]!.icefront.heapLimitMB} MiB${resets ? '' : '; peak not resettable here: lifetime VmHWM'}`,
  );

  const fixtureMs = median(rounds.map((r) => r.fixture.ms));
  const icefrontMs = median(rounds.map((r) => r.icefront.ms));
  const peak = Math.max(...rounds.map((r) => r.icefront.peakMB));
  const worst = Math.max(...rounds.map((r) => r.icefront.healthz.worstMs));
  // met: ratio ≤ bound; for the two absolute measures the base is the budget and the bound 1
  const goal = (name: string, value: number, base: number, bound: number) => ({ name, value, base, ratio: value / base, bound, met: value / base <= bound });
  const goals = [
    goal("first plan through a fresh Icefront ÷ the fixture's cold plan (goal 5: ≤ 0.5)", icefrontMs, fixtureMs, 0.5),
    goal('peak RSS of Icefront during its first plan, MiB (goal 5: ≤ 1024)', peak, 1024, 1),
    goal('longest /healthz wait during it, ms (goal 5: ≤ 50)', worst, 50, 1),
  ];
  console.log(`\ngoal 5 (issue #41), ${rounds.length} round${rounds.length > 1 ? 's' : ''} (times: medians; peak and wait: the worst round):`);
  console.log(`  ${goals[0]!.name}: ${ms(icefrontMs)} ÷ ${ms(fixtureMs)} = ${goals[0]!.ratio.toFixed(2)} (${goals[0]!.met ? 'met' : 'NOT met'})`);
  console.log(`  ${goals[1]!.name}: ${peak.toFixed(0)} (${goals[1]!.met ? 'met' : 'NOT met'})`);
  console.log(`  ${goals[2]!.name}: ${worst.toFixed(1)} (${goals[2]!.met ? 'met' : 'NOT met'})`);
  load.push({ phase: 'end', loadavg: os.loadavg() });
  console.log(`  load average (1, 5, 15 min): ${load.map((l) => `${l.phase} ${l.loadavg.map((x) => x.toFixed(2)).join(' ')}`).join('; ')}`);
  const round1 = (x: number) => Math.round(x * 10) / 10;
  const roundSplit = (c: Cold) => ({
    planHeadersMs: Math.round(c.planHeadersMs),
    planDoneMs: Math.round(c.planDoneMs),
    tasks: { count: c.tasks.count, medianMs: round1(c.tasks.medianMs), maxMs: Math.round(c.tasks.maxMs), sumMs: Math.round(c.tasks.sumMs) },
  });
  console.log(
    JSON.stringify({
      bench: 'large-table',
      manifests: MANIFESTS,
      entriesPerManifest: ENTRIES,
      files: FILES,
      latencyMs: LATENCY_MS,
      runs: rounds.length,
      cpus: os.cpus().length,
      fixtureJvm: jvm,
      node: process.version,
      setupSeconds: Object.fromEntries(Object.entries(setup).map(([k, v]) => [k, round1(v)])),
      rounds: rounds.map((r) => ({
        fixture: { ...r.fixture, ...roundSplit(r.fixture), ms: Math.round(r.fixture.ms), idleMB: Math.round(r.fixture.idleMB), peakMB: Math.round(r.fixture.peakMB), endMB: Math.round(r.fixture.endMB) },
        icefront: {
          ...r.icefront,
          ...roundSplit(r.icefront),
          ms: Math.round(r.icefront.ms),
          planAnswerMs: Math.round(r.icefront.planAnswerMs),
          tasksBusyMs: Math.round(r.icefront.tasksBusyMs),
          idleMB: Math.round(r.icefront.idleMB),
          peakMB: Math.round(r.icefront.peakMB),
          endMB: Math.round(r.icefront.endMB),
          healthz: { ...r.icefront.healthz, p99Ms: round1(r.icefront.healthz.p99Ms), worstMs: round1(r.icefront.healthz.worstMs), worstAtMs: Math.round(r.icefront.healthz.worstAtMs) },
        },
        stepsSeconds: Object.fromEntries(Object.entries(r.steps).map(([k, v]) => [k, round1(v)])),
      })),
      loadavg: load,
      goals,
    }),
  );
}

// the bench, or one of the child processes it starts (this file again)
if (process.argv[2] === '--probe') await probe(process.argv[3]!);
else if (process.argv[2] === '--write-table') writeTable();
else await main();
