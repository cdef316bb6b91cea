/**
 * `npm run bench:peer`: server-side planning as users would measure it (issues #9 and #31), all
 * in one run, on one table: 100 manifests × 1,000 data files (100,000 files, 20 columns with
 * stats), metadata-only (bench/synthetic-table.ts, written once under bench/.work/ and reused).
 *
 * 1. The protocol, `POST …/plan` and every `/tasks` (bench/peer-protocol.ts), walked as the
 *    clients walk it: as Iceberg Java does (4 fetchers at once) and as pyiceberg does (one at a
 *    time). For each walk, fresh servers over the table with `file://` locations:
 *    - the Iceberg REST fixture (RESTCatalogServer 1.11.0, JVM options BENCH_PEER_JVM_OPTS,
 *      default none) planning it itself: synchronous, 100 tasks inline, then a chain of plan
 *      tasks of 100 each (so its walk is one request at a time whatever the fetchers);
 *    - Icefront `type: rest` in front of the fixture with `planning: local` (tables loaded
 *      through the fixture, manifests read by Icefront from `storage.local.roots`);
 *    - Icefront `type: filesystem` over the same folder (no upstream at all).
 *    Both Icefronts run with the default page bound, each in its own node + tsx process
 *    (bench/peer-icefront-child.ts, the YAML config loaded as `icefront serve` does).
 *    Cold: a fresh process's first plan of the table, compression asked for as both clients do;
 *    while it runs, another process polls the Icefront's `/healthz` every 5 ms (the longest wait
 *    is the stall goal). Warm: the median of BENCH_RUNS (default 3) rounds, with and without
 *    compression, servers taken in turn. Every answer must list the same 100,000 file paths as
 *    the fixture's (count, duplicates and set equality; a mismatch stops the bench), and no
 *    Icefront answer may exceed its max-response-bytes. Memory: RSS before the first request,
 *    the peak (VmHWM, reset through clear_refs) and RSS at the end.
 * 2. Spark's planning time for the same full scan (bench/peer_spark.py: pyspark +
 *    iceberg-spark-runtime 1.11, local[1], --driver-memory BENCH_PEER_SPARK_DRIVER_MEMORY, default
 *    4g), in one Spark JVM, one warm-up per catalog, then the median of BENCH_PEER_SPARK_RUNS
 *    (default 5: its server-planned runs vary by seconds) rounds, each after a full GC in Spark's
 *    JVM (untimed: a server-planned scan leaves hundreds of MB of garbage that the next run would
 *    otherwise pay for); timed:
 *    spark.table through executedPlan().execute().getNumPartitions()
 *    (Iceberg plans the scan's file tasks in optimizedPlan(), when Spark asks the scan for its
 *    partitioning), reading no data:
 *    - local files: client-side planning against the fixture (manifests read in Spark's JVM),
 *      server-side by the fixture, and server-side through Icefront (`rest`, `planning: local`);
 *    - the table on S3 (moto, as the interop suite runs it; the same table with `s3://`
 *      locations, its metadata uploaded, the fixture on an S3FileIO warehouse): client-side
 *      planning against the fixture (every manifest fetched from S3 by Spark), and server-side
 *      through Icefront (`rest`, `planning: local`, `storage.s3`), after one protocol walk of it
 *      (Icefront's cache warm, the goal's condition; that walk's time is printed too).
 *    Checked, or the bench stops: the warm-up through each Icefront runs one step at a time with
 *    its request log read after each (exactly one /plan and every plan task's /tasks, in one
 *    step); every timed run through Icefront sends them again; every run gives the same number of
 *    input partitions; each warm-up counts 100,000 file tasks in them. Icefront's response times
 *    for a run's requests (from its request log) are printed beside Spark's time, to show whose
 *    time the rest is.
 *
 * Output: tables, the goals of issue #31 each with its ratio, the load average, and a final JSON
 * line. Needs the interop toolchain (`bash tools/interop/setup.sh`; `npm run bench:peer` runs
 * it, a no-op once installed). `npm run bench` ends with `bench/peer.ts --if-available`: it only
 * reads .interop/env.json and prints "peer: skipped: …" when the toolchain is absent or
 * ICEFRONT_INTEROP=off / BENCH_PEER=off. BENCH_PEER_SPARK=off skips part 2.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureToolchain, REPO, type InteropEnv } from '../test/interop/harness/toolchain.js';
import { startMoto } from '../test/interop/harness/moto.js';
import { startRestFixture, type RestFixture, type S3Warehouse } from '../test/interop/harness/rest-fixture.js';
import { jvmSettings, registerTable } from './peer-fixture.js';
import { startIcefrontChild, type IcefrontChild } from './peer-icefront.js';
import { checkPlannedFiles } from './planned-files.js';
import { runProtocol, type ProtocolRun, type Walk } from './peer-protocol.js';
import { startSparkPlanner, type SparkCatalog, type SparkPlanning } from './peer-spark.js';
import { procMemory, resetPeak, type ProcMemory } from './proc-memory.js';
import { median } from './median.js';
import { uploadFolder } from './s3-upload.js';
import { currentMetadataFile, ensureSyntheticTable, type SyntheticTableRef } from './synthetic-table.js';
import { DEFAULTS } from '../src/config/index.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const SPARK_RUNS = Number(process.env['BENCH_PEER_SPARK_RUNS'] ?? 5);
const JVM_OPTS = (process.env['BENCH_PEER_JVM_OPTS'] ?? '').split(/\s+/).filter(Boolean);
const SPARK_DRIVER_MEMORY = process.env['BENCH_PEER_SPARK_DRIVER_MEMORY'] ?? '4g';
const MANIFESTS = 100;
const ENTRIES = 1000;
const FILES = MANIFESTS * ENTRIES;
const WALKS: readonly { readonly walk: Walk; readonly label: string }[] = [
  { walk: 'java', label: 'as Iceberg Java walks it (4 fetchers)' },
  { walk: 'pyiceberg', label: 'as pyiceberg walks it (one at a time)' },
];
/** Seconds the /healthz poll runs beside a cold walk (longer than any cold walk here). */
const PROBE_SECONDS = 10;
if (!(RUNS >= 1) || !(SPARK_RUNS >= 1)) throw new Error('BENCH_RUNS and BENCH_PEER_SPARK_RUNS must be at least 1');

const load: { phase: string; loadavg: number[] }[] = [];
const settle = () => new Promise((r) => setTimeout(r, 300));

interface Target {
  readonly key: 'fixture' | 'icefrontRest' | 'icefrontFilesystem';
  readonly label: string;
  readonly url: string;
  readonly pid: number;
  /** Warm runs, compression asked for and not. */
  readonly runs: { gzip: ProtocolRun[]; plain: ProtocolRun[] };
  /** Icefront's /healthz, polled during its cold walk. */
  readonly healthz?: string;
  idle?: ProcMemory;
  cold?: ProtocolRun;
  /** The longest a /healthz poll waited during the cold walk, ms. */
  coldWorstPollMs?: number;
  coldPeak?: ProcMemory;
  end?: ProcMemory;
  peakResets?: boolean;
}

interface WalkResult {
  readonly walk: Walk;
  readonly label: string;
  readonly targets: Target[];
}

async function main(env: InteropEnv): Promise<void> {
  load.push({ phase: 'start', loadavg: os.loadavg() });
  const table = ensureSyntheticTable({ manifests: MANIFESTS, entriesPerManifest: ENTRIES, columns: 20, scheme: 'file' });
  console.log(`peer: table bench.${table.name}, ${FILES.toLocaleString('en')} data files in ${MANIFESTS} manifests, ${table.written ? 'written now' : 'reused'} (${path.relative(REPO, table.root)})`);
  const jvm = jvmSettings(JVM_OPTS);

  // 1. The protocol, each walk on fresh servers (its cold run is each server's first plan).
  const walks: WalkResult[] = [];
  let truth: Set<string> | undefined;
  for (const w of WALKS) {
    const servers = await startServers(env, table);
    try {
      const targets = servers.targets;
      for (const t of targets) {
        t.idle = procMemory(t.pid);
        t.peakResets = resetPeak(t.pid);
        const probe = t.healthz ? pollHealthz(t.healthz) : undefined;
        if (probe) await new Promise((r) => setTimeout(r, 1500)); // the poll's process is up and polling
        t.cold = await runProtocol(t.url, { walk: w.walk, gzip: true });
        if (probe) t.coldWorstPollMs = await probe;
        truth ??= checkFiles(t.label, t.cold, undefined);
        checkFiles(t.label, t.cold, truth);
        if (t.key !== 'fixture') checkBound(t.label, t.cold);
        t.coldPeak = procMemory(t.pid);
      }
      for (const t of targets) resetPeak(t.pid);
      for (let r = 0; r < RUNS; r++) {
        for (const t of targets) {
          for (const gzip of [true, false]) {
            const run = await runProtocol(t.url, { walk: w.walk, gzip });
            checkFiles(t.label, run, truth);
            if (t.key !== 'fixture') checkBound(t.label, run);
            (gzip ? t.runs.gzip : t.runs.plain).push(run);
          }
        }
      }
      for (const t of targets) t.end = procMemory(t.pid);
      walks.push({ ...w, targets });
      reportProtocol(walks.at(-1)!, servers.restIce.heapLimitMB);
    } finally {
      await servers.close();
    }
    load.push({ phase: `after the ${w.walk} walk`, loadavg: os.loadavg() });
  }
  console.log(`  fixture JVM: ${jvm}`);

  // 2. Spark's planning time, local files and then the table on S3.
  const spark = process.env['BENCH_PEER_SPARK'] === 'off' ? undefined : await sparkPlanning(env, table);
  load.push({ phase: 'end', loadavg: os.loadavg() });
  if (spark) reportSpark(spark);
  reportGoals(walks, spark);
  reportJson(walks, spark, jvm);
}

/** The fixture with the table registered, and both Icefronts: fresh processes. */
async function startServers(env: InteropEnv, table: SyntheticTableRef): Promise<{ targets: Target[]; restIce: IcefrontChild; fixture: RestFixture; close(): Promise<void> }> {
  const metadataLocation = `${table.location}/metadata/${path.basename(currentMetadataFile(table.root))}`;
  const fixture = await startRestFixture(env, { jvmOptions: JVM_OPTS });
  const children: IcefrontChild[] = [];
  const close = async () => {
    for (const c of children) await c.close();
    await fixture.close();
  };
  try {
    await registerTable(fixture.url, 'bench', table.name, metadataLocation);
    const restIce = await startIcefrontChild(
      `logging: { level: warn }\ncatalogs:\n  fxlocal:\n    type: rest\n    uri: ${JSON.stringify(fixture.url)}\n    planning: local\n    storage: { local: { roots: [${JSON.stringify(table.warehouse)}] } }\n`,
    );
    children.push(restIce);
    const fsIce = await startIcefrontChild(`logging: { level: warn }\ncatalogs:\n  fxfs: { type: filesystem, warehouse: ${JSON.stringify(table.warehouse)} }\n`);
    children.push(fsIce);
    const tablePath = `namespaces/bench/tables/${table.name}`;
    const runs = () => ({ gzip: [], plain: [] });
    const targets: Target[] = [
      { key: 'fixture', label: 'fixture (Java) plans', url: `${fixture.url}/v1/${tablePath}`, pid: fixture.pid, runs: runs() },
      { key: 'icefrontRest', label: 'Icefront rest, planning: local', url: `${restIce.url}/v1/fxlocal/${tablePath}`, pid: restIce.pid, runs: runs(), healthz: `${restIce.url}/healthz` },
      { key: 'icefrontFilesystem', label: 'Icefront filesystem catalog', url: `${fsIce.url}/v1/fxfs/${tablePath}`, pid: fsIce.pid, runs: runs(), healthz: `${fsIce.url}/healthz` },
    ];
    return { targets, restIce, fixture, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** bench/stall-probe.ts in its own process: `/healthz` every 5 ms for PROBE_SECONDS; the longest wait, ms. */
async function pollHealthz(url: string): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'stall-probe.ts'), url, String(PROBE_SECONDS)], { maxBuffer: 64 << 20 });
  const samples = JSON.parse(stdout) as [number, number][];
  return Math.max(...samples.map(([, ms]) => ms));
}

/** The toolchain, or undefined after printing why the bench is skipped. */
async function toolchain(ifAvailable: boolean): Promise<InteropEnv | undefined> {
  if (process.env['BENCH_PEER'] === 'off' || process.env['ICEFRONT_INTEROP'] === 'off') {
    console.log('peer: skipped: BENCH_PEER=off or ICEFRONT_INTEROP=off');
    return undefined;
  }
  if (ifAvailable) {
    const file = path.join(REPO, '.interop/env.json');
    const installed = fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, 'utf8')) as InteropEnv);
    if (!installed || !fs.existsSync(installed.python) || !fs.existsSync(installed.sparkJar)) {
      console.log('peer: skipped: interop toolchain not installed (bash tools/interop/setup.sh, then npm run bench:peer)');
      return undefined;
    }
  }
  const tc = await ensureToolchain();
  if (tc.ok) {
    // setup.sh's last line: "reused .interop …" or "installed in N s …"
    console.log(`peer: ${tc.setupOutput.split('\n').pop()}`);
    return tc.env;
  }
  console.error(`peer: cannot run: interop toolchain missing: ${tc.missing}`);
  process.exit(1);
}

/** Every file exactly once and, given `truth`, exactly its set (bench/planned-files.ts). */
function checkFiles(label: string, run: ProtocolRun, truth: Set<string> | undefined): Set<string> {
  return checkPlannedFiles(`peer: ${label}`, run, FILES, truth);
}

/** Icefront's answers stay within the default max-response-bytes. */
function checkBound(label: string, run: ProtocolRun): void {
  if (run.largestJson > DEFAULTS.maxResponseBytes) throw new Error(`peer: ${label} answered ${run.largestJson} bytes of JSON, over max-response-bytes ${DEFAULTS.maxResponseBytes}`);
}

interface SparkRow {
  readonly key: string;
  readonly label: string;
  readonly catalog: SparkCatalog;
  readonly warmup: SparkPlanning;
  readonly runs: SparkPlanning[];
  /** Icefront's /plan and /tasks requests during each timed run (Icefront catalogs only). */
  readonly requests?: { plan: number; tasks: number }[];
  /** Icefront's response times of those requests, summed, per timed run. */
  readonly icefrontMs?: number[];
}

interface SparkResult {
  readonly rows: SparkRow[];
  readonly verification: string[];
  /** The protocol walk that warmed the S3 Icefront's cache (its first plan: every manifest fetched from S3). */
  readonly s3FirstWalk?: ProtocolRun;
}

interface SparkCase {
  readonly key: string;
  readonly label: string;
  readonly catalog: SparkCatalog;
  /** The Icefront the catalog points at, whose request log is checked. */
  readonly ice?: IcefrontChild;
  /** Plan tasks that Icefront's plan of the table hands out (every one is redeemed once). */
  readonly planTasks?: number;
}

async function sparkPlanning(env: InteropEnv, table: SyntheticTableRef): Promise<SparkResult> {
  const spark = startSparkPlanner(env, SPARK_DRIVER_MEMORY);
  const t = `bench.${table.name}`;
  const closers: (() => Promise<void>)[] = [];
  const rows: SparkRow[] = [];
  const verification: string[] = [];
  try {
    // local files
    const local = await startServers(env, table);
    closers.push(local.close);
    const localTasks = (await runProtocol(local.targets[1]!.url, { walk: 'java', gzip: true })).planTasks;
    await measureSpark(spark, t, rows, verification, [
      { key: 'localClient', label: 'local: client planning → fixture', catalog: { name: 'fx', uri: local.fixture.url, planning: 'client' } },
      { key: 'localFixture', label: 'local: server planning → fixture', catalog: { name: 'fxs', uri: local.fixture.url, planning: 'server' } },
      { key: 'localIcefront', label: 'local: server planning → Icefront', catalog: { name: 'ice', uri: local.restIce.url, warehouse: 'fxlocal', planning: 'server' }, ice: local.restIce, planTasks: localTasks },
    ]);
    await closers.pop()!();

    // the table on S3
    const s3Table = ensureSyntheticTable({ manifests: MANIFESTS, entriesPerManifest: ENTRIES, columns: 20, scheme: 's3' });
    const moto = await startMoto(env, ['bench']);
    closers.push(moto.close);
    const prefix = `warehouse/bench/${s3Table.name}/metadata`;
    const uploaded = await uploadFolder(env, moto, 'bench', prefix, path.join(s3Table.root, 'metadata'));
    const s3: S3Warehouse = { warehouse: 's3://bench/warehouse', endpoint: moto.endpoint, region: moto.region, accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey };
    const fixture = await startRestFixture(env, { jvmOptions: JVM_OPTS, s3 });
    closers.push(fixture.close);
    await registerTable(fixture.url, 'bench', s3Table.name, `${s3Table.location}/metadata/${path.basename(currentMetadataFile(s3Table.root))}`);
    const ice = await startIcefrontChild(
      `logging: { level: warn }\ncatalogs:\n  fxs3:\n    type: rest\n    uri: ${JSON.stringify(fixture.url)}\n    planning: local\n` +
        `    storage: { s3: { endpoint: ${JSON.stringify(moto.endpoint)}, region: ${moto.region}, path-style: true, access-key-id: ${moto.accessKeyId}, secret-access-key: ${moto.secretAccessKey} } }\n`,
    );
    closers.push(ice.close);
    const s3FirstWalk = await runProtocol(`${ice.url}/v1/fxs3/namespaces/bench/tables/${s3Table.name}`, { walk: 'java', gzip: true });
    if (s3FirstWalk.files.length !== FILES) throw new Error(`peer: Icefront planned ${s3FirstWalk.files.length} files of the table on S3`);
    verification.push(`S3: ${uploaded} metadata files uploaded to moto; Icefront's first plan of it (every manifest from S3) ${s3FirstWalk.ms.toFixed(0)} ms`);
    // Iceberg Java's S3 properties (s3-upstream.test.ts): the fixture vends none.
    const properties = { 's3.endpoint': moto.endpoint, 's3.path-style-access': 'true', 'client.region': moto.region, 's3.access-key-id': moto.accessKeyId, 's3.secret-access-key': moto.secretAccessKey };
    const s3t = `bench.${s3Table.name}`;
    await measureSpark(spark, s3t, rows, verification, [
      { key: 's3Client', label: 'S3: client planning → fixture', catalog: { name: 'fx3', uri: fixture.url, planning: 'client', properties } },
      { key: 's3Icefront', label: 'S3: server planning → Icefront', catalog: { name: 'ice3', uri: ice.url, warehouse: 'fxs3', planning: 'server', properties }, ice, planTasks: s3FirstWalk.planTasks },
    ]);
    return { rows, verification, s3FirstWalk };
  } finally {
    await spark.close();
    for (const close of closers.reverse()) await close();
  }
}

/** One warm-up per case (through Icefront, step by step with its request log read after each), then SPARK_RUNS rounds. */
async function measureSpark(spark: ReturnType<typeof startSparkPlanner>, table: string, rows: SparkRow[], verification: string[], cases: readonly SparkCase[]): Promise<void> {
  const counts = async (ice: IcefrontChild) => {
    await settle();
    return { plan: ice.count('/plan'), tasks: ice.count('/tasks'), busy: ice.busyMs('/plan') + ice.busyMs('/tasks') };
  };
  const mine: SparkRow[] = [];
  for (const c of cases) {
    let warmup: SparkPlanning;
    if (c.ice) {
      const ice = c.ice;
      let last = await counts(ice);
      const seen: string[] = [];
      let plans = 0;
      let tasks = 0;
      warmup = await spark.planInSteps(c.catalog, table, async (step) => {
        const now = await counts(ice);
        const d = { plan: now.plan - last.plan, tasks: now.tasks - last.tasks };
        last = now;
        plans += d.plan;
        tasks += d.tasks;
        seen.push(`${step} ${d.plan} /plan + ${d.tasks} /tasks`);
      });
      const line = `${c.label}, warm-up, request log after each step: ${seen.join(', ')}`;
      verification.push(line);
      const where = seen.filter((x) => !x.endsWith(' 0 /plan + 0 /tasks'));
      if (plans !== 1 || tasks !== c.planTasks || where.length !== 1) throw new Error(`peer: Spark through Icefront did not plan once, in one step (${c.planTasks} /tasks expected): ${line}`);
    } else {
      warmup = await spark.plan(c.catalog, table, { countFiles: true });
    }
    if (warmup.files !== FILES) throw new Error(`peer: Spark (${c.label}) planned ${warmup.files} file tasks, expected ${FILES}`);
    mine.push({ key: c.key, label: c.label, catalog: c.catalog, warmup, runs: [], ...(c.ice && { requests: [], icefrontMs: [] }) });
  }
  for (let r = 0; r < SPARK_RUNS; r++) {
    for (const [i, row] of mine.entries()) {
      const ice = cases[i]!.ice;
      const before = ice && (await counts(ice));
      const run = await spark.plan(row.catalog, table);
      if (ice && before) {
        const after = await counts(ice);
        const sent = { plan: after.plan - before.plan, tasks: after.tasks - before.tasks };
        if (sent.plan !== 1 || sent.tasks !== cases[i]!.planTasks) throw new Error(`peer: a timed Spark run through Icefront sent ${sent.plan} /plan and ${sent.tasks} /tasks, expected 1 and ${cases[i]!.planTasks}`);
        row.requests!.push(sent);
        row.icefrontMs!.push(after.busy - before.busy);
      }
      if (run.partitions !== mine[0]!.warmup.partitions) throw new Error(`peer: Spark (${row.label}) planned ${run.partitions} partitions, ${mine[0]!.label} ${mine[0]!.warmup.partitions}`);
      row.runs.push(run);
    }
  }
  rows.push(...mine);
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const mb = (x: number) => `${x.toFixed(0)} MB`;
const pad = (s: string, n: number) => s.padStart(n);
const warm = (t: Target, gzip = true) => median((gzip ? t.runs.gzip : t.runs.plain).map((r) => r.ms));
const peak = (t: Target) => Math.max(t.coldPeak!.peakMB, t.end!.peakMB);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(2)} MiB`;

function reportProtocol(w: WalkResult, nodeHeapMB: number): void {
  console.log(`\npeer 1 (${w.walk}): the protocol ${w.label}; cold = a fresh process's first plan, gzip asked; warm = median of ${RUNS}, gzip asked / not`);
  console.log(
    `  ${'server'.padEnd(31)} ${pad('cold', 8)} ${pad('warm gz', 8)} ${pad('warm', 8)} ${pad('req', 5)} ${pad('wire gz', 10)} ${pad('JSON', 10)} ${pad('largest', 9)}  ${pad('RSS idle', 8)} ${pad('peak cold', 9)} ${pad('peak warm', 9)} ${pad('RSS end', 8)}`,
  );
  for (const t of w.targets) {
    console.log(
      `  ${t.label.padEnd(31)} ${pad(ms(t.cold!.ms), 8)} ${pad(ms(warm(t)), 8)} ${pad(ms(warm(t, false)), 8)} ${pad(String(t.cold!.requests), 5)} ${pad(mib(t.cold!.bytes), 10)} ${pad(mib(t.cold!.jsonBytes), 10)} ${pad(`${(t.cold!.largestJson / 1000).toFixed(0)} kB`, 9)}  ${pad(mb(t.idle!.rssMB), 8)} ${pad(mb(t.coldPeak!.peakMB), 9)} ${pad(mb(t.end!.peakMB), 9)} ${pad(mb(t.end!.rssMB), 8)}`,
    );
  }
  console.log(`  every answer: ${FILES.toLocaleString('en')} file-scan-tasks, the fixture's file-path set exactly, no delete files; Icefront's each within ${DEFAULTS.maxResponseBytes} bytes`);
  const polls = w.targets.filter((t) => t.coldWorstPollMs !== undefined).map((t) => `${t.label} ${t.coldWorstPollMs!.toFixed(1)} ms`);
  console.log(`  longest /healthz wait (polled every 5 ms) during the cold walk: ${polls.join(', ')}`);
  console.log(`  Icefront: node ${process.version}, V8 heap limit ${nodeHeapMB} MiB${w.targets.every((t) => t.peakResets) ? '' : '; peak not resettable here: lifetime VmHWM'}`);
}

const sparkMedian = (r: SparkRow) => median(r.runs.map((x) => x.ms));

function reportSpark(spark: SparkResult): void {
  console.log(`\npeer 2: Spark planning time, spark.table through getNumPartitions (median and best of ${SPARK_RUNS}, one JVM, --driver-memory ${SPARK_DRIVER_MEMORY}, after one warm-up each)`);
  const stepMs = (r: SparkRow, k: 'tableMs' | 'optimizedMs' | 'physicalMs' | 'partitionsMs') => ms(median(r.runs.map((x) => x[k])));
  console.log(`  ${'Spark catalog'.padEnd(34)} ${pad('median', 9)} ${pad('best', 9)} ${pad('warm-up', 9)}  ${pad('table', 7)} ${pad('optimize', 9)} ${pad('physical', 9)} ${pad('partitions', 10)}  ${pad('splits', 6)} ${pad('files', 7)}`);
  for (const r of spark.rows) {
    console.log(
      `  ${r.label.padEnd(34)} ${pad(ms(sparkMedian(r)), 9)} ${pad(ms(Math.min(...r.runs.map((x) => x.ms))), 9)} ${pad(ms(r.warmup.ms), 9)}  ${pad(stepMs(r, 'tableMs'), 7)} ${pad(stepMs(r, 'optimizedMs'), 9)} ${pad(stepMs(r, 'physicalMs'), 9)} ${pad(stepMs(r, 'partitionsMs'), 10)}  ${pad(String(r.warmup.partitions), 6)} ${pad(String(r.warmup.files), 7)}`,
    );
  }
  console.log('  steps (medians): spark.table, optimizedPlan, executedPlan, getNumPartitions; splits = input partitions; files = file tasks in them (warm-up)');
  for (const v of spark.verification) console.log(`  verified: ${v}`);
  for (const r of spark.rows.filter((x) => x.requests)) {
    console.log(`  each timed run ${r.label}: ${r.requests!.map((q) => `${q.plan} /plan + ${q.tasks} /tasks`).join(', ')}`);
    console.log(`    Icefront's response times in them, summed (answers overlap: Spark fetches several at once): ${r.icefrontMs!.map((x) => ms(x)).join(', ')} of Spark's ${r.runs.map((x) => ms(x.ms)).join(', ')}`);
  }
}

/** Issue #31's goals, each with its ratio from this run. */
function reportGoals(walks: WalkResult[], spark: SparkResult | undefined): void {
  const lines: string[] = [];
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const get = (w: WalkResult, key: Target['key']) => w.targets.find((t) => t.key === key)!;
  for (const w of walks) {
    const fx = get(w, 'fixture');
    const fsIce = get(w, 'icefrontFilesystem');
    const rest = get(w, 'icefrontRest');
    const r = { cold: fsIce.cold!.ms / fx.cold!.ms, warm: warm(fsIce) / warm(fx) };
    lines.push(`Icefront filesystem ÷ fixture, ${w.walk} walk ≤ 0.5: cold ${r.cold.toFixed(2)}, warm ${r.warm.toFixed(2)} (${verdict(r.cold <= 0.5 && r.warm <= 0.5)})`);
    const q = { cold: rest.cold!.ms / fsIce.cold!.ms, warm: warm(rest) / warm(fsIce) };
    lines.push(`Icefront rest + planning: local ÷ filesystem, ${w.walk} walk ≤ 1.2: cold ${q.cold.toFixed(2)}, warm ${q.warm.toFixed(2)} (${verdict(q.cold <= 1.2 && q.warm <= 1.2)})`);
  }
  if (spark) {
    const row = (key: string) => spark.rows.find((x) => x.key === key)!;
    const local = sparkMedian(row('localIcefront')) / sparkMedian(row('localClient'));
    lines.push(`Spark through Icefront ÷ Spark client-side, local files ≤ 1.5: ${local.toFixed(2)} (${verdict(local <= 1.5)})`);
    const s3 = sparkMedian(row('s3Icefront')) / sparkMedian(row('s3Client'));
    lines.push(`Spark through Icefront ÷ Spark client-side, table on S3 < 1 (Icefront's cache warm): ${s3.toFixed(2)} (${verdict(s3 < 1)})`);
  }
  for (const w of walks) {
    for (const key of ['icefrontFilesystem', 'icefrontRest'] as const) {
      const t = get(w, key);
      const ratio = t.cold!.bytes / t.cold!.jsonBytes;
      lines.push(`bytes over the wire with gzip ÷ uncompressed ≤ 0.2, ${t.label}, ${w.walk} walk: ${ratio.toFixed(3)} (${mib(t.cold!.bytes)} of ${mib(t.cold!.jsonBytes)}; ${verdict(ratio <= 0.2)})`);
    }
  }
  const worst = Math.max(...walks.flatMap((w) => w.targets.map((t) => t.coldWorstPollMs ?? 0)));
  lines.push(`no request waits more than 50 ms during a fresh process's first plan: longest /healthz wait ${worst.toFixed(1)} ms (${verdict(worst <= 50)})`);
  console.log(`\ngoals (issue #31), ratios from this run:\n${lines.map((l) => `  ${l}`).join('\n')}`);
}

function reportJson(walks: WalkResult[], spark: SparkResult | undefined, jvm: string): void {
  console.log(`\nload average (1, 5, 15 min): ${load.map((l) => `${l.phase} ${l.loadavg.map((x) => x.toFixed(2)).join(' ')}`).join('; ')}  (${os.cpus().length} CPUs)`);
  const json = {
    bench: 'peer',
    files: FILES,
    runs: RUNS,
    protocol: Object.fromEntries(
      walks.map((w) => [
        w.walk,
        Object.fromEntries(
          w.targets.map((t) => [
            t.key,
            {
              coldMs: Math.round(t.cold!.ms),
              warmGzipMedianMs: Math.round(warm(t)),
              warmPlainMedianMs: Math.round(warm(t, false)),
              requests: t.cold!.requests,
              wireBytes: t.cold!.bytes,
              jsonBytes: t.cold!.jsonBytes,
              largestAnswerBytes: t.cold!.largestJson,
              ...(t.coldWorstPollMs !== undefined && { coldWorstPollMs: +t.coldWorstPollMs.toFixed(1) }),
              rssIdleMB: Math.round(t.idle!.rssMB),
              peakColdMB: Math.round(t.coldPeak!.peakMB),
              peakWarmMB: Math.round(t.end!.peakMB),
              rssEndMB: Math.round(t.end!.rssMB),
              peakRssMB: Math.round(peak(t)),
            },
          ]),
        ),
      ]),
    ),
    fixtureJvm: jvm,
    spark: spark && {
      driverMemory: SPARK_DRIVER_MEMORY,
      runs: SPARK_RUNS,
      s3FirstWalkMs: spark.s3FirstWalk && Math.round(spark.s3FirstWalk.ms),
      catalogs: Object.fromEntries(
        spark.rows.map((r) => [
          r.key,
          {
            label: r.label,
            medianMs: Math.round(sparkMedian(r)),
            bestMs: Math.round(Math.min(...r.runs.map((x) => x.ms))),
            warmupMs: Math.round(r.warmup.ms),
            runsMs: r.runs.map((x) => Math.round(x.ms)),
            optimizedMedianMs: Math.round(median(r.runs.map((x) => x.optimizedMs))),
            ...(r.icefrontMs && { icefrontResponseMs: r.icefrontMs.map((x) => Math.round(x)) }),
            partitions: r.warmup.partitions,
            files: r.warmup.files,
          },
        ]),
      ),
    },
    loadavg: load,
  };
  console.log(JSON.stringify(json));
}

const env = await toolchain(process.argv.includes('--if-available'));
if (env) await main(env);
