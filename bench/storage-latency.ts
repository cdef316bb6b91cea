/**
 * `npm run bench:storage-latency` (issue #41 goals 2 and 3): planning the bench table when its
 * storage is far away, by pyiceberg 0.11 and by Spark (Iceberg 1.11). The table (100 manifests ×
 * 1,000 files, 20 columns, metadata only, bench/synthetic-table.ts) lies on S3 (moto, the interop
 * suite's), registered in the Iceberg REST fixture; Toxiproxy (tools/interop/toxiproxy.sh) sits
 * between moto and every reader of manifests, adding BENCH_LATENCY_MS (default 20) each way (a
 * latency toxic on both streams). BENCH_CLIENTS (default `pyiceberg,spark`) says which clients
 * run; BENCH_REQUEST_LOG=FILE writes every request Icefront answered, with its time, between
 * lines naming each timed plan. In BENCH_RUNS (default 3) rounds, each client, in one long-lived
 * process of its own (bench/peer_pyiceberg.py; bench/peer_spark.py, one Spark JVM, local[1]), plans:
 *   - client-side: `scan-planning-mode=client` against the fixture, manifests fetched through
 *     the proxy by the client itself: unfiltered, and `c4 < 1000` (1% of the files by column
 *     metrics, which partition summaries cannot prune);
 *   - server-side through a fresh Icefront (one per client and round: `rest` in front of the
 *     fixture, `planning: local`, `storage.s3` through the proxy): unfiltered (its first plan:
 *     every manifest fetched through the proxy), unfiltered again (warm), then `c4 < 1000` (a new
 *     filter on a table it has read) and `c4 < 1000` again (a repeated scan);
 *   - the floor: the same two scans through a server replaying the answers Icefront gave them,
 *     recorded through it once (bench/replay-server.ts), from memory.
 * pyiceberg is timed from load_table to the last planned file (plan_files alone is printed
 * beside it); Spark from spark.table through getNumPartitions (bench/peer_spark.py: the scan's
 * file tasks planned, no data read). Every plan must list the expected number of files (100,000,
 * or 1,000 filtered; Spark's counted in its planned input partitions, untimed); the bench stops
 * otherwise. Printed: medians of the rounds, the goals of #41 that these runs measure with their
 * ratios for each client, and a final JSON line. Needs the interop toolchain and Toxiproxy (both
 * installed by their scripts on first use).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMoto } from '../test/interop/harness/moto.js';
import { startRestFixture } from '../test/interop/harness/rest-fixture.js';
import { toolchainAndToxiproxy } from './toolchain-toxiproxy.js';
import { registerTable } from './peer-fixture.js';
import { startReplayServer } from './replay-server.js';
import { startIcefrontChild } from './peer-icefront.js';
import { startPyicebergPlanner } from './peer-pyiceberg.js';
import { startSparkPlanner } from './peer-spark.js';
import { median } from './median.js';
import { uploadFolder } from './s3-upload.js';
import { currentMetadataFile, ensureSyntheticTable } from './synthetic-table.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 20);
const CLIENTS = (process.env['BENCH_CLIENTS'] ?? 'pyiceberg,spark').split(',').map((c) => c.trim()) as ClientName[];
const SPARK_DRIVER_MEMORY = process.env['BENCH_PEER_SPARK_DRIVER_MEMORY'] ?? '4g';
const FILES = 100_000;
const FILTER = 'c4 < 1000';
const FILTERED_FILES = 1_000;

const closers: (() => Promise<void>)[] = [];
const closeAll = async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
};

type ClientName = 'pyiceberg' | 'spark';
type Case = 'clientAll' | 'clientFiltered' | 'iceFirst' | 'iceWarm' | 'iceNewFilter' | 'iceRepeatFilter' | 'replayAll' | 'replayFilter';
const LABEL: Record<Case, string> = {
  clientAll: 'client-side, unfiltered',
  clientFiltered: `client-side, ${FILTER}`,
  iceFirst: 'through a fresh Icefront, unfiltered (its first plan)',
  iceWarm: 'through Icefront, unfiltered again (warm)',
  iceNewFilter: `through Icefront, ${FILTER} (a new filter)`,
  iceRepeatFilter: `through Icefront, ${FILTER} again (repeated)`,
  replayAll: "through a replay of Icefront's answers, unfiltered (the floor)",
  replayFilter: `through a replay of Icefront's answers, ${FILTER}`,
};

/** One planning by a client: its time, the part of it that was planning alone if known, and the files planned. */
interface Planned {
  readonly ms: number;
  readonly planMs?: number;
  readonly files: number;
}

/** A client planning the table: client-side against a catalog, or server-side through one that plans. */
interface Planner {
  plan(uri: string, warehouse: string | undefined, scan: { planning: 'client' | 'server'; filter?: string }): Promise<Planned>;
  close(): Promise<void>;
}

try {
  const { env, toxiproxy } = await toolchainAndToxiproxy();
  closers.push(toxiproxy.close);

  const table = ensureSyntheticTable({ manifests: 100, entriesPerManifest: 1000, columns: 20, scheme: 's3' });
  const moto = await startMoto(env, ['bench']);
  closers.push(moto.close);
  await uploadFolder(env, moto, 'bench', `warehouse/bench/${table.name}/metadata`, path.join(table.root, 'metadata'));
  const fixture = await startRestFixture(env, {
    s3: { warehouse: 's3://bench/warehouse', endpoint: moto.endpoint, region: moto.region, accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey },
  });
  closers.push(() => fixture.close());
  await registerTable(fixture.url, 'bench', table.name, `${table.location}/metadata/${path.basename(currentMetadataFile(table.root))}`);

  // every manifest read, by the clients and by Icefront, goes through the proxy
  const proxy = await toxiproxy.proxy('moto', new URL(moto.endpoint).host);
  for (const stream of ['downstream', 'upstream'] as const)
    await proxy.addToxic({ name: `latency-${stream}`, type: 'latency', stream, attributes: { latency: LATENCY_MS, jitter: 0 } });

  const t = `bench.${table.name}`;
  // pyiceberg's and Iceberg Java's names for the same S3 settings; the fixture vends none
  const pyS3 = { 's3.endpoint': proxy.url, 's3.path-style-access': 'true', 's3.region': moto.region, 's3.access-key-id': moto.accessKeyId, 's3.secret-access-key': moto.secretAccessKey };
  const javaS3 = { 's3.endpoint': proxy.url, 's3.path-style-access': 'true', 'client.region': moto.region, 's3.access-key-id': moto.accessKeyId, 's3.secret-access-key': moto.secretAccessKey };
  const planners: Record<ClientName, () => Planner> = {
    pyiceberg: () => {
      const py = startPyicebergPlanner(env);
      return {
        plan: (uri, warehouse, scan) => py.plan(uri, warehouse, t, { ...scan, properties: pyS3 }),
        close: () => py.close(),
      };
    },
    spark: () => {
      const spark = startSparkPlanner(env, SPARK_DRIVER_MEMORY);
      return {
        async plan(uri, warehouse, scan) {
          const run = await spark.plan({ name: scan.planning === 'client' ? 'fx' : 'ice', uri, ...(warehouse && { warehouse }), planning: scan.planning, properties: javaS3 }, t, {
            countFiles: true,
            ...(scan.filter && { filter: scan.filter }),
          });
          return { ms: run.ms, files: run.files ?? -1 };
        },
        close: () => spark.close(),
      };
    },
  };
  for (const c of CLIENTS) if (!(c in planners)) throw new Error(`BENCH_CLIENTS: unknown client ${c} (pyiceberg, spark)`);

  const key = (client: ClientName, what: Case) => `${client}:${what}`;
  const times = new Map<string, number[]>();
  // plan_files alone (load_table left out), pyiceberg's: where a difference lies
  const planTimes = new Map<string, number[]>();
  const icefrontConfig =
    `logging: { level: warn }\ncatalogs:\n  fx:\n    type: rest\n    uri: ${JSON.stringify(fixture.url)}\n    planning: local\n` +
    `    storage: { s3: { endpoint: ${JSON.stringify(proxy.url)}, region: ${moto.region}, path-style: true, access-key-id: ${moto.accessKeyId}, secret-access-key: ${moto.secretAccessKey} } }\n`;
  console.log(`storage-latency: the table on moto behind Toxiproxy, +${LATENCY_MS} ms each way; ${os.cpus().length} cores; ${RUNS} rounds; clients ${CLIENTS.join(', ')}`);

  for (const client of CLIENTS) {
    const planner = planners[client]();
    closers.push(() => planner.close());
    const plan = async (what: Case, uri: string, warehouse: string | undefined, scan: { planning: 'client' | 'server'; filter?: string }) => {
      const log = process.env['BENCH_REQUEST_LOG'];
      if (log) fs.appendFileSync(log, `${new Date().toISOString()} # ${client} ${LABEL[what]}\n`);
      const run = await planner.plan(uri, warehouse, scan);
      if (log) fs.appendFileSync(log, `${new Date().toISOString()} # done in ${run.ms.toFixed(0)} ms\n`);
      const expected = scan.filter ? FILTERED_FILES : FILES;
      if (run.files !== expected) throw new Error(`${client} ${LABEL[what]}: planned ${run.files} files, not ${expected}`);
      const k = key(client, what);
      times.set(k, [...(times.get(k) ?? []), run.ms]);
      if (run.planMs !== undefined) planTimes.set(k, [...(planTimes.get(k) ?? []), run.planMs]);
      console.log(`  ${client.padEnd(9)} ${LABEL[what].padEnd(62)} ${run.ms.toFixed(0).padStart(7)} ms${run.planMs !== undefined ? `   (plan_files ${run.planMs.toFixed(0)} ms)` : ''}`);
    };
    // one untimed client-side plan: the client's imports, its JVM's warm-up, its first catalog
    await planner.plan(fixture.url, undefined, { planning: 'client' });
    for (let round = 1; round <= RUNS; round++) {
      console.log(`${client}, round ${round}`);
      await plan('clientAll', fixture.url, undefined, { planning: 'client' });
      await plan('clientFiltered', fixture.url, undefined, { planning: 'client', filter: FILTER });
      const ice = await startIcefrontChild(icefrontConfig);
      try {
        await plan('iceFirst', ice.url, 'fx', { planning: 'server' });
        await plan('iceWarm', ice.url, 'fx', { planning: 'server' });
        await plan('iceNewFilter', ice.url, 'fx', { planning: 'server', filter: FILTER });
        await plan('iceRepeatFilter', ice.url, 'fx', { planning: 'server', filter: FILTER });
        // the floor: the same scans answered from memory with the answers Icefront gave (goal 1)
        const replay = await startReplayServer(ice.url);
        try {
          await planner.plan(replay.url, 'fx', { planning: 'server' });
          await planner.plan(replay.url, 'fx', { planning: 'server', filter: FILTER });
          replay.recording = false;
          await plan('replayAll', replay.url, 'fx', { planning: 'server' });
          await plan('replayFilter', replay.url, 'fx', { planning: 'server', filter: FILTER });
          if (replay.misses > 0) throw new Error(`the replay server was asked ${replay.misses} requests it had not recorded`);
        } finally {
          await replay.close();
        }
      } finally {
        await ice.close();
      }
    }
    await closers.pop()!();
  }

  const m = (client: ClientName, c: Case) => median(times.get(key(client, c))!);
  console.log(`\nmedians of ${RUNS} rounds (ms):`);
  for (const client of CLIENTS)
    for (const c of Object.keys(LABEL) as Case[]) {
      const plans = planTimes.get(key(client, c));
      console.log(`  ${client.padEnd(9)} ${LABEL[c].padEnd(62)} ${m(client, c).toFixed(0).padStart(7)}${plans ? `   (plan_files ${median(plans).toFixed(0)})` : ''}`);
    }
  const goal = (client: ClientName, name: string, over: Case, under: Case, bound: number) => {
    const ratio = m(client, over) / m(client, under);
    return { client, name, value: m(client, over), base: m(client, under), ratio, bound, met: ratio <= bound };
  };
  const goals = CLIENTS.flatMap((client) => [
    goal(client, 'warm plan through Icefront ÷ through the replay server, unfiltered (goal 1: ≤ 1.05)', 'iceWarm', 'replayAll', 1.05),
    goal(client, `repeated ${FILTER} through Icefront ÷ through the replay server (goal 2: ≤ 1.05)`, 'iceRepeatFilter', 'replayFilter', 1.05),
    goal(client, 'first plan through a fresh Icefront ÷ client-side, unfiltered (goal 3: ≤ 1.0)', 'iceFirst', 'clientAll', 1.0),
    goal(client, 'warm plan through Icefront ÷ client-side, unfiltered (goal 3: ≤ 0.6)', 'iceWarm', 'clientAll', 0.6),
    goal(client, `repeated ${FILTER} through Icefront ÷ client-side (goal 3: ≤ 0.15)`, 'iceRepeatFilter', 'clientFiltered', 0.15),
    goal(client, `new filter on a table Icefront has read ÷ client-side (goal 2: ≤ 0.25)`, 'iceNewFilter', 'clientFiltered', 0.25),
  ]);
  console.log('\ngoals (issue #41):');
  for (const g of goals) console.log(`  ${g.client.padEnd(9)} ${g.name}: ${g.value.toFixed(0)} ÷ ${g.base.toFixed(0)} = ${g.ratio.toFixed(2)} (${g.met ? 'met' : 'NOT met'})`);
  console.log(
    JSON.stringify({ bench: 'storage-latency', latencyMs: LATENCY_MS, runs: RUNS, clients: CLIENTS, cpus: os.cpus().length, loadavg: os.loadavg(), times: Object.fromEntries(times), planTimes: Object.fromEntries(planTimes), goals }),
  );
} catch (err) {
  console.error(`storage-latency: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
} finally {
  await closeAll();
}
