/**
 * `npm run bench:pages`: how big a page of plan tasks should be (issue #31 item 1), measured with
 * the real clients. One table (bench:peer's: 100 manifests × 1,000 files, 20 columns with
 * stats, `file://`), one Icefront `filesystem` catalog per page bound (its own process, YAML
 * config as `icefront serve` loads it), and for each bound, after one warm-up, the median of
 * BENCH_RUNS (default 3) rounds of:
 * - Spark (Iceberg Java 1.11, scan-planning-mode=server, local[1]) planning the full scan:
 *   spark.table through getNumPartitions (bench/peer_spark.py);
 * - pyiceberg 0.12 (scan-planning-mode=server) load_table + plan_files (bench/peer_pyiceberg.py);
 * - the protocol walked as Java walks it (4 fetchers) and as pyiceberg does (one at a time), with
 *   gzip asked for (bench/peer-protocol.ts), for the request count and bytes.
 * Spark's client-side planning of the same table (manifests read in its JVM, through the same
 * Icefront) is timed too, as the yardstick. Every answer is checked: 100,000 distinct files, and
 * no answer's JSON above the bound it was cut under.
 * Needs the interop toolchain (`bash tools/interop/setup.sh`).
 */
import { ensureToolchain } from '../test/interop/harness/toolchain.js';
import { median } from './median.js';
import { startIcefrontChild } from './peer-icefront.js';
import { runProtocol, type ProtocolRun } from './peer-protocol.js';
import { startPyicebergPlanner } from './peer-pyiceberg.js';
import { startSparkPlanner } from './peer-spark.js';
import { ensureSyntheticTable } from './synthetic-table.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const FILES = 100_000;
const KiB = 1024;
/** Page bounds: tasks per page (0: none) and max-response-bytes. */
const BOUNDS = [
  { batchSize: 100, maxBytes: 1024 * KiB },
  { batchSize: 0, maxBytes: 256 * KiB },
  { batchSize: 0, maxBytes: 1_000_000 },
  { batchSize: 0, maxBytes: 4096 * KiB },
] as const;

const tc = await ensureToolchain();
if (!tc.ok) throw new Error(`pages: interop toolchain missing: ${tc.missing}`);
const env = tc.env;
const table = ensureSyntheticTable({ manifests: 100, entriesPerManifest: 1000, columns: 20, scheme: 'file' });
const t = `bench.${table.name}`;
const spark = startSparkPlanner(env, process.env['BENCH_PEER_SPARK_DRIVER_MEMORY'] ?? '4g');
const py = startPyicebergPlanner(env);

function check(label: string, run: ProtocolRun, maxBytes: number): void {
  if (run.files.length !== FILES || new Set(run.files).size !== FILES) throw new Error(`pages: ${label}: ${run.files.length} file tasks (${new Set(run.files).size} distinct), expected ${FILES}`);
  if (run.largestJson > maxBytes) throw new Error(`pages: ${label}: an answer of ${run.largestJson} bytes, over max-response-bytes ${maxBytes}`);
}

const rows: string[] = [];
const json: Record<string, unknown>[] = [];
try {
  let clientMs: number | undefined;
  for (const bound of BOUNDS) {
    const label = `batch-size ${bound.batchSize}, max-response-bytes ${bound.maxBytes}`;
    const ice = await startIcefrontChild(
      `logging: { level: warn }\nplanning: { batch-size: ${bound.batchSize}, max-response-bytes: ${bound.maxBytes} }\ncatalogs:\n  pages: { type: filesystem, warehouse: ${JSON.stringify(table.warehouse)} }\n`,
    );
    try {
      const url = `${ice.url}/v1/pages/namespaces/bench/tables/${table.name}`;
      const server = { name: 'ice', uri: ice.url, warehouse: 'pages', planning: 'server' as const };
      const warmJava = await runProtocol(url, { walk: 'java', gzip: true });
      check(label, warmJava, bound.maxBytes);
      const sparkWarm = await spark.plan(server, t, { countFiles: true });
      if (sparkWarm.files !== FILES) throw new Error(`pages: Spark planned ${sparkWarm.files} files through ${label}`);
      if (clientMs === undefined) {
        const client = { name: 'icec', uri: ice.url, warehouse: 'pages', planning: 'client' as const };
        await spark.plan(client, t);
        const runs: number[] = [];
        for (let r = 0; r < RUNS; r++) runs.push((await spark.plan(client, t)).ms);
        clientMs = median(runs);
        rows.push(`Spark client-side planning (manifests read in its JVM): ${clientMs.toFixed(0)} ms`);
      }
      const pyWarm = await py.plan(ice.url, 'pages', t);
      if (pyWarm.files !== FILES) throw new Error(`pages: pyiceberg planned ${pyWarm.files} files through ${label}`);
      const sparkMs: number[] = [];
      const pyMs: number[] = [];
      const javaWalk: ProtocolRun[] = [];
      const pyWalk: ProtocolRun[] = [];
      for (let r = 0; r < RUNS; r++) {
        sparkMs.push((await spark.plan(server, t)).ms);
        pyMs.push((await py.plan(ice.url, 'pages', t)).ms);
        const j = await runProtocol(url, { walk: 'java', gzip: true });
        check(label, j, bound.maxBytes);
        javaWalk.push(j);
        const p = await runProtocol(url, { walk: 'pyiceberg', gzip: true });
        check(label, p, bound.maxBytes);
        pyWalk.push(p);
      }
      const m = {
        bound: label,
        requests: warmJava.requests,
        largestAnswerBytes: warmJava.largestJson,
        wireMiB: +(warmJava.bytes / 2 ** 20).toFixed(2),
        jsonMiB: +(warmJava.jsonBytes / 2 ** 20).toFixed(2),
        sparkMs: Math.round(median(sparkMs)),
        pyicebergMs: Math.round(median(pyMs)),
        javaWalkMs: Math.round(median(javaWalk.map((x) => x.ms))),
        pyicebergWalkMs: Math.round(median(pyWalk.map((x) => x.ms))),
      };
      json.push(m);
      rows.push(
        `${label.padEnd(46)} ${String(m.requests).padStart(5)} req, largest ${String(m.largestAnswerBytes).padStart(8)} B, ${m.wireMiB} MiB gzip of ${m.jsonMiB} MiB | ` +
          `Spark ${m.sparkMs} ms (${(m.sparkMs / clientMs).toFixed(2)}× client-side), pyiceberg ${m.pyicebergMs} ms | walks: java×4 ${m.javaWalkMs} ms, one at a time ${m.pyicebergWalkMs} ms`,
      );
      console.log(rows.at(-1));
    } finally {
      await ice.close();
    }
  }
} finally {
  await spark.close();
  await py.close();
}
console.log(`\npages: medians of ${RUNS} warm runs, ${FILES.toLocaleString('en')} files\n${rows.join('\n')}`);
console.log(JSON.stringify({ bench: 'pages', runs: RUNS, rows: json }));
