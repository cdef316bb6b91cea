/**
 * `npm run bench:storage-latency` (issue #41 goals 2 and 3, pyiceberg's part): planning the
 * bench table when its storage is far away. The table (100 manifests × 1,000 files, 20 columns,
 * metadata only, bench/synthetic-table.ts) lies on S3 (moto, the interop suite's), registered in
 * the Iceberg REST fixture; Toxiproxy (tools/interop/toxiproxy.sh) sits between moto and every
 * reader of manifests, adding BENCH_LATENCY_MS (default 20) each way (a latency toxic on both
 * streams). In BENCH_RUNS (default 3) rounds, each with a fresh Icefront (`rest` in front of the
 * fixture, `planning: local`, `storage.s3` through the proxy), pyiceberg 0.11 in one long-lived
 * process (bench/peer_pyiceberg.py) plans, each timed from load_table to the last planned file:
 *   - client-side: `scan-planning-mode=client` against the fixture, manifests fetched through
 *     the proxy by pyiceberg itself: unfiltered, and `c4 < 1000` (1% of the files by column
 *     metrics, which partition summaries cannot prune);
 *   - server-side through the fresh Icefront: unfiltered (its first plan: every manifest fetched
 *     through the proxy), unfiltered again (warm), then `c4 < 1000` (a new filter on a table it
 *     has read) and `c4 < 1000` again (a repeated scan);
 *   - the floor: the same two walks through a server replaying the answers Icefront gave them,
 *     recorded through it once (bench/replay-server.ts), from memory.
 * Each time is also given for plan_files alone (load_table, through Icefront a call to the
 * fixture, left out). Every plan must list the expected number of files (100,000, or 1,000 filtered); the bench stops
 * otherwise. Printed: medians of the rounds, the goals of #41 that these runs measure with their
 * ratios, and a final JSON line. Needs the interop toolchain and Toxiproxy (both installed by
 * their scripts on first use).
 */
import os from 'node:os';
import path from 'node:path';
import { ensureToolchain, runInstallScript } from '../test/interop/harness/toolchain.js';
import { startMoto } from '../test/interop/harness/moto.js';
import { startRestFixture } from '../test/interop/harness/rest-fixture.js';
import { startToxiproxy, TOXIPROXY_SCRIPT } from '../test/interop/harness/toxiproxy.js';
import { registerTable } from './peer-fixture.js';
import { startReplayServer } from './replay-server.js';
import { startIcefrontChild } from './peer-icefront.js';
import { startPyicebergPlanner, type PyicebergScan } from './peer-pyiceberg.js';
import { median } from './median.js';
import { uploadFolder } from './s3-upload.js';
import { currentMetadataFile, ensureSyntheticTable } from './synthetic-table.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 20);
const FILES = 100_000;
const FILTER = 'c4 < 1000';
const FILTERED_FILES = 1_000;

const closers: (() => Promise<void>)[] = [];
const closeAll = async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
};

type Case = 'clientAll' | 'clientFiltered' | 'iceFirst' | 'iceWarm' | 'iceNewFilter' | 'iceRepeatFilter' | 'replayAll' | 'replayFilter';
const LABEL: Record<Case, string> = {
  clientAll: 'pyiceberg client-side, unfiltered',
  clientFiltered: `pyiceberg client-side, ${FILTER}`,
  iceFirst: 'through a fresh Icefront, unfiltered (its first plan)',
  iceWarm: 'through Icefront, unfiltered again (warm)',
  iceNewFilter: `through Icefront, ${FILTER} (a new filter)`,
  iceRepeatFilter: `through Icefront, ${FILTER} again (repeated)`,
  replayAll: "through a replay of Icefront's answers, unfiltered (the floor)",
  replayFilter: `through a replay of Icefront's answers, ${FILTER}`,
};

try {
  const tc = await ensureToolchain();
  if (!tc.ok) throw new Error(`the interop toolchain is missing: ${tc.missing}`);
  const env = tc.env;
  const built = await runInstallScript(TOXIPROXY_SCRIPT, { offVar: 'ICEFRONT_INTEROP_TOXIPROXY', what: 'Toxiproxy', prefix: 'toxiproxy: missing ', timeoutMs: 20 * 60_000 });
  if (!built.ok) throw new Error(`Toxiproxy is missing: ${built.missing}`);
  const toxiproxy = await startToxiproxy(built.stdout.trim().split('\n').at(-1)!.trim());
  closers.push(toxiproxy.close);

  const table = ensureSyntheticTable({ manifests: 100, entriesPerManifest: 1000, columns: 20, scheme: 's3' });
  const moto = await startMoto(env, ['bench']);
  closers.push(moto.close);
  uploadFolder(env, moto, 'bench', `warehouse/bench/${table.name}/metadata`, path.join(table.root, 'metadata'));
  const fixture = await startRestFixture(env, {
    s3: { warehouse: 's3://bench/warehouse', endpoint: moto.endpoint, region: moto.region, accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey },
  });
  closers.push(() => fixture.close());
  await registerTable(fixture.url, 'bench', table.name, `${table.location}/metadata/${path.basename(currentMetadataFile(table.root))}`);

  // every manifest read, by pyiceberg and by Icefront, goes through the proxy
  const proxy = await toxiproxy.proxy('moto', new URL(moto.endpoint).host);
  for (const stream of ['downstream', 'upstream'] as const)
    await proxy.addToxic({ name: `latency-${stream}`, type: 'latency', stream, attributes: { latency: LATENCY_MS, jitter: 0 } });
  const s3Properties = { 's3.endpoint': proxy.url, 's3.path-style-access': 'true', 's3.region': moto.region, 's3.access-key-id': moto.accessKeyId, 's3.secret-access-key': moto.secretAccessKey };

  const py = startPyicebergPlanner(env);
  closers.push(() => py.close());
  const t = `bench.${table.name}`;
  const times = new Map<Case, number[]>(Object.keys(LABEL).map((k) => [k as Case, []]));
  // plan_files alone (load_table left out): where a difference lies
  const planTimes = new Map<Case, number[]>(Object.keys(LABEL).map((k) => [k as Case, []]));
  const plan = async (what: Case, uri: string, warehouse: string | undefined, scan: PyicebergScan) => {
    const run = await py.plan(uri, warehouse, t, scan);
    const expected = scan.filter ? FILTERED_FILES : FILES;
    if (run.files !== expected) throw new Error(`${LABEL[what]}: planned ${run.files} files, not ${expected}`);
    times.get(what)!.push(run.ms);
    planTimes.get(what)!.push(run.planMs);
    console.log(`  ${LABEL[what].padEnd(66)} ${run.ms.toFixed(0).padStart(7)} ms   (plan_files ${run.planMs.toFixed(0)} ms)`);
  };
  console.log(`storage-latency: the table on moto behind Toxiproxy, +${LATENCY_MS} ms each way; ${os.cpus().length} cores; ${RUNS} rounds`);
  // one untimed client-side plan: pyiceberg's imports and its first catalog
  await py.plan(fixture.url, undefined, t, { planning: 'client', properties: s3Properties });
  for (let round = 1; round <= RUNS; round++) {
    console.log(`round ${round}`);
    await plan('clientAll', fixture.url, undefined, { planning: 'client', properties: s3Properties });
    await plan('clientFiltered', fixture.url, undefined, { planning: 'client', properties: s3Properties, filter: FILTER });
    const ice = await startIcefrontChild(
      `logging: { level: warn }\ncatalogs:\n  fx:\n    type: rest\n    uri: ${JSON.stringify(fixture.url)}\n    planning: local\n` +
        `    storage: { s3: { endpoint: ${JSON.stringify(proxy.url)}, region: ${moto.region}, path-style: true, access-key-id: ${moto.accessKeyId}, secret-access-key: ${moto.secretAccessKey} } }\n`,
    );
    try {
      await plan('iceFirst', ice.url, 'fx', {});
      await plan('iceWarm', ice.url, 'fx', {});
      await plan('iceNewFilter', ice.url, 'fx', { filter: FILTER });
      await plan('iceRepeatFilter', ice.url, 'fx', { filter: FILTER });
      // the floor: the same walks answered from memory with the answers Icefront gave (goal 1)
      const replay = await startReplayServer(ice.url);
      try {
        await py.plan(replay.url, 'fx', t, {});
        await py.plan(replay.url, 'fx', t, { filter: FILTER });
        replay.recording = false;
        await plan('replayAll', replay.url, 'fx', {});
        await plan('replayFilter', replay.url, 'fx', { filter: FILTER });
        if (replay.misses > 0) throw new Error(`the replay server was asked ${replay.misses} requests it had not recorded`);
      } finally {
        await replay.close();
      }
    } finally {
      await ice.close();
    }
  }

  const m = (c: Case) => median(times.get(c)!);
  console.log(`\nmedians of ${RUNS} rounds (ms):`);
  for (const c of Object.keys(LABEL) as Case[]) console.log(`  ${LABEL[c].padEnd(66)} ${m(c).toFixed(0).padStart(7)}   (plan_files ${median(planTimes.get(c)!).toFixed(0)})`);
  const goal = (name: string, over: Case, under: Case, bound: number) => {
    const ratio = m(over) / m(under);
    return { name, value: m(over), base: m(under), ratio, bound, met: ratio <= bound };
  };
  const goals = [
    goal('warm plan through Icefront ÷ through the replay server, unfiltered (goal 1: ≤ 1.05)', 'iceWarm', 'replayAll', 1.05),
    goal(`repeated ${FILTER} through Icefront ÷ through the replay server (goal 2: ≤ 1.05)`, 'iceRepeatFilter', 'replayFilter', 1.05),
    goal('first plan through a fresh Icefront ÷ client-side, unfiltered (goal 3: ≤ 1.0)', 'iceFirst', 'clientAll', 1.0),
    goal('warm plan through Icefront ÷ client-side, unfiltered (goal 3: ≤ 0.6)', 'iceWarm', 'clientAll', 0.6),
    goal(`repeated ${FILTER} through Icefront ÷ client-side (goal 3: ≤ 0.15)`, 'iceRepeatFilter', 'clientFiltered', 0.15),
    goal(`new filter on a table Icefront has read ÷ client-side (goal 2: ≤ 0.25)`, 'iceNewFilter', 'clientFiltered', 0.25),
  ];
  console.log('\ngoals (issue #41), pyiceberg:');
  for (const g of goals) console.log(`  ${g.name}: ${g.value.toFixed(0)} ÷ ${g.base.toFixed(0)} = ${g.ratio.toFixed(2)} (${g.met ? 'met' : 'NOT met'})`);
  console.log(JSON.stringify({ bench: 'storage-latency', latencyMs: LATENCY_MS, runs: RUNS, cpus: os.cpus().length, loadavg: os.loadavg(), times: Object.fromEntries(times), planTimes: Object.fromEntries(planTimes), goals }));
} catch (err) {
  console.error(`storage-latency: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
} finally {
  await closeAll();
}
