/**
 * `npm run bench:commits` (issue #40, "Speed"): commit latency and commits per second of a small
 * append on one table, for each kind of catalog Icefront keeps itself, against the Iceberg REST
 * fixture (RESTCatalogServer 1.11.0, JdbcCatalog on SQLite; test/interop/harness/rest-fixture.ts)
 * on the same machine in the same run:
 *   - Icefront `filesystem` (writable, a temp warehouse),
 *   - Icefront `sql` on SQLite (a temp file),
 *   - Icefront `sql` on PostgreSQL (a temporary cluster, test/helpers/postgres.ts, with PostgreSQL's
 *     own durability settings, fsync and synchronous commit on, unless BENCH_COMMITS_PG=fast;
 *     skipped with a line when Debian's `postgresql` is not installed),
 * each Icefront the built server (`<dist>/cli.js serve`, dist/ unless BENCH_COMMITS_DIST names
 * another build) in a process of its own, logging at `warn`.
 *
 * The load (bench/commit-load.ts) is the REST commit an engine sends for an append, generated here
 * with undici, not by an engine (whose own time would swamp the catalog's):
 *   - latency: one writer, sequential commits on a fresh table, each built on the previous answer:
 *     BENCH_COMMITS_WARMUP (30) untimed, then BENCH_COMMITS_COUNT (300) timed; p50 and p99;
 *   - throughput: BENCH_COMMITS_WRITERS (8) writers on one fresh table for BENCH_COMMITS_SECONDS
 *     (15); a writer answered 409 reloads the table and tries again at once; commits/s = 200s
 *     within the duration ÷ the duration. After each run the table must hold exactly the
 *     snapshots answered 200, in one chain (no lost append).
 * Before the first round, each target takes one untimed throughput run of BENCH_COMMITS_WARM_SECONDS
 * (5) (the JVM's JIT, V8's). Then BENCH_RUNS (3) rounds, targets one at a time, the order rotated
 * each round so drift falls on all alike; medians of the rounds are reported. Idle servers stay up
 * between their turns (their RSS is the point of the memory lines). Each latency run starts on a
 * quiet machine, so that what the previous target's 8 writers leave running (a JVM's concurrent GC
 * and JIT, a Node's collections, PostgreSQL's autovacuum after thousands of commits) cannot fall
 * into the next target's tail on the same two cores: the bench waits until the whole machine is
 * under QUIET_BUSY busy over a second (at most QUIET_MAX_S), and prints how busy it was. (In the
 * runs of 2026-12-07 it was 0-6% busy after the first second: the tails were not that.)
 *
 * Memory: VmRSS (/proc) of each Icefront 2 s after it answered /healthz (idle, after start) and 3 s
 * after the last round (idle, after the run), beside the same for Icefront with today's demo
 * configuration (a read-only `filesystem` catalog over fixtures/warehouse), the reference "today".
 *
 * Output: one table (kind × p50, p99, commits/s, 409s …), the goals of #40 each with its ratio to
 * the fixture and whether it is met, the RSS lines, and a final JSON line of every figure.
 *
 * Flags: --quick (50 commits after 10, 5 s, 1 s warm-up, 1 round: checks the bench, measures
 * nothing); --profile[=KIND,…] (default postgres; also filesystem, sqlite): after the measured
 * rounds, a fresh Icefront of that kind (inspector on) takes the warm-up, then one throughput run
 * under the same writers with V8's CPU profiler on, and the profile is summarised (self time by
 * package and function, inclusive time of Icefront's functions; the .cpuprofile file stays in
 * bench/.work/commits-prof/). Needs a build (`npm run build`) and the interop toolchain
 * (`bash tools/interop/setup.sh`, run here when needed) for the fixture; BENCH_COMMITS_JVM_OPTS
 * are the fixture's JVM options (default none); BENCH_COMMITS_KINDS (filesystem,sqlite,postgres: all)
 * names the Icefront kinds measured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureToolchain, REPO } from '../test/interop/harness/toolchain.js';
import { startRestFixture, type RestFixture } from '../test/interop/harness/rest-fixture.js';
import { stopProcess, Tail } from '../test/interop/harness/processes.js';
import { postgresMissing, startPostgres, type PostgresCluster } from '../test/helpers/postgres.js';
import { CommitClient, latencyRun, throughputRun, type LatencyRun, type ThroughputRun } from './commit-load.js';
import { printProfile, summarizeProfile, type ProfileSummary } from './cpu-profile-top.js';
import { median } from './median.js';
import { machineBusy, procCpuMs } from './proc-cpu.js';
import { procMemory } from './proc-memory.js';
import { freePort, waitFor } from './servers.js';
import { WORK } from './synthetic-table.js';

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const profileArg = args.find((a) => a === '--profile' || a.startsWith('--profile='));
const unknown = args.filter((a) => a !== '--quick' && a !== profileArg);
if (unknown.length) {
  console.error(`commits: unknown arguments ${unknown.join(' ')} (--quick, --profile[=postgres,sqlite,filesystem])`);
  process.exit(2);
}
const num = (name: string, normal: number, quick: number): number => {
  const v = process.env[name];
  const n = v === undefined ? (QUICK ? quick : normal) : Number(v);
  if (!(n > 0)) throw new Error(`${name} must be a positive number`);
  return n;
};
const ROUNDS = num('BENCH_RUNS', 3, 1);
const COUNT = num('BENCH_COMMITS_COUNT', 300, 50);
const WARMUP = num('BENCH_COMMITS_WARMUP', 30, 10);
const SECONDS = num('BENCH_COMMITS_SECONDS', 15, 5);
const WARM_SECONDS = num('BENCH_COMMITS_WARM_SECONDS', 5, 1);
const WRITERS = num('BENCH_COMMITS_WRITERS', 8, 8);
const JVM_OPTS = (process.env['BENCH_COMMITS_JVM_OPTS'] ?? '').split(/\s+/).filter(Boolean);
const DIST = path.resolve(process.env['BENCH_COMMITS_DIST'] ?? path.join(REPO, 'dist'));
const CLI = path.join(DIST, 'cli.js');

type Kind = 'fixture' | 'filesystem' | 'sqlite' | 'postgres';
type IcefrontKind = Exclude<Kind, 'fixture'>;
const LABEL: Record<Kind, string> = {
  fixture: 'fixture (Java JdbcCatalog, SQLite)',
  filesystem: 'Icefront filesystem',
  sqlite: 'Icefront sql, SQLite',
  postgres: 'Icefront sql, PostgreSQL',
};
const PROFILE: IcefrontKind[] =
  profileArg === undefined ? [] : profileArg === '--profile' ? ['postgres'] : (profileArg.slice('--profile='.length).split(',') as IcefrontKind[]);
for (const k of PROFILE) if (!['filesystem', 'sqlite', 'postgres'].includes(k)) throw new Error(`--profile: unknown kind ${k}`);

if (!fs.existsSync(CLI)) {
  console.log(`commits: needs a build, ${path.relative(REPO, CLI)} is missing (npm run build)`);
  process.exit(1);
}

/** A machine this busy or less (all CPUs, all processes, over a second) is quiet enough to time a latency run on. */
const QUIET_BUSY = 0.1;
const QUIET_MAX_S = 30;

/** Waits until the machine is quiet (QUIET_BUSY), at most QUIET_MAX_S; the seconds waited and the last second's busy share. */
async function quiet(): Promise<{ waitedS: number; busy: number }> {
  const started = performance.now();
  let busy = await machineBusy(1000);
  while (busy > QUIET_BUSY && performance.now() - started < QUIET_MAX_S * 1000) busy = await machineBusy(1000);
  return { waitedS: (performance.now() - started) / 1000, busy };
}

const load: { phase: string; loadavg: number[] }[] = [{ phase: 'start', loadavg: os.loadavg() }];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-bench-commits-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Icefront {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  log(): string;
}

/** `node <dist>/cli.js serve` on a config of its own; ready once /healthz answers. */
async function startIcefront(name: string, yaml: string, nodeArgs: readonly string[] = []): Promise<Icefront> {
  const config = path.join(tmp, `${name}.yaml`);
  fs.writeFileSync(config, `logging: { level: warn }\n${yaml}`);
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--config', config, '--port', String(port), '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  children.push(child);
  const err = new Tail();
  child.stdout!.on('data', (c: Buffer) => err.push(c));
  child.stderr!.on('data', (c: Buffer) => err.push(c));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/healthz`);
  } catch (e) {
    throw new Error(`Icefront (${name}) did not start: ${(e as Error).message}\n${err.toString().slice(-3000)}`);
  }
  return { url, pid: child.pid!, child, log: () => err.toString() };
}

/** The catalog section of each kind, its files below `tmp` (suffix: a second, independent instance). */
function catalogYaml(kind: IcefrontKind, pg: PostgresCluster | undefined, pgUri: string | undefined, suffix = ''): string {
  const dir = (d: string) => {
    const p = path.join(tmp, `${d}${suffix}`);
    fs.mkdirSync(p, { recursive: true });
    return JSON.stringify(p);
  };
  switch (kind) {
    case 'filesystem':
      return `catalogs:\n  fs: { type: filesystem, warehouse: ${dir('fs-warehouse')} }\n`;
    case 'sqlite':
      return `catalogs:\n  lite: { type: sql, uri: ${JSON.stringify(`sqlite:${path.join(tmp, `catalog${suffix}.db`)}`)}, warehouse-location: ${dir('lite-warehouse')} }\n`;
    case 'postgres':
      if (!pg || !pgUri) throw new Error('no PostgreSQL cluster');
      return `catalogs:\n  pg: { type: sql, uri: ${JSON.stringify(pgUri)}, warehouse-location: ${dir('pg-warehouse')} }\n`;
  }
}
const PREFIX: Record<IcefrontKind, string> = { filesystem: 'fs', sqlite: 'lite', postgres: 'pg' };

/** Today's demo configuration: a read-only filesystem catalog over the checked-in warehouse (as bench/node-lines.ts). */
function todayYaml(): string {
  const wh = path.join(REPO, 'fixtures/warehouse');
  return `catalogs:\n  demo: { type: filesystem, read-only: true, warehouse: ${JSON.stringify(wh)}, locations: { "s3://icefront-demo/warehouse": ${JSON.stringify(wh)} } }\n`;
}

interface Target {
  readonly kind: Kind;
  readonly base: string;
  readonly pid: number;
  readonly client: CommitClient;
  readonly latency: LatencyRun[];
  readonly throughput: ThroughputRun[];
  /** Server CPU ms per successful commit in each throughput run (its own process only). */
  readonly cpuPerCommit: number[];
  /** The load generator's (this process's) CPU ms per committed snapshot in the same runs. */
  readonly loadCpuPerCommit: number[];
  /** Before each latency run: the wait for a quiet machine, and how busy it was when the run began. */
  readonly quiet: { waitedS: number; busy: number }[];
  rssAfterStart?: number;
  rssAfterRun?: number;
}

function stale(): string | undefined {
  const built = fs.statSync(CLI).mtimeMs;
  const newer: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && fs.statSync(p).mtimeMs > built) newer.push(path.relative(REPO, p));
    }
  };
  walk(path.join(REPO, 'src'));
  return newer.length ? `${newer.length} file(s) of src/ changed after ${path.relative(REPO, CLI)} was built (e.g. ${newer.slice(0, 3).join(', ')}): npm run build` : undefined;
}

async function main(): Promise<void> {
  const staleness = DIST === path.join(REPO, 'dist') ? stale() : undefined;
  if (staleness) console.log(`commits: warning: ${staleness}`);
  const tc = await ensureToolchain();
  if (!tc.ok) {
    console.error(`commits: cannot run: the fixture needs the interop toolchain: ${tc.missing}`);
    process.exit(1);
  }
  console.log(`commits: ${tc.setupOutput.split('\n').pop()}`);
  const pgMissing = postgresMissing();
  if (pgMissing) console.log(`commits: sql on PostgreSQL skipped: ${pgMissing}`);
  // PostgreSQL as deployments run it (fsync and synchronous commit on), as the fixture's SQLite
  // syncs its commits; BENCH_COMMITS_PG=fast: the tests' settings (fsync off) instead
  const pgFast = process.env['BENCH_COMMITS_PG'] === 'fast';
  const pg = pgMissing ? undefined : await startPostgres({ durable: !pgFast });
  if (pg) console.log(`commits: PostgreSQL ${pgFast ? 'with fsync and synchronous commit off (BENCH_COMMITS_PG=fast)' : 'with its own defaults: fsync and synchronous commit on'}`);
  const pgUri = pg?.uri();
  const only = process.env['BENCH_COMMITS_KINDS']?.split(',');
  const kinds = (['filesystem', 'sqlite', 'postgres'] as const).filter((k) => (k !== 'postgres' || pg) && (!only || only.includes(k)));
  let fixture: RestFixture | undefined;
  const targets: Target[] = [];
  try {
    // every Icefront first, idle RSS 2 s after each answered /healthz
    const today = await startIcefront('today', todayYaml());
    const ices = new Map<IcefrontKind, Icefront>();
    for (const kind of kinds) ices.set(kind, await startIcefront(kind, catalogYaml(kind, pg, pgUri)));
    await sleep(2000);
    const todayStart = procMemory(today.pid).rssMB;
    const startRss = new Map([...ices].map(([k, ice]) => [k, procMemory(ice.pid).rssMB]));

    fixture = await startRestFixture(tc.env, { jvmOptions: JVM_OPTS });
    const make = (kind: Kind, base: string, pid: number): Target => ({ kind, base, pid, client: new CommitClient({ base }, WRITERS), latency: [], throughput: [], cpuPerCommit: [], loadCpuPerCommit: [], quiet: [] });
    targets.push(make('fixture', `${fixture.url}/v1`, fixture.pid));
    for (const [kind, ice] of ices) targets.push({ ...make(kind, `${ice.url}/v1/${PREFIX[kind]}`, ice.pid), rssAfterStart: startRss.get(kind)! });

    console.log(
      `commits: ${ROUNDS} round(s); latency: 1 writer, ${COUNT} commits after ${WARMUP}; throughput: ${WRITERS} writers, ${SECONDS} s; warm-up ${WARM_SECONDS} s of ${WRITERS} writers per target; Icefront ${path.relative(REPO, CLI)}, Node ${process.version}`,
    );
    for (const t of targets) {
      await t.client.ensureNamespace();
      await throughputRun(t.client, 'warmup', WRITERS, WARM_SECONDS);
    }
    load.push({ phase: 'after warm-up', loadavg: os.loadavg() });
    for (let round = 0; round < ROUNDS; round++) {
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
      for (const t of order) {
        const settled = await quiet();
        t.quiet.push(settled);
        const lat = await latencyRun(t.client, `latency_${round}`, WARMUP, COUNT);
        const cpu0 = procCpuMs(t.pid);
        const own0 = process.cpuUsage();
        const tp = await throughputRun(t.client, `writers_${round}`, WRITERS, SECONDS);
        const cpu = procCpuMs(t.pid) - cpu0;
        const own = process.cpuUsage(own0);
        t.loadCpuPerCommit.push((own.user + own.system) / 1000 / Math.max(1, tp.snapshots));
        t.latency.push(lat);
        t.throughput.push(tp);
        t.cpuPerCommit.push(cpu / Math.max(1, tp.snapshots));
        const errs = Object.entries(tp.errors);
        console.log(
          `  round ${round + 1} ${t.kind.padEnd(10)} p50 ${lat.p50.toFixed(2)} ms  p99 ${lat.p99.toFixed(2)} ms  ${tp.commitsPerSecond.toFixed(1)} commits/s  ${tp.conflicts} 409s` +
            (errs.length ? `  errors ${errs.map(([s, n]) => `${n}×${s}`).join(', ')} (e.g. ${Object.values(tp.errorSamples)[0]})` : '') +
            (tp.integrity.length ? `  TABLE CHECK: ${tp.integrity.join('; ')}` : '') +
            `  (latency run after ${settled.waitedS.toFixed(1)} s of waiting for a quiet machine, ${(settled.busy * 100).toFixed(0)}% busy)`,
        );
      }
      load.push({ phase: `after round ${round + 1}`, loadavg: os.loadavg() });
    }
    await sleep(3000);
    for (const t of targets) if (t.kind !== 'fixture') t.rssAfterRun = procMemory(t.pid).rssMB;
    const fixtureRss = procMemory(fixture.pid).rssMB;
    const todayEnd = procMemory(today.pid).rssMB;
    for (const t of targets) await t.client.close();

    const profiles: { kind: IcefrontKind; file: string; summary: ProfileSummary; run: ThroughputRun }[] = [];
    for (const kind of PROFILE) {
      if (!kinds.includes(kind)) {
        console.log(`commits: --profile=${kind} skipped (that kind did not run)`);
        continue;
      }
      profiles.push(await profileKind(kind, pg, pgUri));
    }
    load.push({ phase: 'end', loadavg: os.loadavg() });
    report(targets, { todayStart, todayEnd, fixtureRss }, profiles);
  } finally {
    for (const c of children) await stopProcess(c);
    await fixture?.close();
    await pg?.stop();
  }
}

/**
 * A fresh Icefront of `kind` with the inspector on: the same warm-up, then V8's CPU profiler
 * (the DevTools protocol, as `node --cpu-prof` records, but only) around one throughput run, so
 * start-up and module loading stay out of the profile. Written as a .cpuprofile (Chrome DevTools
 * and speedscope open it).
 */
async function profileKind(kind: IcefrontKind, pg: PostgresCluster | undefined, pgUri: string | undefined) {
  const dir = path.join(WORK, 'commits-prof');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
  const uri = kind === 'postgres' && pg ? await pg.createDatabase() : pgUri;
  const ice = await startIcefront(`${kind}-profiled`, catalogYaml(kind, pg, uri, '-profiled'), ['--inspect=127.0.0.1:0']);
  const ws = /Debugger listening on (ws:\/\/\S+)/.exec(ice.log())?.[1];
  if (!ws) throw new Error(`no inspector URL from the profiled Icefront:\n${ice.log().slice(-2000)}`);
  const inspector = await connectInspector(ws);
  const client = new CommitClient({ base: `${ice.url}/v1/${PREFIX[kind]}` }, WRITERS);
  await client.ensureNamespace();
  await throughputRun(client, 'warmup', WRITERS, WARM_SECONDS);
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: 500 });
  await inspector.send('Profiler.start');
  const run = await throughputRun(client, 'profiled', WRITERS, SECONDS);
  const { profile } = (await inspector.send('Profiler.stop')) as { profile: unknown };
  fs.writeFileSync(file, JSON.stringify(profile));
  inspector.close();
  await client.close();
  await stopProcess(ice.child, 15_000);
  return { kind, file, summary: summarizeProfile(file, 25), run };
}

/** A DevTools-protocol session on a node inspector URL (Node's global WebSocket). */
async function connectInspector(url: string): Promise<{ send(method: string, params?: object): Promise<unknown>; close(): void }> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot connect to the inspector at ${url}`)), { once: true });
  });
  let next = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  socket.addEventListener('message', (event) => {
    const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const w = msg.id === undefined ? undefined : waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id!);
    if (msg.error) w.reject(new Error(msg.error.message));
    else w.resolve(msg.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

const f2 = (x: number) => x.toFixed(2);
const mb = (x: number) => `${x.toFixed(0)} MB`;

function report(targets: Target[], mem: { todayStart: number; todayEnd: number; fixtureRss: number }, profiles: Awaited<ReturnType<typeof profileKind>>[]): void {
  const med = (t: Target) => ({
    p50: median(t.latency.map((r) => r.p50)),
    p99: median(t.latency.map((r) => r.p99)),
    cps: median(t.throughput.map((r) => r.commitsPerSecond)),
    conflicts: median(t.throughput.map((r) => r.conflicts)),
    retries: median(t.throughput.map((r) => r.retries)),
    errors: t.throughput.reduce((n, r) => n + Object.values(r.errors).reduce((a, b) => a + b, 0), 0),
    contendedP50: median(t.throughput.map((r) => r.commitP50)),
    contendedP99: median(t.throughput.map((r) => r.commitP99)),
    cpuPerCommit: median(t.cpuPerCommit),
    loadCpuPerCommit: median(t.loadCpuPerCommit),
    conflictP50: median(t.throughput.map((r) => r.conflictP50)),
    answerKB: median(t.latency.map((r) => r.lastAnswerBytes)) / 1000,
    tableKB: median(t.throughput.map((r) => r.tableBytes)) / 1000,
  });
  const rows = targets.map((t) => ({ t, m: med(t) }));
  const base = rows.find((r) => r.t.kind === 'fixture')!.m;
  console.log(`\ncommits: medians of ${ROUNDS} round(s); latency = 1 writer, ${COUNT} sequential commits; throughput = ${WRITERS} writers, ${SECONDS} s, one table`);
  console.log(
    `  ${'kind'.padEnd(36)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'commits/s'.padStart(10)} ${'409s'.padStart(7)} ${'retries'.padStart(8)} ${'errors'.padStart(7)} ${'8w p50'.padStart(9)} ${'8w p99'.padStart(9)} ${'409 p50'.padStart(9)} ${'CPU/commit'.padStart(11)} ${'table'.padStart(9)}`,
  );
  for (const { t, m } of rows) {
    console.log(
      `  ${LABEL[t.kind].padEnd(36)} ${`${f2(m.p50)} ms`.padStart(9)} ${`${f2(m.p99)} ms`.padStart(9)} ${m.cps.toFixed(1).padStart(10)} ${m.conflicts.toFixed(0).padStart(7)} ${m.retries.toFixed(0).padStart(8)} ${String(m.errors).padStart(7)} ${`${m.contendedP50.toFixed(1)} ms`.padStart(9)} ${`${m.contendedP99.toFixed(1)} ms`.padStart(9)} ${`${m.conflictP50.toFixed(1)} ms`.padStart(9)} ${`${m.cpuPerCommit.toFixed(2)} ms`.padStart(11)} ${`${m.tableKB.toFixed(0)} kB`.padStart(9)}`,
    );
  }
  console.log(`  8w p50/p99: a successful commit's time under ${WRITERS} writers, first attempt to 200 (409s, reloads and retries included)`);
  console.log(`  409 p50: the time to a 409 answer under ${WRITERS} writers (a lost swap is retried inside the catalog, after a pause, before its requirement fails)`);
  console.log(
    `  CPU/commit: the server process's CPU time per committed snapshot under ${WRITERS} writers (PostgreSQL's own processes not counted); the load generator's own: ${rows.map(({ t, m }) => `${t.kind} ${m.loadCpuPerCommit.toFixed(2)} ms`).join(', ')}`,
  );
  console.log(`  table: the load-table answer after a throughput run (every commit answers the whole metadata, which grows a snapshot per commit)`);
  console.log(`  checked: every latency answer showed its own snapshot current at its sequence number; after every throughput run the table held exactly the snapshots answered 200, in one chain; every manifest list named was never written, so no catalog read one`);

  console.log(`\ngoals (issue #40), ratios to the fixture:`);
  const goals: Record<string, { p50: number; p99: number; throughput: number; met: boolean }> = {};
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  for (const { t, m } of rows) {
    if (t.kind === 'fixture') continue;
    const r = { p50: m.p50 / base.p50, p99: m.p99 / base.p99, throughput: m.cps / base.cps };
    goals[t.kind] = { ...r, met: r.p50 <= 0.5 && r.p99 <= 0.5 && r.throughput >= 1 };
    console.log(`  ${LABEL[t.kind].padEnd(26)} latency p50 ÷ fixture ${f2(r.p50)} ≤ 0.5 ${mark(r.p50 <= 0.5)};  p99 ÷ fixture ${f2(r.p99)} ≤ 0.5 ${mark(r.p99 <= 0.5)};  throughput ÷ fixture ${f2(r.throughput)} ≥ 1 ${mark(r.throughput >= 1)}`);
  }
  console.log(`\nidle RSS (VmRSS), today = Icefront with today's demo config (read-only filesystem catalog): ${mb(mem.todayStart)} after start, ${mb(mem.todayEnd)} at the end`);
  const rss: Record<string, { afterStart: number; afterRun: number; startRatio: number; runRatio: number }> = {};
  for (const { t } of rows) {
    if (t.kind === 'fixture') continue;
    const startRatio = t.rssAfterStart! / mem.todayStart;
    const runRatio = t.rssAfterRun! / mem.todayStart;
    rss[t.kind] = { afterStart: t.rssAfterStart!, afterRun: t.rssAfterRun!, startRatio, runRatio };
    console.log(`  ${LABEL[t.kind].padEnd(26)} after start ${mb(t.rssAfterStart!).padStart(6)} ÷ today ${f2(startRatio)} ≤ 1 ${mark(startRatio <= 1)};  after the run ${mb(t.rssAfterRun!).padStart(6)} ÷ today ${f2(runRatio)}`);
  }
  console.log(`  (the fixture's JVM: ${mb(mem.fixtureRss)} after the run)`);
  for (const p of profiles) {
    console.log(`\nprofile: ${LABEL[p.kind]} under ${WRITERS} writers, a fresh process (${p.run.commitsPerSecond.toFixed(1)} commits/s, ${p.run.conflicts} 409s while profiled), ${path.relative(REPO, p.file)}`);
    printProfile(p.summary, '  ');
  }
  console.log(`\nload average (1, 5, 15 min): ${load.map((l) => `${l.phase} ${l.loadavg.map((x) => x.toFixed(2)).join(' ')}`).join('; ')}`);
  console.log(
    JSON.stringify({
      bench: 'commits',
      settings: { quick: QUICK, rounds: ROUNDS, count: COUNT, warmup: WARMUP, seconds: SECONDS, warmSeconds: WARM_SECONDS, writers: WRITERS, jvmOptions: JVM_OPTS, node: process.version, cpus: os.cpus().length },
      kinds: Object.fromEntries(
        rows.map(({ t, m }) => [
          t.kind,
          {
            ...m,
            rounds: t.latency.map((l, i) => ({
              p50: l.p50,
              p99: l.p99,
              commitsPerSecond: t.throughput[i]!.commitsPerSecond,
              successes: t.throughput[i]!.successes,
              conflicts: t.throughput[i]!.conflicts,
              retries: t.throughput[i]!.retries,
              errors: t.throughput[i]!.errors,
              cpuPerCommitMs: t.cpuPerCommit[i],
              loadCpuPerCommitMs: t.loadCpuPerCommit[i],
              conflictP50: t.throughput[i]!.conflictP50,
              quietWaitS: t.quiet[i]?.waitedS,
              busyAtStart: t.quiet[i]?.busy,
            })),
          },
        ]),
      ),
      goals,
      rss: { todayAfterStart: mem.todayStart, todayAtEnd: mem.todayEnd, fixtureAfterRun: mem.fixtureRss, ...rss },
      profiles: profiles.map((p) => ({ kind: p.kind, file: path.relative(REPO, p.file), busyMs: p.summary.busyMs, areas: p.summary.areas.slice(0, 10) })),
      loadavg: load,
    }),
  );
}

await main();
