/**
 * `npm run bench:peer`: Icefront against the Iceberg REST fixture's own Java planner (issue 9,
 * item 6), all in one run, on one table: 100 manifests × 1,000 data files (100,000 files, 20
 * columns with stats), metadata-only, every location a `file:///…` URI (bench/synthetic-table.ts,
 * written once under bench/.work/ and reused while it is complete), registered in the fixture
 * with `POST /v1/namespaces/bench/register`.
 *
 * 1. The protocol, as a client walks it (bench/peer-protocol.ts): `POST …/plan` (no filter, every
 *    column) and `POST …/tasks` for every plan task, one request at a time, answered by
 *    - the fixture (RESTCatalogServer 1.11.0, JVM options BENCH_PEER_JVM_OPTS, default none: the
 *      JVM's ergonomic heap, printed) planning it itself: synchronous, the first 100
 *      file-scan-tasks inline, then a chain of plan tasks of 100 each;
 *    - Icefront, `type: rest` in front of the fixture with `planning: local` and
 *      `storage.local.roots` = bench/.work/warehouse (tables loaded through the fixture, Icefront
 *      reads the manifests and plans; batch-size 100, so 1,000 plan tasks);
 *    - Icefront, `type: filesystem` over the same folder (no upstream at all).
 *    Each Icefront runs in its own node + tsx process (bench/peer-icefront-child.ts, the YAML
 *    config loaded as `icefront serve` does). Every answer must list the same 100,000 file paths
 *    as the fixture's (count, duplicates and set equality are checked; a mismatch stops the bench).
 *    Reported: the cold first run (a fresh process's first plan of the table; the files are in
 *    the page cache), the median of BENCH_RUNS (default 3) warm runs (rounds taken in turn), the
 *    answers' size, and each server's memory from /proc: RSS before the first request, the peak
 *    (VmHWM, reset through clear_refs before the cold run and again before the warm runs) and RSS
 *    at the end.
 * 2. Spark's own planning time for the same full scan (bench/peer_spark.py, pyspark +
 *    iceberg-spark-runtime, local[1], --driver-memory BENCH_PEER_SPARK_DRIVER_MEMORY, default 4g;
 *    at Spark's default 1g the JVM ran out of heap in the server-planning warm-up against the
 *    fixture, after the client-planning one), in one Spark JVM:
 *    one warm-up per catalog, then the median (and best) of BENCH_PEER_SPARK_RUNS (default 3)
 *    rounds. Timed: `spark.table(t)` through `executedPlan().execute().getNumPartitions()`, step by
 *    step, reading no data. Iceberg plans the scan's file tasks inside `optimizedPlan()`: Spark's
 *    optimiser asks the scan for its output partitioning, and Iceberg's
 *    SparkPartitioningAwareScan.outputPartitioning() answers with taskGroups().size(). Catalogs:
 *    scan-planning-mode=client straight to the fixture (manifests read in Spark's JVM),
 *    scan-planning-mode=server straight to the fixture (the fixture plans), and
 *    scan-planning-mode=server through Icefront's `planning: local` catalog (Icefront plans).
 *    Checked, or the bench stops: the warm-up through Icefront runs one step at a time with
 *    Icefront's request log read after each (exactly one /plan and every plan task's /tasks, all in
 *    one step); every timed run through Icefront sends them again (no cached plan); every run
 *    gives the same number of input partitions; each warm-up counts 100,000 file tasks in them.
 *
 * Output: a table, ratios (Icefront ÷ fixture), the load average, and a final JSON line.
 * Needs the interop toolchain (`bash tools/interop/setup.sh`; `npm run bench:peer` runs it, a
 * no-op once installed). `npm run bench` ends with `bench/peer.ts --if-available`: it only reads
 * .interop/env.json and prints "peer: skipped: …" when the toolchain is absent or
 * ICEFRONT_INTEROP=off / BENCH_PEER=off. BENCH_PEER_SPARK=off skips part 2.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureToolchain, REPO, type InteropEnv } from '../test/interop/harness/toolchain.js';
import { startRestFixture } from '../test/interop/harness/rest-fixture.js';
import { jvmSettings, registerTable } from './peer-fixture.js';
import { startIcefrontChild, type IcefrontChild } from './peer-icefront.js';
import { runProtocol, type ProtocolRun } from './peer-protocol.js';
import { startSparkPlanner, type SparkCatalog, type SparkPlanning } from './peer-spark.js';
import { procMemory, resetPeak, type ProcMemory } from './proc-memory.js';
import { median } from './median.js';
import { currentMetadataFile, ensureSyntheticTable } from './synthetic-table.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const SPARK_RUNS = Number(process.env['BENCH_PEER_SPARK_RUNS'] ?? 3);
const JVM_OPTS = (process.env['BENCH_PEER_JVM_OPTS'] ?? '').split(/\s+/).filter(Boolean);
const SPARK_DRIVER_MEMORY = process.env['BENCH_PEER_SPARK_DRIVER_MEMORY'] ?? '4g';
const MANIFESTS = 100;
const ENTRIES = 1000;
const FILES = MANIFESTS * ENTRIES;
const BATCH = 100;
if (!(RUNS >= 1) || !(SPARK_RUNS >= 1)) throw new Error('BENCH_RUNS and BENCH_PEER_SPARK_RUNS must be at least 1');

const load: { phase: string; loadavg: number[] }[] = [];

async function main(env: InteropEnv): Promise<void> {
  load.push({ phase: 'start', loadavg: os.loadavg() });

  const table = ensureSyntheticTable({ manifests: MANIFESTS, entriesPerManifest: ENTRIES, columns: 20, scheme: 'file' });
  const metadataLocation = `${table.location}/metadata/${path.basename(currentMetadataFile(table.root))}`;
  console.log(`peer: table bench.${table.name}, ${FILES.toLocaleString('en')} data files in ${MANIFESTS} manifests, ${table.written ? 'written now' : 'reused'} (${path.relative(REPO, table.root)})`);

  const fixture = await startRestFixture(env, { jvmOptions: JVM_OPTS });
  const children: IcefrontChild[] = [];
  try {
    await registerTable(fixture.url, 'bench', table.name, metadataLocation);
    const restIce = await startIcefrontChild(
      `logging: { level: warn }\nplanning: { batch-size: ${BATCH} }\ncatalogs:\n  fxlocal:\n    type: rest\n    uri: ${JSON.stringify(fixture.url)}\n    planning: local\n    storage: { local: { roots: [${JSON.stringify(table.warehouse)}] } }\n`,
    );
    children.push(restIce);
    const fsIce = await startIcefrontChild(`logging: { level: warn }\nplanning: { batch-size: ${BATCH} }\ncatalogs:\n  fxfs: { type: filesystem, warehouse: ${JSON.stringify(table.warehouse)} }\n`);
    children.push(fsIce);

    const tablePath = `namespaces/bench/tables/${table.name}`;
    const targets: Target[] = [
      { key: 'fixture', label: 'fixture (Java) plans', url: `${fixture.url}/v1/${tablePath}`, pid: fixture.pid, runs: [] },
      { key: 'icefrontRest', label: 'Icefront rest, planning: local', url: `${restIce.url}/v1/fxlocal/${tablePath}`, pid: restIce.pid, runs: [] },
      { key: 'icefrontFilesystem', label: 'Icefront filesystem catalog', url: `${fsIce.url}/v1/fxfs/${tablePath}`, pid: fsIce.pid, runs: [] },
    ];

    // 1. The protocol: cold runs first (each server's first plan of this table), then warm rounds.
    let truth: Set<string> | undefined;
    for (const t of targets) {
      t.idle = procMemory(t.pid);
      t.peakResets = resetPeak(t.pid);
      t.cold = await runProtocol(t.url);
      truth ??= checkFiles(t.label, t.cold, undefined);
      checkFiles(t.label, t.cold, truth);
      t.coldPeak = procMemory(t.pid);
    }
    for (const t of targets) resetPeak(t.pid);
    for (let r = 0; r < RUNS; r++) {
      for (const t of targets) {
        const run = await runProtocol(t.url);
        checkFiles(t.label, run, truth);
        t.runs.push(run);
      }
    }
    for (const t of targets) t.end = procMemory(t.pid);
    load.push({ phase: 'after protocol', loadavg: os.loadavg() });
    const jvm = jvmSettings(JVM_OPTS);
    reportProtocol(targets, jvm, restIce.heapLimitMB);

    // 2. Spark's planning time.
    const spark = process.env['BENCH_PEER_SPARK'] === 'off' ? undefined : await sparkPlanning(env, fixture.url, restIce, table.name, targets[1]!.cold!.planTasks);
    load.push({ phase: 'end', loadavg: os.loadavg() });

    if (spark) reportSpark(spark);
    reportJson(targets, spark, jvm);
  } finally {
    for (const c of children) await c.close();
    await fixture.close();
  }
}

interface Target {
  readonly key: string;
  readonly label: string;
  readonly url: string;
  readonly pid: number;
  readonly runs: ProtocolRun[];
  idle?: ProcMemory;
  cold?: ProtocolRun;
  coldPeak?: ProcMemory;
  end?: ProcMemory;
  peakResets?: boolean;
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

/** Every file exactly once and, given `truth`, exactly its set. Returns the run's set. */
function checkFiles(label: string, run: ProtocolRun, truth: Set<string> | undefined): Set<string> {
  const set = new Set(run.files);
  const problems: string[] = [];
  if (run.files.length !== FILES) problems.push(`${run.files.length} file-scan-tasks, expected ${FILES}`);
  if (set.size !== run.files.length) problems.push(`${run.files.length - set.size} duplicate file paths`);
  if (run.deletes !== 0) problems.push(`${run.deletes} delete files (the table has none)`);
  if (truth) {
    const missing = [...truth].filter((f) => !set.has(f));
    const extra = [...set].filter((f) => !truth.has(f));
    if (missing.length) problems.push(`${missing.length} of the fixture's files missing, e.g. ${missing.slice(0, 3).join(', ')}`);
    if (extra.length) problems.push(`${extra.length} files the fixture did not plan, e.g. ${extra.slice(0, 3).join(', ')}`);
  }
  if (problems.length) throw new Error(`peer: ${label} answered a different scan: ${problems.join('; ')}`);
  return set;
}

interface SparkRow {
  readonly label: string;
  readonly catalog: SparkCatalog;
  readonly warmup: SparkPlanning;
  readonly runs: SparkPlanning[];
  /** Icefront's /plan and /tasks requests during each timed run (Icefront catalogs only). */
  readonly requests?: { plan: number; tasks: number }[];
}

interface SparkResult {
  readonly rows: SparkRow[];
  readonly verification: string;
}

async function sparkPlanning(env: InteropEnv, fixtureUrl: string, ice: IcefrontChild, name: string, expectedTasks: number): Promise<SparkResult> {
  const spark = startSparkPlanner(env, SPARK_DRIVER_MEMORY);
  const t = `bench.${name}`;
  const settle = () => new Promise((r) => setTimeout(r, 300));
  const counts = async () => {
    await settle();
    return { plan: ice.count('/plan'), tasks: ice.count('/tasks') };
  };
  try {
    const catalogs: { label: string; catalog: SparkCatalog; viaIcefront: boolean }[] = [
      { label: 'client planning → fixture', catalog: { name: 'fx', uri: fixtureUrl, planning: 'client' }, viaIcefront: false },
      { label: 'server planning → fixture', catalog: { name: 'fxs', uri: fixtureUrl, planning: 'server' }, viaIcefront: false },
      { label: 'server planning → Icefront', catalog: { name: 'ice', uri: ice.url, warehouse: 'fxlocal', planning: 'server' }, viaIcefront: true },
    ];
    const rows: (SparkRow & { requests: { plan: number; tasks: number }[] })[] = [];
    let verification = '';
    for (const c of catalogs) {
      let warmup: SparkPlanning;
      if (c.viaIcefront) {
        // Where planning happens: Icefront's request log read after each step of the warm-up.
        let last = await counts();
        const seen: string[] = [];
        let plans = 0;
        let tasks = 0;
        warmup = await spark.planInSteps(c.catalog, t, async (step) => {
          const now = await counts();
          const d = { plan: now.plan - last.plan, tasks: now.tasks - last.tasks };
          last = now;
          plans += d.plan;
          tasks += d.tasks;
          seen.push(`${step} ${d.plan} /plan + ${d.tasks} /tasks`);
        });
        verification = `warm-up through Icefront, request log after each step: ${seen.join(', ')}`;
        const where = seen.filter((x) => !x.endsWith(' 0 /plan + 0 /tasks'));
        if (plans !== 1 || tasks !== expectedTasks || where.length !== 1) {
          throw new Error(`peer: Spark through Icefront did not plan once, in one step (${expectedTasks} /tasks expected): ${verification}`);
        }
      } else {
        warmup = await spark.plan(c.catalog, t, true);
      }
      if (warmup.files !== FILES) throw new Error(`peer: Spark (${c.label}) planned ${warmup.files} file tasks, expected ${FILES}`);
      rows.push({ label: c.label, catalog: c.catalog, warmup, runs: [], requests: [] });
    }
    for (let r = 0; r < SPARK_RUNS; r++) {
      for (const [i, row] of rows.entries()) {
        const before = await counts();
        const run = await spark.plan(row.catalog, t);
        const after = await counts();
        if (catalogs[i]!.viaIcefront) {
          const sent = { plan: after.plan - before.plan, tasks: after.tasks - before.tasks };
          if (sent.plan !== 1 || sent.tasks !== expectedTasks) throw new Error(`peer: a timed Spark run through Icefront sent ${sent.plan} /plan and ${sent.tasks} /tasks, expected 1 and ${expectedTasks}`);
          row.requests.push(sent);
        }
        if (run.partitions !== rows[0]!.warmup.partitions) throw new Error(`peer: Spark (${row.label}) planned ${run.partitions} partitions, ${rows[0]!.label} ${rows[0]!.warmup.partitions}`);
        row.runs.push(run);
      }
    }
    return { rows: rows.map((r, i) => (catalogs[i]!.viaIcefront ? r : { ...r, requests: undefined })), verification };
  } finally {
    await spark.close();
  }
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const mb = (x: number) => `${x.toFixed(0)} MB`;
const pad = (s: string, n: number) => s.padStart(n);
const warm = (t: Target) => median(t.runs.map((r) => r.ms));
const peak = (t: Target) => Math.max(t.coldPeak!.peakMB, t.end!.peakMB);

function reportProtocol(targets: Target[], jvm: string, nodeHeapMB: number): void {
  console.log(`\npeer 1: the protocol, /plan + every /tasks, one request at a time (cold = first run; warm = median of ${RUNS})`);
  console.log(`  ${'server'.padEnd(32)} ${pad('cold', 9)} ${pad('warm', 9)} ${pad('requests', 8)} ${pad('answers', 8)}  ${pad('RSS idle', 8)} ${pad('peak cold', 9)} ${pad('peak warm', 9)} ${pad('RSS end', 8)}`);
  for (const t of targets) {
    console.log(
      `  ${t.label.padEnd(32)} ${pad(ms(t.cold!.ms), 9)} ${pad(ms(warm(t)), 9)} ${pad(String(t.cold!.requests), 8)} ${pad(`${(t.cold!.bytes / 2 ** 20).toFixed(1)} MiB`, 8)}  ${pad(mb(t.idle!.rssMB), 8)} ${pad(mb(t.coldPeak!.peakMB), 9)} ${pad(mb(t.end!.peakMB), 9)} ${pad(mb(t.end!.rssMB), 8)}`,
    );
  }
  console.log(`  every answer: ${FILES.toLocaleString('en')} file-scan-tasks, the fixture's file-path set exactly, no delete files`);
  const [fx, ...ice] = targets as [Target, ...Target[]];
  for (const t of ice) {
    console.log(
      `  ratio ${t.label} ÷ fixture: wall cold ${(t.cold!.ms / fx.cold!.ms).toFixed(2)}, warm ${(warm(t) / warm(fx)).toFixed(2)}; ` +
        `peak RSS ${(peak(t) / peak(fx)).toFixed(2)}, peak above idle ${((peak(t) - t.idle!.rssMB) / (peak(fx) - fx.idle!.rssMB)).toFixed(2)}`,
    );
  }
  console.log(`  fixture JVM: ${jvm}; Icefront: node ${process.version}, V8 heap limit ${nodeHeapMB} MiB${targets.every((t) => t.peakResets) ? '' : '; peak not resettable here: lifetime VmHWM'}`);
}

function reportSpark(spark: SparkResult): void {
  console.log(`\npeer 2: Spark planning time, spark.table through getNumPartitions (median and best of ${SPARK_RUNS}, one JVM, --driver-memory ${SPARK_DRIVER_MEMORY}, after one warm-up each)`);
  const stepMs = (r: SparkRow, k: 'tableMs' | 'optimizedMs' | 'physicalMs' | 'partitionsMs') => ms(median(r.runs.map((x) => x[k])));
  console.log(`  ${'Spark catalog'.padEnd(30)} ${pad('median', 9)} ${pad('best', 9)} ${pad('warm-up', 9)}  ${pad('table', 7)} ${pad('optimize', 9)} ${pad('physical', 9)} ${pad('partitions', 10)}  ${pad('splits', 6)} ${pad('files', 7)}`);
  for (const r of spark.rows) {
    const m = median(r.runs.map((x) => x.ms));
    console.log(
      `  ${r.label.padEnd(30)} ${pad(ms(m), 9)} ${pad(ms(Math.min(...r.runs.map((x) => x.ms))), 9)} ${pad(ms(r.warmup.ms), 9)}  ${pad(stepMs(r, 'tableMs'), 7)} ${pad(stepMs(r, 'optimizedMs'), 9)} ${pad(stepMs(r, 'physicalMs'), 9)} ${pad(stepMs(r, 'partitionsMs'), 10)}  ${pad(String(r.warmup.partitions), 6)} ${pad(String(r.warmup.files), 7)}`,
    );
  }
  console.log('  steps (medians): spark.table, optimizedPlan, executedPlan, getNumPartitions; splits = input partitions; files = file tasks in them (warm-up)');
  const [client, viaFixture, viaIce] = spark.rows as [SparkRow, SparkRow, SparkRow];
  const sm = (r: SparkRow) => median(r.runs.map((x) => x.ms));
  console.log(`  ratio server planning through Icefront ÷ client planning against the fixture: ${(sm(viaIce) / sm(client)).toFixed(2)}; ÷ server planning by the fixture: ${(sm(viaIce) / sm(viaFixture)).toFixed(2)}`);
  console.log(`  verified: ${spark.verification}; each timed run through Icefront: ${viaIce.requests!.map((q) => `${q.plan} /plan + ${q.tasks} /tasks`).join(', ')}`);
}

function reportJson(targets: Target[], spark: SparkResult | undefined, jvm: string): void {
  const [fx, ...ice] = targets as [Target, ...Target[]];
  console.log(`\nload average (1, 5, 15 min): ${load.map((l) => `${l.phase} ${l.loadavg.map((x) => x.toFixed(2)).join(' ')}`).join('; ')}  (${os.cpus().length} CPUs)`);
  const json = {
    bench: 'peer',
    files: FILES,
    runs: RUNS,
    protocol: Object.fromEntries(
      targets.map((t) => [
        t.key,
        {
          coldMs: Math.round(t.cold!.ms),
          warmMedianMs: Math.round(warm(t)),
          warmMs: t.runs.map((r) => Math.round(r.ms)),
          requests: t.cold!.requests,
          answerBytes: t.cold!.bytes,
          rssIdleMB: Math.round(t.idle!.rssMB),
          peakColdMB: Math.round(t.coldPeak!.peakMB),
          peakWarmMB: Math.round(t.end!.peakMB),
          rssEndMB: Math.round(t.end!.rssMB),
        },
      ]),
    ),
    ratios: Object.fromEntries(ice.map((t) => [t.key, { coldWall: +(t.cold!.ms / fx.cold!.ms).toFixed(3), warmWall: +(warm(t) / warm(fx)).toFixed(3), peakRss: +(peak(t) / peak(fx)).toFixed(3) }])),
    fixtureJvm: jvm,
    spark: spark && {
      driverMemory: SPARK_DRIVER_MEMORY,
      runs: SPARK_RUNS,
      catalogs: Object.fromEntries(
        spark.rows.map((r) => [
          r.label,
          {
            medianMs: Math.round(median(r.runs.map((x) => x.ms))),
            bestMs: Math.round(Math.min(...r.runs.map((x) => x.ms))),
            warmupMs: Math.round(r.warmup.ms),
            runsMs: r.runs.map((x) => Math.round(x.ms)),
            optimizedMedianMs: Math.round(median(r.runs.map((x) => x.optimizedMs))),
            partitions: r.warmup.partitions,
            files: r.warmup.files,
          },
        ]),
      ),
      verification: spark.verification,
    },
    loadavg: load,
  };
  console.log(JSON.stringify(json));
}

const env = await toolchain(process.argv.includes('--if-available'));
if (env) await main(env);
