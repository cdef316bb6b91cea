/**
 * `npm run bench:many-clients` (issue #41 goal 4, "many clients"): BENCH_CLIENTS (default 16)
 * client processes plan the same table at the same moment, once each planning it themselves
 * against the catalog (client-side) and once planning server-side through a fresh Icefront; what
 * is counted is every storage request anyone made, and the time of the slowest client.
 *
 * The setting is bench/storage-latency.ts's: the bench table (BENCH_MANY_MANIFESTS (100) manifests
 * × BENCH_MANY_ENTRIES (1,000) files, 20 columns, metadata only, bench/synthetic-table.ts) lies on
 * S3 (moto, the interop suite's), registered in the Iceberg REST fixture; Toxiproxy adds
 * BENCH_LATENCY_MS (default 20) each way (a latency toxic on both streams) between moto and every
 * reader of manifests. In front of Toxiproxy sits a counting forwarder
 * (bench/many-clients-s3-counter.ts), one listener per role, each role's readers given its
 * listener as their `s3.endpoint` (they sign for its host:port; moto checks no signature):
 *   - `pyiceberg`, `iceberg-go`: the clients' own FileIOs → counter → Toxiproxy → moto;
 *   - `icefront`: Icefront's `storage.s3` → counter → Toxiproxy → moto;
 *   - `fixture`: the REST fixture's S3FileIO (metadata.json read at every load-table it
 *     answers, the clients' and, through Icefront, Icefront's own) → counter → moto directly,
 *     without the latency (as in storage-latency.ts, where the fixture reads moto directly).
 * Every GET and HEAD by anyone is counted, by role and by kind of key (metadata.json, manifest
 * list, manifest, other). The goal compares GETs, every role's (the fixture's metadata.json reads
 * included, in both scenarios); pyiceberg's PyArrow FileIO also sends a HEAD before each file's
 * GET, which would only enlarge the client-side side, so those ratios (GET + HEAD, and the manifest
 * readers' GETs without the fixture's) are printed beside the goal, not as it.
 *
 * The clients: ceil(N/2) pyiceberg 0.12 processes (bench/many-clients-pyiceberg.py) and floor(N/2)
 * iceberg-go v0.7.0 processes (bench/many-clients-go: the interop suite's iceberg-go, plus its S3
 * FileIO, io/gocloud/s3; built here into ~/.cache/icefront/many-clients-go/<hash>/). Each starts,
 * imports what it needs, makes its REST catalog (GET /v1/config), prints READY and waits; when
 * all are ready, the counter is reset and one line is written to every client's stdin at once
 * (the start barrier). Each then loads the table and plans it, counting the distinct data files
 * planned; its time is from the release (this process's clock, before the first write) to its
 * last planned file (the client's clock: same machine, epoch milliseconds). Every client must
 * plan every file (BENCH_MANY_MANIFESTS × BENCH_MANY_ENTRIES; the filtered variant: the files
 * whose c4 bounds can hold a value < 1000), or the bench stops.
 *
 * iceberg-go 0.7.0 plans server-side (table.ScanPlanningRemote: POST …/plan, GET …/plan/{id},
 * POST …/tasks, GOMAXPROCS at once) as pyiceberg does (scan-planning-mode=server: /plan, then
 * every /tasks one at a time), so both kinds of clients take the same part in both scenarios:
 *   a) client-side: every client against the fixture with planning `client` (pyiceberg's
 *      scan-planning-mode=client, iceberg-go's ScanPlanningLocal): each reads the manifest list
 *      and every manifest itself;
 *   b) through Icefront: a fresh Icefront child (bench/peer-icefront.ts; `rest` in front of the
 *      fixture, `planning: local`, `storage.s3` through the counter) started for the scenario,
 *      and every client planning server-side through it at once, so what is measured is its
 *      first plan of the table with N plans of it asked at the same moment (the manifest reads
 *      of concurrent plans shared, or not).
 * With BENCH_MANY_FILTERED=1 both run again with the row filter `c4 < 1000` (1% of the files by
 * column metrics, which prune no manifest), the Icefront one again fresh.
 *
 * BENCH_RUNS (default 1) rounds, each client-side then through Icefront. Printed per scenario and
 * round: each kind of client's times (fastest, median, slowest; load_table and plan alone, the
 * median), their peak RSS, and the storage requests by role and kind; then, over the rounds'
 * medians, the goals of #41 that this measures, and a final JSON line. Memory: every client's
 * peak RSS (getrusage) and the lowest MemAvailable seen (/proc/meminfo, every 250 ms) are
 * reported; the bench stops before a scenario when MemAvailable is below BENCH_MANY_MIN_FREE_MB
 * (default 3000), and kills the clients and stops when it falls below BENCH_MANY_ABORT_FREE_MB
 * (default 1000) during one. At the defaults (16 clients, 100,000 files) on 2 cores and 24 GiB,
 * one run: client-side, each pyiceberg peaked at 0.9 GB and each iceberg-go at 1.0–1.1 GB (16.2 GB
 * in all; MemAvailable fell to 11.3 GB), through Icefront 0.23 and 0.4 GB (Icefront 0.8 GB): 16
 * clients fit, so none was left out. With 16 planning processes on 2 cores, the client-side times
 * are mostly CPU (each client decodes all 100 manifests), not storage latency. Needs the interop
 * toolchain, Go and Toxiproxy (installed by their scripts on first use).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { startMoto } from '../test/interop/harness/moto.js';
import { stopProcess, Tail } from '../test/interop/harness/processes.js';
import { startRestFixture } from '../test/interop/harness/rest-fixture.js';
import { keyKind, startS3Counter, total, type S3Counts } from './many-clients-s3-counter.js';
import { median } from './median.js';
import { registerTable } from './peer-fixture.js';
import { toolchainAndToxiproxy } from './toolchain-toxiproxy.js';
import { startIcefrontChild } from './peer-icefront.js';
import { procMemory } from './proc-memory.js';
import { uploadFolder } from './s3-upload.js';
import { currentMetadataFile, ensureSyntheticTable } from './synthetic-table.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 1);
const CLIENTS = Number(process.env['BENCH_CLIENTS'] ?? 16);
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 20);
const MANIFESTS = Number(process.env['BENCH_MANY_MANIFESTS'] ?? 100);
const ENTRIES = Number(process.env['BENCH_MANY_ENTRIES'] ?? 1000);
const FILTERED = process.env['BENCH_MANY_FILTERED'] === '1';
const MIN_FREE_MB = Number(process.env['BENCH_MANY_MIN_FREE_MB'] ?? 3000);
const ABORT_FREE_MB = Number(process.env['BENCH_MANY_ABORT_FREE_MB'] ?? 1000);
const FILES = MANIFESTS * ENTRIES;
const FILTER = 'c4 < 1000';
// the same filter as REST JSON, for iceberg-go's parser (iceberg.ParseExpr)
const FILTER_JSON = { type: 'lt', term: 'c4', value: 1000 };
/**
 * Files `c4 < 1000` keeps: c4 (column index 3, a long) of file n has bounds [k·100, k·100 + 99]
 * with k = (31n + 51) mod 1000 (tools/iceberg-writer/synthetic.ts, `variant` and `range`), so a
 * file may hold a value below 1000 when k < 10.
 */
const FILTERED_FILES = Array.from({ length: FILES }, (_, n) => (n * 31 + 3 * 17) % 1000 < 10).filter(Boolean).length;
const PY = Math.ceil(CLIENTS / 2);
const GO = CLIENTS - PY;

type Kind = 'pyiceberg' | 'iceberg-go';
type Arm = 'client' | 'icefront';
interface Scenario {
  readonly key: string;
  readonly arm: Arm;
  readonly filter?: string;
  readonly label: string;
}
const SCENARIOS: Scenario[] = [
  { key: 'clientSide', arm: 'client', label: 'client-side, against the fixture' },
  { key: 'icefront', arm: 'icefront', label: 'server-side through a fresh Icefront' },
  ...(FILTERED
    ? [
        { key: 'clientSideFiltered', arm: 'client' as const, filter: FILTER, label: `client-side, ${FILTER}` },
        { key: 'icefrontFiltered', arm: 'icefront' as const, filter: FILTER, label: `through a fresh Icefront, ${FILTER}` },
      ]
    : []),
];

interface ClientResult {
  readonly files: number;
  readonly startEpochMs: number;
  readonly endEpochMs: number;
  readonly loadMs: number;
  readonly planMs: number;
  readonly maxRssKB: number;
}
interface ClientRun extends ClientResult {
  readonly kind: Kind;
  /** From the release to its last planned file. */
  readonly ms: number;
  /** From the release to its passing the barrier. */
  readonly lagMs: number;
}
interface ScenarioRun {
  readonly clients: ClientRun[];
  readonly counts: S3Counts;
  /** GET + HEAD, every role. */
  readonly reads: number;
  readonly gets: number;
  readonly slowestMs: number;
  readonly minAvailableMB: number;
  readonly icefrontPeakMB?: number;
  /** Icefront's answers to the clients' POST …/plan and …/tasks. */
  readonly icefrontAnswered?: { plan: number; tasks: number };
}

const closers: (() => Promise<void>)[] = [];
const closeAll = async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
};

/** bench/many-clients-go built into the user's cache, keyed by its sources (as tools/interop/iceberg-go.sh does). */
function ensureGoClient(): string {
  const src = path.resolve(import.meta.dirname, 'many-clients-go');
  const hash = crypto.createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) hash.update(fs.readFileSync(path.join(src, f)));
  const root = path.join(process.env['XDG_CACHE_HOME'] ?? path.join(os.homedir(), '.cache'), 'icefront', 'many-clients-go', hash.digest('hex').slice(0, 16));
  const bin = path.join(root, 'many-clients-go');
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(root, { recursive: true });
  const tmp = `${bin}.${process.pid}.tmp`;
  try {
    execFileSync('go', ['build', '-trimpath', '-buildvcs=false', '-mod=readonly', '-o', tmp, '.'], { cwd: src, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`go build of bench/many-clients-go failed (Go 1.25.9 or newer on PATH?): ${err.stderr?.slice(-3000) ?? err.message}`);
  }
  fs.renameSync(tmp, bin);
  console.error(`built ${bin}`);
  return bin;
}

interface Client {
  readonly kind: Kind;
  readonly ready: Promise<void>;
  readonly result: Promise<ClientResult>;
  release(): void;
  /** SIGKILL, at once. */
  kill(): void;
  close(): Promise<void>;
}

function startClient(kind: Kind, command: string, args: string[], env: NodeJS.ProcessEnv): Client {
  const child: ChildProcess = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const err = new Tail(8000);
  child.stderr!.on('data', (c: Buffer) => err.push(c));
  let onReady: () => void = () => undefined;
  let onResult: (r: ClientResult) => void = () => undefined;
  let onFail: (e: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    onFail = reject;
  });
  const result = new Promise<ClientResult>((resolve, reject) => {
    onResult = resolve;
    const failReady = onFail;
    onFail = (e) => {
      failReady(e);
      reject(e);
    };
  });
  // both are awaited later; a failure before then must not count as unhandled
  ready.catch(() => undefined);
  result.catch(() => undefined);
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'READY') return onReady();
    let reply: { ok: boolean; error?: string; traceback?: string } & ClientResult;
    try {
      reply = JSON.parse(line) as typeof reply;
    } catch {
      return; // not the reply (a library writing to stdout)
    }
    if (reply.ok) onResult(reply);
    else onFail(new Error(`${kind} client failed: ${reply.error}\n${reply.traceback ?? ''}\n${err.toString().slice(-2000)}`));
  });
  child.once('exit', (code, signal) => onFail(new Error(`${kind} client exited (${code ?? signal}) without an answer\n${err.toString().slice(-3000)}`)));
  child.once('error', (e) => onFail(e));
  return {
    kind,
    ready,
    result,
    release: () => void child.stdin!.write('\n'),
    kill: () => void child.kill('SIGKILL'),
    close: async () => {
      child.stdin!.end();
      await stopProcess(child, 5000);
    },
  };
}

function memAvailableMB(): number {
  const m = /^MemAvailable:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const reads = (counts: S3Counts, roles?: readonly string[]) => total(counts, (k) => k.startsWith('GET ') || k.startsWith('HEAD '), roles);
const getsOnly = (counts: S3Counts, roles?: readonly string[]) => total(counts, (k) => k.startsWith('GET '), roles);

try {
  const { env, toxiproxy } = await toolchainAndToxiproxy();
  closers.push(toxiproxy.close);
  const goClient = GO > 0 ? ensureGoClient() : '';

  const table = ensureSyntheticTable({ manifests: MANIFESTS, entriesPerManifest: ENTRIES, columns: 20, scheme: 's3' });
  const moto = await startMoto(env, ['bench']);
  closers.push(moto.close);
  await uploadFolder(env, moto, 'bench', `warehouse/bench/${table.name}/metadata`, path.join(table.root, 'metadata'));
  const proxy = await toxiproxy.proxy('moto', new URL(moto.endpoint).host);
  for (const stream of ['downstream', 'upstream'] as const)
    await proxy.addToxic({ name: `latency-${stream}`, type: 'latency', stream, attributes: { latency: LATENCY_MS, jitter: 0 } });
  const counter = await startS3Counter({ pyiceberg: proxy.url, 'iceberg-go': proxy.url, icefront: proxy.url, fixture: moto.endpoint });
  closers.push(counter.close);
  const fixture = await startRestFixture(env, {
    s3: { warehouse: 's3://bench/warehouse', endpoint: counter.url('fixture'), region: moto.region, accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey },
  });
  closers.push(() => fixture.close());
  await registerTable(fixture.url, 'bench', table.name, `${table.location}/metadata/${path.basename(currentMetadataFile(table.root))}`);
  const t = `bench.${table.name}`;
  const s3For = (role: Kind) => ({ 's3.endpoint': counter.url(role), 's3.path-style-access': 'true', 's3.region': moto.region, 's3.access-key-id': moto.accessKeyId, 's3.secret-access-key': moto.secretAccessKey });
  const manifestFiles = fs.readdirSync(path.join(table.root, 'metadata')).filter((f) => keyKind(`/${f}`) === 'manifest').length;

  const runScenario = async (s: Scenario): Promise<ScenarioRun> => {
    const available = memAvailableMB();
    if (available < MIN_FREE_MB) throw new Error(`${s.label}: only ${available.toFixed(0)} MB available (BENCH_MANY_MIN_FREE_MB ${MIN_FREE_MB}): not starting ${CLIENTS} clients`);
    const ice =
      s.arm === 'icefront'
        ? await startIcefrontChild(
            `logging: { level: warn }\ncatalogs:\n  fx:\n    type: rest\n    uri: ${JSON.stringify(fixture.url)}\n    planning: local\n` +
              `    storage: { s3: { endpoint: ${JSON.stringify(counter.url('icefront'))}, region: ${moto.region}, path-style: true, access-key-id: ${moto.accessKeyId}, secret-access-key: ${moto.secretAccessKey} } }\n`,
          )
        : undefined;
    const clients: Client[] = [];
    let sampler: NodeJS.Timeout | undefined;
    try {
      const uri = ice ? ice.url : fixture.url;
      const warehouse = ice ? 'fx' : undefined;
      const planning = s.arm === 'client' ? 'client' : 'server';
      for (let i = 0; i < CLIENTS; i++) {
        // alternating, so ceil(N/2) pyiceberg and floor(N/2) iceberg-go, started interleaved
        const kind: Kind = i % 2 === 0 ? 'pyiceberg' : 'iceberg-go';
        const job = { uri, warehouse, table: t, planning, properties: s3For(kind) };
        clients.push(
          kind === 'pyiceberg'
            ? startClient(kind, env.python, [path.resolve(import.meta.dirname, 'many-clients-pyiceberg.py'), JSON.stringify({ ...job, filter: s.filter })], { PYTHONUNBUFFERED: '1' })
            : startClient(kind, goClient, [JSON.stringify({ ...job, filter: s.filter ? FILTER_JSON : undefined })], {}),
        );
      }
      await Promise.all(clients.map((c) => c.ready));
      // let the imports' and the catalogs' work settle before the release
      await new Promise((r) => setTimeout(r, 1000));
      let minAvailable = memAvailableMB();
      let starved = false;
      sampler = setInterval(() => {
        minAvailable = Math.min(minAvailable, memAvailableMB());
        // rather than leave the kernel to pick what to kill on a shared machine
        if (minAvailable < ABORT_FREE_MB && !starved) {
          starved = true;
          for (const c of clients) c.kill();
        }
      }, 250);
      counter.reset();
      const releaseEpochMs = performance.timeOrigin + performance.now();
      for (const c of clients) c.release();
      const results = await Promise.all(clients.map((c) => c.result)).catch((e: unknown) => {
        if (starved) throw new Error(`${s.label}: MemAvailable fell below ${ABORT_FREE_MB} MB (BENCH_MANY_ABORT_FREE_MB): the clients were killed; fewer clients (BENCH_CLIENTS) fit`);
        throw e;
      });
      clearInterval(sampler);
      minAvailable = Math.min(minAvailable, memAvailableMB());
      const expected = s.filter ? FILTERED_FILES : FILES;
      const runs: ClientRun[] = results.map((r, i) => {
        if (r.files !== expected) throw new Error(`${s.label}: a ${clients[i]!.kind} client planned ${r.files} files, not ${expected}`);
        return { ...r, kind: clients[i]!.kind, ms: r.endEpochMs - releaseEpochMs, lagMs: r.startEpochMs - releaseEpochMs };
      });
      const failures = counter.failures();
      if (Object.keys(failures).length) throw new Error(`${s.label}: the counter could not forward some requests: ${JSON.stringify(failures)}`);
      const counts = counter.counts();
      return {
        clients: runs,
        counts,
        reads: reads(counts),
        gets: getsOnly(counts),
        slowestMs: Math.max(...runs.map((r) => r.ms)),
        minAvailableMB: minAvailable,
        ...(ice && { icefrontPeakMB: procMemory(ice.pid).peakMB, icefrontAnswered: { plan: ice.count('/plan'), tasks: ice.count('/tasks') } }),
      };
    } finally {
      if (sampler) clearInterval(sampler);
      await Promise.all(clients.map((c) => c.close()));
      await ice?.close();
    }
  };

  console.log(
    `many-clients: ${CLIENTS} clients (${PY} pyiceberg, ${GO} iceberg-go) planning ${t} (${MANIFESTS} manifests × ${ENTRIES} files) at once; ` +
      `the table on moto behind Toxiproxy, +${LATENCY_MS} ms each way; ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; ${RUNS} round(s)`,
  );
  const results = new Map<string, ScenarioRun[]>(SCENARIOS.map((s) => [s.key, []]));
  const fmt = (n: number) => n.toFixed(0).padStart(7);
  for (let round = 1; round <= RUNS; round++) {
    console.log(`\nround ${round}`);
    for (const s of SCENARIOS) {
      const r = await runScenario(s);
      results.get(s.key)!.push(r);
      console.log(`  ${s.label}: slowest ${r.slowestMs.toFixed(0)} ms; storage GETs ${r.gets} (+ ${r.reads - r.gets} HEADs); lowest MemAvailable ${r.minAvailableMB.toFixed(0)} MB${r.icefrontPeakMB !== undefined ? `; Icefront peak RSS ${r.icefrontPeakMB.toFixed(0)} MB, answered ${r.icefrontAnswered!.plan} /plan and ${r.icefrontAnswered!.tasks} /tasks` : ''}`);
      console.log(`    ${'client'.padEnd(11)} ${'n'.padStart(3)} ${'fastest'.padStart(7)} ${'median'.padStart(7)} ${'slowest'.padStart(7)}   ${'load'.padStart(6)} ${'plan'.padStart(7)} ${'lag'.padStart(5)}  peak RSS (MB, max)`);
      for (const kind of ['pyiceberg', 'iceberg-go'] as const) {
        const cs = r.clients.filter((c) => c.kind === kind);
        if (!cs.length) continue;
        const ms = cs.map((c) => c.ms);
        console.log(
          `    ${kind.padEnd(11)} ${String(cs.length).padStart(3)} ${fmt(Math.min(...ms))} ${fmt(median(ms))} ${fmt(Math.max(...ms))}   ${median(cs.map((c) => c.loadMs)).toFixed(0).padStart(6)} ${fmt(median(cs.map((c) => c.planMs)))} ${Math.max(...cs.map((c) => c.lagMs)).toFixed(0).padStart(5)}  ${(Math.max(...cs.map((c) => c.maxRssKB)) / 1024).toFixed(0)}`,
        );
      }
      console.log(`    storage requests by role (${manifestFiles} manifests in the table):`);
      for (const [role, byKey] of Object.entries(r.counts).sort()) {
        console.log(`      ${role.padEnd(11)} ${Object.entries(byKey).sort().map(([k, v]) => `${k} ${v}`).join(', ')}`);
      }
    }
  }

  const m = (key: string, f: (r: ScenarioRun) => number) => median(results.get(key)!.map(f));
  console.log(`\n${RUNS > 1 ? `medians of ${RUNS} rounds` : 'one round'}:`);
  console.log(`  ${'scenario'.padEnd(48)} ${'slowest'.padStart(8)} ${'median'.padStart(8)} ${'GETs'.padStart(7)} ${'HEADs'.padStart(7)}  manifest GETs`);
  for (const s of SCENARIOS) {
    console.log(
      `  ${s.label.padEnd(48)} ${m(s.key, (r) => r.slowestMs).toFixed(0).padStart(8)} ${m(s.key, (r) => median(r.clients.map((c) => c.ms))).toFixed(0).padStart(8)} ${m(s.key, (r) => r.gets).toFixed(0).padStart(7)} ${m(s.key, (r) => r.reads - r.gets).toFixed(0).padStart(7)}  ${m(s.key, (r) => total(r.counts, (k) => k === 'GET manifest')).toFixed(0)}`,
    );
  }
  const goal = (name: string, over: string, under: string, f: (r: ScenarioRun) => number, bound: number) => {
    const value = m(over, f);
    const base = m(under, f);
    const ratio = value / base;
    return { name, value, base, ratio, bound, met: ratio <= bound };
  };
  const goals = [
    goal('storage GETs through Icefront ÷ client-side (goal 4: ≤ 0.1)', 'icefront', 'clientSide', (r) => r.gets, 0.1),
    goal('slowest client through Icefront ÷ slowest client-side (goal 4: ≤ 1.0)', 'icefront', 'clientSide', (r) => r.slowestMs, 1.0),
    ...(FILTERED
      ? [
          goal(`storage GETs through Icefront ÷ client-side, ${FILTER}`, 'icefrontFiltered', 'clientSideFiltered', (r) => r.gets, 0.1),
          goal(`slowest client through Icefront ÷ slowest client-side, ${FILTER}`, 'icefrontFiltered', 'clientSideFiltered', (r) => r.slowestMs, 1.0),
        ]
      : []),
  ];
  // the same ratio counted other ways, for the reader (not goals): HEADs too; the manifest readers alone
  const readers = ['pyiceberg', 'iceberg-go', 'icefront'];
  const also = [
    goal('storage reads (GET + HEAD) through Icefront ÷ client-side', 'icefront', 'clientSide', (r) => r.reads, 0.1),
    goal("storage GETs by the manifest readers (the fixture's left out) through Icefront ÷ client-side", 'icefront', 'clientSide', (r) => getsOnly(r.counts, readers), 0.1),
  ];
  console.log(`\ngoals (issue #41), ${CLIENTS} clients (${PY} pyiceberg, ${GO} iceberg-go); storage GETs = every GET by anyone (clients, Icefront, the fixture's metadata.json reads):`);
  for (const g of goals) console.log(`  ${g.name}: ${g.value.toFixed(0)} ÷ ${g.base.toFixed(0)} = ${g.ratio.toFixed(4)} (${g.met ? 'met' : 'NOT met'})`);
  console.log('counted otherwise (not goals):');
  for (const g of also) console.log(`  ${g.name}: ${g.value.toFixed(0)} ÷ ${g.base.toFixed(0)} = ${g.ratio.toFixed(4)}`);
  const scenarios = Object.fromEntries(
    SCENARIOS.map((s) => [
      s.key,
      results.get(s.key)!.map((r) => ({
        slowestMs: r.slowestMs,
        medianMs: median(r.clients.map((c) => c.ms)),
        byKind: Object.fromEntries(
          (['pyiceberg', 'iceberg-go'] as const).map((k) => {
            const cs = r.clients.filter((c) => c.kind === k);
            return [k, { ms: cs.map((c) => Math.round(c.ms)), loadMs: cs.map((c) => Math.round(c.loadMs)), planMs: cs.map((c) => Math.round(c.planMs)), maxRssMB: cs.map((c) => Math.round(c.maxRssKB / 1024)) }];
          }),
        ),
        reads: r.reads,
        gets: r.gets,
        counts: r.counts,
        minAvailableMB: Math.round(r.minAvailableMB),
        ...(r.icefrontPeakMB !== undefined && { icefrontPeakMB: Math.round(r.icefrontPeakMB), icefrontAnswered: r.icefrontAnswered }),
      })),
    ]),
  );
  console.log(
    JSON.stringify({
      bench: 'many-clients',
      clients: CLIENTS,
      pyiceberg: PY,
      icebergGo: GO,
      manifests: MANIFESTS,
      entriesPerManifest: ENTRIES,
      files: FILES,
      latencyMs: LATENCY_MS,
      runs: RUNS,
      cpus: os.cpus().length,
      loadavg: os.loadavg(),
      scenarios,
      alsoCounted: also.map(({ name, value, base, ratio }) => ({ name, value, base, ratio })),
      goals,
    }),
  );
} catch (err) {
  console.error(`many-clients: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
} finally {
  await closeAll();
}
