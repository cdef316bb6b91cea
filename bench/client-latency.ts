/**
 * `npm run bench:client-latency` (issue #41 goal 3, its second part, and goal 1): Spark far from
 * Icefront, Icefront near the data. The bench table (100 manifests × 1,000 files, 20 columns, metadata
 * only, `file://` locations: bench/synthetic-table.ts) is registered in the Iceberg REST fixture;
 * Icefront (`rest` in front of it, `planning: local`, `storage.local` roots, planning settings
 * from BENCH_ICEFRONT_PLANNING, a YAML flow map, default none) reads the manifests from local disk.
 * Spark (Iceberg 1.11, bench/peer_spark.py, one JVM, local[1]) reaches Icefront through one of
 * two Toxiproxy proxies: `far` adds BENCH_LATENCY_MS (default 20) each way (a latency toxic on
 * both streams), `near` adds nothing (so both paths cross a proxy, and only the latency differs).
 * The same two paths lead to a server replaying the answers Icefront gave (bench/replay-server.ts,
 * recorded through it once): the floor, where the round trips are all that is left.
 *
 * After one warm-up per path (counting the file tasks: 100,000, or the bench stops), BENCH_RUNS
 * (default 5) rounds, each planning the unfiltered scan through the four paths in turn, timed
 * from spark.table through getNumPartitions (the scan's file tasks planned, no data read). Every
 * timed run through Icefront must send one /plan and the same number of /tasks (read from its
 * request log). Printed: medians, the ratio far ÷ near for Icefront (goal 3: ≤ 1.15) and for the
 * replay, Icefront ÷ the replay with no added latency (goal 1, at the floor: ≤ 1.05), the number
 * of answers a plan takes, and a final JSON line with the goals.
 */
import os from 'node:os';
import path from 'node:path';
import { startRestFixture } from '../test/interop/harness/rest-fixture.js';
import { toolchainAndToxiproxy } from './toolchain-toxiproxy.js';
import { registerTable } from './peer-fixture.js';
import { startIcefrontChild } from './peer-icefront.js';
import { startSparkPlanner, type SparkCatalog } from './peer-spark.js';
import { startReplayServer } from './replay-server.js';
import { median } from './median.js';
import { currentMetadataFile, ensureSyntheticTable } from './synthetic-table.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 20);
const PLANNING = process.env['BENCH_ICEFRONT_PLANNING'] ?? '';
const SPARK_DRIVER_MEMORY = process.env['BENCH_PEER_SPARK_DRIVER_MEMORY'] ?? '4g';
const FILES = 100_000;

type Path = 'iceNear' | 'iceFar' | 'replayNear' | 'replayFar';
const LABEL: Record<Path, string> = {
  iceNear: 'Spark → Icefront, no added latency',
  iceFar: `Spark → Icefront, +${LATENCY_MS} ms each way`,
  replayNear: 'Spark → replay of its answers, no added latency',
  replayFar: `Spark → replay of its answers, +${LATENCY_MS} ms each way`,
};

const closers: (() => Promise<void>)[] = [];
try {
  const { env, toxiproxy } = await toolchainAndToxiproxy();
  closers.push(toxiproxy.close);

  const table = ensureSyntheticTable({ manifests: 100, entriesPerManifest: 1000, columns: 20, scheme: 'file' });
  const fixture = await startRestFixture(env, {});
  closers.push(() => fixture.close());
  await registerTable(fixture.url, 'bench', table.name, `${table.location}/metadata/${path.basename(currentMetadataFile(table.root))}`);
  const ice = await startIcefrontChild(
    `logging: { level: warn }\n${PLANNING ? `planning: ${PLANNING}\n` : ''}catalogs:\n  fx:\n    type: rest\n    uri: ${JSON.stringify(fixture.url)}\n    planning: local\n` +
      `    storage: { local: { roots: [${JSON.stringify(table.warehouse)}] } }\n`,
  );
  closers.push(() => ice.close());
  const replay = await startReplayServer(ice.url);
  closers.push(() => replay.close());

  const proxies = {
    iceNear: await toxiproxy.proxy('ice-near', new URL(ice.url).host),
    iceFar: await toxiproxy.proxy('ice-far', new URL(ice.url).host),
    replayNear: await toxiproxy.proxy('replay-near', new URL(replay.url).host),
    replayFar: await toxiproxy.proxy('replay-far', new URL(replay.url).host),
  } satisfies Record<Path, unknown>;
  for (const far of [proxies.iceFar, proxies.replayFar])
    for (const stream of ['downstream', 'upstream'] as const) await far.addToxic({ name: `latency-${stream}`, type: 'latency', stream, attributes: { latency: LATENCY_MS, jitter: 0 } });

  const spark = startSparkPlanner(env, SPARK_DRIVER_MEMORY);
  closers.push(() => spark.close());
  const t = `bench.${table.name}`;
  const catalog = (p: Path): SparkCatalog => ({ name: p, uri: proxies[p].url, warehouse: 'fx', planning: 'server' });
  const sent = async (before: { plan: number; tasks: number }) => {
    await new Promise((r) => setTimeout(r, 300)); // the request lines reach the log
    return { plan: ice.count('/plan') - before.plan, tasks: ice.count('/tasks') - before.tasks };
  };

  console.log(`client-latency: Spark ${LATENCY_MS} ms each way from Icefront, Icefront on local disk; ${os.cpus().length} cores; ${RUNS} rounds${PLANNING ? `; planning: ${PLANNING}` : ''}`);
  // warm-ups: the JVM and each catalog; the replay records Icefront's answers on its first
  let answers: { plan: number; tasks: number } | undefined;
  for (const p of Object.keys(LABEL) as Path[]) {
    if (p === 'replayNear') replay.recording = true;
    const before = { plan: ice.count('/plan'), tasks: ice.count('/tasks') };
    const warm = await spark.plan(catalog(p), t, { countFiles: true });
    if (p === 'replayNear') replay.recording = false;
    if (warm.files !== FILES) throw new Error(`${LABEL[p]}: Spark planned ${warm.files} file tasks, not ${FILES}`);
    if (p === 'iceNear') answers = await sent(before);
    console.log(`  warm-up ${LABEL[p].padEnd(52)} ${warm.ms.toFixed(0).padStart(6)} ms`);
  }
  const times = new Map<Path, number[]>(Object.keys(LABEL).map((p) => [p as Path, []]));
  for (let round = 1; round <= RUNS; round++) {
    for (const p of Object.keys(LABEL) as Path[]) {
      const before = { plan: ice.count('/plan'), tasks: ice.count('/tasks') };
      const run = await spark.plan(catalog(p), t);
      if (p.startsWith('ice')) {
        const got = await sent(before);
        if (got.plan !== 1 || got.tasks !== answers!.tasks) throw new Error(`${LABEL[p]}: a run sent ${got.plan} /plan and ${got.tasks} /tasks, the warm-up 1 and ${answers!.tasks}`);
      }
      times.get(p)!.push(run.ms);
    }
    console.log(`  round ${round}: ${(Object.keys(LABEL) as Path[]).map((p) => `${p} ${times.get(p)!.at(-1)!.toFixed(0)}`).join(', ')} ms`);
  }
  if (replay.misses > 0) throw new Error(`the replay server was asked ${replay.misses} requests it had not recorded`);

  const m = (p: Path) => median(times.get(p)!);
  console.log(`\nmedians of ${RUNS} rounds; a plan is 1 /plan + ${answers!.tasks} /tasks answers:`);
  for (const p of Object.keys(LABEL) as Path[]) console.log(`  ${LABEL[p].padEnd(56)} ${m(p).toFixed(0).padStart(6)} ms`);
  const goals = [
    { name: `Spark through Icefront, +${LATENCY_MS} ms each way ÷ no added latency (goal 3: ≤ 1.15)`, value: m('iceFar'), base: m('iceNear'), bound: 1.15 },
    { name: `the same through the replay server (the floor; no bound)`, value: m('replayFar'), base: m('replayNear'), bound: Infinity },
    { name: 'Spark through Icefront ÷ through the replay server, no added latency (goal 1: ≤ 1.05)', value: m('iceNear'), base: m('replayNear'), bound: 1.05 },
  ].map((g) => ({ ...g, ratio: g.value / g.base, met: g.value / g.base <= g.bound }));
  console.log('\ngoals (issue #41):');
  for (const g of goals) console.log(`  ${g.name}: ${g.value.toFixed(0)} ÷ ${g.base.toFixed(0)} = ${g.ratio.toFixed(2)}${Number.isFinite(g.bound) ? ` (${g.met ? 'met' : 'NOT met'})` : ''}`);
  console.log(
    JSON.stringify({
      bench: 'client-latency',
      latencyMs: LATENCY_MS,
      runs: RUNS,
      planning: PLANNING,
      answers: 1 + answers!.tasks,
      cpus: os.cpus().length,
      loadavg: os.loadavg(),
      times: Object.fromEntries(times),
      goals: goals.map((g) => ({ ...g, bound: Number.isFinite(g.bound) ? g.bound : null })),
    }),
  );
} catch (err) {
  console.error(`client-latency: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
} finally {
  for (const close of closers.reverse()) await close().catch(() => undefined);
}
