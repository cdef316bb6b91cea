/**
 * `npm run bench:soak -- --minutes N` (issue #43; default 30 minutes; `--ci` for the 2-minute form
 * `.ci/run` runs, `--tap FILE` to write its TAP): Icefront under mixed load and scheduled faults on
 * this machine (loopback), ending with one JSON line whose `goals` array holds each figure
 * ({name, value, bound, met}).
 *
 * What runs:
 *   load (bench/soak/load.ts, pyiceberg.ts)
 *      │  undici: config, listings, load-table with If-None-Match, HEAD, /plan (filtered and not)
 *      │  + every /tasks; appends and schema changes (Icefront's commit route, several writers per
 *      │  catalog); the hostile corpus and its raw framings (to replica a directly); a principal
 *      │  who may not. pyiceberg (2 workers): appends of
 *      │  known rows through Icefront to each catalog kind.
 *      ▼
 *   nginx (Debian's; round robin, the blocks docs/deployment.md shows)
 *      ▼
 *   Icefront a and b (dist/, as operators run a pair: one config, one plan-task secret; a's
 *   inspector on, for heap-after-GC and event-loop figures; b is the one the schedule kills)
 *      ├─ up:   type rest ──▶ Toxiproxy ──▶ Iceberg REST fixture (JDBC/SQLite, file:// warehouse)
 *      ├─ fs:   type filesystem (writable, a temp warehouse)
 *      ├─ pg:   type sql on PostgreSQL (a temporary cluster: test/helpers/postgres.ts), its
 *      │        warehouse on S3: ──▶ Toxiproxy ──▶ moto (pyiceberg writes its data files there too)
 *      └─ demo: the read-only demo warehouse (the hostile corpus' target)
 *   auth: two principals (`writer`: every catalog, write, /metrics; `reader`: reads of up, fs, demo
 *   only), a per-principal rate and in-flight limit, the rest catalog's in-flight/queue limits.
 *
 * Faults (bench/soak/faults.ts): latency under and over the request timeout, S3 slowed, a bandwidth limit,
 * connections reset, connections cut mid-body, a timeout toxic, the upstream down 30 s then back,
 * the fixture restarted (its catalog, a SQLite file, and warehouse kept), Icefront b killed
 * (SIGKILL) and started again, SIGHUP to both with a changed config (twice a cycle). Goals
 * (bench/soak/goals.ts): every request answered
 * within its deadline + 1 s, every error an ErrorModel, no 5xx but mapped upstream faults while
 * one is on; nothing lost (read back through independent readers: the fixture itself, the
 * filesystem warehouse's own metadata files, the PostgreSQL catalog tables, pyiceberg on each);
 * RSS slope, heap after GC, fds and sockets flat; recovery within two readiness intervals; the
 * event loop's p99; the status page showing each fault.
 *
 * Left out of issue #43's list (not built here): Spark as a client (its JVM would take most of the
 * two cores). The inspector is on in Icefront's process (not what an operator runs) because
 * nothing else can force a GC (bench/soak/process.ts).
 *
 * `--samples FILE` writes every sample (RSS, heaps, caches, fds, the event loop) and the fault windows
 * as JSON; `--screenshot FILE` the status page at the end, as Debian's chromium shows it (PNG).
 * `--planning-cache-bytes N` and `--metadata-cache-bytes N` set those budgets in Icefront's config
 * (default: Icefront's own, 256 MiB and 64 MiB per own catalog): with small ones the caches are
 * full early, so what the memory goals then see growing is not a cache filling toward its budget.
 * SOAK_NODE_ARGS (space-separated) are extra Node and V8 flags for the Icefront processes, to try a
 * heap setting (`--max-semi-space-size=8`, say) under the same load.
 *
 * Needs a build (`npm run build`: the npm script runs it), the interop toolchain
 * (tools/interop/setup.sh), Toxiproxy (tools/interop/toxiproxy.sh), Debian's postgresql and
 * Debian's nginx (tools/bench/setup.sh, which the bench runs: it does nothing when nginx is there).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startPostgres } from '../test/helpers/postgres.js';
import { ClientWorker } from '../test/interop/harness/clients.js';
import { ensureNginx } from '../test/interop/harness/nginx.js';
import { startMoto } from '../test/interop/harness/moto.js';
import { startRestFixture } from '../test/interop/harness/rest-fixture.js';
import { DEMO_WAREHOUSE } from '../test/service/planning/helpers.js';
import { toolchainAndToxiproxy } from './toolchain-toxiproxy.js';
import { READER_TOKEN, writeConfig, WRITER_TOKEN, type ConfigInputs } from './soak/config.js';
import { runSchedule, type FaultWindow } from './soak/faults.js';
import { judgeGoals, tapOf } from './soak/goals.js';
import { Judge } from './soak/judge.js';
import { appender, CATALOGS, forbidden, generation, hostile, NAMESPACE, newTally, rawFramings, reader, schemaChanger, type Generation, type LoadContext } from './soak/load.js';
import { IcefrontPair } from './soak/pair.js';
import { checkRows, pyicebergWriter, type BatchRecord } from './soak/pyiceberg.js';
import { Sampler } from './soak/samples.js';
import { checkCommits } from './soak/verify-commits.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    ci: { type: 'boolean', default: false },
    tap: { type: 'string' },
    dist: { type: 'string' },
    samples: { type: 'string' },
    screenshot: { type: 'string' },
    'planning-cache-bytes': { type: 'string' },
    'metadata-cache-bytes': { type: 'string' },
  },
});
const MINUTES = Number(values.minutes);
if (!(MINUTES > 0)) throw new Error(`--minutes: not a positive number: ${values.minutes}`);
const CI = values.ci;
/** A byte count option, or undefined (Icefront's default) when absent. */
const bytesOption = (name: string, value: string | undefined) => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name}: not a byte count: ${value}`);
  return n;
};
const PLANNING_CACHE_BYTES = bytesOption('planning-cache-bytes', values['planning-cache-bytes']);
const METADATA_CACHE_BYTES = bytesOption('metadata-cache-bytes', values['metadata-cache-bytes']);
const SHORT = MINUTES < 5;
/** A new pair of tables per catalog this often, so no table's metadata grows without end. */
const GENERATION_MS = 5 * 60_000;
/** moto's bucket, where the `sql` catalog's warehouse is. */
const S3_BUCKET = 'soak';
const MiB = 1024 * 1024;
const log = (line: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const cleanups: (() => Promise<void> | void)[] = [];
async function cleanup(): Promise<void> {
  for (const c of cleanups.reverse()) {
    try {
      await c();
    } catch (err) {
      log(`cleanup: ${(err as Error).message}`);
    }
  }
}

async function main(): Promise<number> {
  const dist = values.dist ? path.resolve(values.dist) : path.resolve(import.meta.dirname, '../dist');
  if (!fs.existsSync(path.join(dist, 'cli.js'))) throw new Error(`${dist}/cli.js is missing: run \`npm run build\` first`);
  log('starting: toolchain, Toxiproxy, nginx, PostgreSQL, moto, the REST fixture');
  const { env, toxiproxy } = await toolchainAndToxiproxy();
  const nginx = await ensureNginx();
  if (!nginx.ok) throw new Error(`the pair's balancer: ${nginx.why}`);
  cleanups.push(() => toxiproxy.close());
  const pg = await startPostgres();
  cleanups.push(() => pg.stop());
  const fixture = await startRestFixture(env);
  cleanups.push(() => fixture.close());
  const proxy = await toxiproxy.proxy('fixture', new URL(fixture.url).host);
  const moto = await startMoto(env, [S3_BUCKET]);
  cleanups.push(() => moto.close());
  const s3Proxy = await toxiproxy.proxy('moto', new URL(moto.endpoint).host);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-soak-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const inputs: ConfigInputs = {
    file: path.join(dir, 'icefront.yaml'),
    proxyUrl: proxy.url,
    fixtureWarehouseDir: fixture.warehouseDir,
    fsWarehouse: path.join(dir, 'fs-warehouse'),
    pgUri: pg.uri(),
    pgWarehouse: `s3://${S3_BUCKET}/pg`,
    s3: { endpoint: s3Proxy.url, region: moto.region, accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey },
    demoWarehouse: DEMO_WAREHOUSE,
    ...(PLANNING_CACHE_BYTES !== undefined && { planningCacheBytes: PLANNING_CACHE_BYTES }),
    ...(METADATA_CACHE_BYTES !== undefined && { metadataCacheBytes: METADATA_CACHE_BYTES }),
  };
  fs.mkdirSync(inputs.fsWarehouse);
  writeConfig(inputs, 0);
  const pair = await IcefrontPair.start(inputs.file, dist);
  cleanups.push(() => pair.close());
  const icefront = pair.a; // the replica sampled
  log(`Icefront a ${icefront.url} (pid ${icefront.pid}) and b ${pair.b.url} behind nginx ${pair.url}; fixture ${fixture.url} through ${proxy.url}; moto ${moto.endpoint} through ${s3Proxy.url}`);

  const judge = new Judge(pair.url);
  cleanups.push(() => judge.close());
  const writer = { authorization: `Bearer ${WRITER_TOKEN}` };
  const principals = { writer, reader: { authorization: `Bearer ${READER_TOKEN}` } };

  /** Tables of generation `id` in every catalog (the namespace first, once); retried through faults. */
  const createGeneration = async (id: number): Promise<Generation> => {
    const g = generation(id);
    for (const catalog of CATALOGS) {
      const steps: [string, string][] = [
        ...(id === 0 ? ([[`/v1/${catalog}/namespaces`, JSON.stringify({ namespace: [NAMESPACE], properties: {} })]] as [string, string][]) : []),
        [`/v1/${catalog}/namespaces/${NAMESPACE}/tables`, JSON.stringify({ name: g.synth(catalog), schema: { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: false, type: 'long' }] }, properties: { 'format-version': '2' } })],
        [`/v1/${catalog}/namespaces/${NAMESPACE}/tables`, JSON.stringify({ name: g.rows(catalog), schema: { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: false, type: 'long' }, { id: 2, name: 'batch', required: false, type: 'long' }] }, properties: { 'format-version': '2' } })],
      ];
      for (const [route, body] of steps)
        for (let attempt = 0; ; attempt++) {
          const a = await judge.send('setup', catalog, 'POST', route, { headers: { ...writer, 'content-type': 'application/json' }, body });
          if (a.status === 200 || a.status === 409) break; // 409: it exists (an earlier attempt's answer was lost)
          if (attempt > 200) throw new Error(`setup ${route}: ${a.status} ${a.text.slice(0, 300)}`);
          await new Promise((r) => setTimeout(r, 500));
        }
    }
    return g;
  };
  const generations = [await createGeneration(0)];

  let running = true;
  const startedAt = Date.now();
  const endAt = startedAt + MINUTES * 60_000;
  const tally = newTally();
  const ctx: LoadContext = { judge, principals, tally, replica: icefront.url, current: () => generations.at(-1)!, running: () => running && pair.isAlive() };
  const sampler = new Sampler(icefront, 5000, SHORT ? 30_000 : 60_000, writer);
  await sampler.tick(true); // the first sample, with a GC
  sampler.start();

  const batches: BatchRecord[] = [];
  const pyWorkers = [ClientWorker.start(env), ClientWorker.start(env)];
  cleanups.push(() => Promise.all(pyWorkers.map((w) => w.close())).then(() => undefined));
  const load: Promise<void>[] = [
    ...[0, 1, 2].map((id) => reader(ctx, id, 100)),
    forbidden(ctx),
    hostile(ctx),
    rawFramings(ctx),
    ...CATALOGS.flatMap((c) => [appender(ctx, c, 500), appender(ctx, c, 500), schemaChanger(ctx, c, 2000)]),
    ...pyWorkers.map((w) => pyicebergWriter(ctx, w, pair.url, { 's3.access-key-id': moto.accessKeyId, 's3.secret-access-key': moto.secretAccessKey }, batches, 1000)),
  ];
  const rolling = (async () => {
    while (running && Date.now() + GENERATION_MS < endAt) {
      await new Promise((r) => setTimeout(r, GENERATION_MS - ((Date.now() - startedAt) % GENERATION_MS)));
      if (!running) return;
      generations.push(await createGeneration(generations.length));
      log(`generation ${generations.length - 1}: new tables`);
    }
  })();

  const windows: FaultWindow[] = [];
  let variant: 0 | 1 = 0;
  log(`load on; faults for ${MINUTES} min`);
  await new Promise((r) => setTimeout(r, SHORT ? 3000 : 20_000)); // the load warms before the first fault
  await runSchedule(
    {
      proxy,
      s3Proxy,
      judge,
      adminHeaders: writer,
      toxicMs: SHORT ? 6000 : 15_000,
      quietMs: SHORT ? 6000 : 12_000,
      endAt,
      restartUpstream: () => fixture.restart(),
      killReplica: () => pair.killAndRestartB(),
      statusBase: icefront.url,
      reload: (v) => {
        variant = v;
        writeConfig(inputs, variant);
        pair.signal('SIGHUP');
      },
      alive: () => pair.isAlive(),
    },
    windows,
  ).catch((err: unknown) => log(`schedule stopped: ${(err as Error).message}`));
  for (const w of windows) log(`fault ${w.name}: ${((w.end - w.start) / 1000).toFixed(1)} s, ready +${w.readyAfterMs ?? '∞'} ms`);
  while (Date.now() < endAt && pair.isAlive()) await new Promise((r) => setTimeout(r, 250));
  running = false;
  log('load off; waiting for the last requests');
  await Promise.all([...load, rolling]);
  const endedAt = Date.now();
  sampler.stop();
  await sampler.final();
  const alive = pair.isAlive();
  const dead = [pair.a, pair.b].find((x) => !x.isAlive());
  const exit = dead && (await dead.exited);
  if (values.samples) fs.writeFileSync(values.samples, JSON.stringify({ startedAt, endedAt, windows, samples: sampler.samples, gcSamples: sampler.gcSamples }));
  if (values.screenshot && alive) log(await screenshot(icefront.url, writer, values.screenshot));

  log('reading every table back through the independent readers');
  // moto straight, not through Toxiproxy: the readers afterwards are not under test
  const stores = { fixtureUrl: fixture.url, fsWarehouse: inputs.fsWarehouse, pgUri: pg.uri(), pgWarehouse: inputs.pgWarehouse, s3: { ...inputs.s3, endpoint: moto.endpoint } };
  const commits = await checkCommits(generations, tally.appends, tally.schemas, { fixtureUrl: fixture.url, fsWarehouse: inputs.fsWarehouse, pg, s3: stores.s3 });
  const rows = await checkRows(env, stores, generations, batches);

  const goals = judgeGoals({ judge, tally, windows, samples: sampler.samples, gcSamples: sampler.gcSamples, loop: sampler.loop, startedAt, endedAt, alive, ...(exit && { exitedWith: `${exit.code ?? exit.signal}` }), commits, rows, pair: { aAddress: new URL(icefront.url).host, bAddress: pair.bAddress, restarts: pair.restarts }, budgets: { planningMB: (PLANNING_CACHE_BYTES ?? 256 * MiB) / MiB, metadataMB: (METADATA_CACHE_BYTES ?? 64 * MiB) / MiB } });
  const statuses = Object.fromEntries([...judge.byStatus].sort(([a], [b]) => a - b));
  const header = [
    `soak: ${MINUTES} min, ${judge.total} requests (${(judge.total / ((endedAt - startedAt) / 1000)).toFixed(0)}/s); outcomes ${JSON.stringify(Object.fromEntries(judge.byOutcome))}; statuses ${JSON.stringify(statuses)}`,
    `requests by kind ${JSON.stringify(Object.fromEntries(judge.byKind))}; plans ${tally.plans}, tasks ${tally.tasks}, 304s ${tally.notModified}; hostile sent ${tally.hostile} (${tally.hostileNotSent} undici would not write), raw framings ${tally.raw}, forbidden ${tally.forbidden}`,
    `commits: appends ${JSON.stringify(commits.appends)}, schema changes ${JSON.stringify(commits.schemas)}, pyiceberg batches ${JSON.stringify(rows.batches)}; rows read back ${commits.rows} synthetic + ${rows.rows} pyiceberg`,
    `faults: ${windows.map((w) => `${w.name} (${((w.end - w.start) / 1000).toFixed(0)} s)`).join(', ')}`,
    `samples: ${sampler.samples.length} (every 5 s), forced GCs ${sampler.gcSamples.length}; generations of tables ${generations.length}`,
  ];
  for (const h of header) console.log(`# ${h}`);
  for (const g of goals) console.log(`${g.met ? 'met    ' : 'NOT MET'} ${g.name}: ${g.value} (bound ${g.bound})${g.detail ? `\n          ${g.detail}` : ''}`);
  if (values.tap) fs.writeFileSync(values.tap, tapOf(goals, CI, header));
  const counted = goals.filter((g) => !CI || g.correctness);
  console.log(JSON.stringify({ bench: 'soak', minutes: MINUTES, ci: CI, requests: judge.total, goals: goals.map(({ name, value, bound, met }) => ({ name, value, bound, met })) }));
  if (dead) log(`Icefront ${dead === pair.a ? 'a' : 'b'}'s last output:\n${dead.log().slice(-3000)}`);
  return counted.every((g) => g.met) ? 0 : 1;
}

/** The status page at the end of the run, as a browser shows it (Debian's chromium: tools/browser/setup.sh), as a PNG. */
async function screenshot(url: string, headers: Record<string, string>, file: string): Promise<string> {
  const chromium = '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) return `no screenshot: ${chromium} is missing (bash tools/browser/setup.sh installs it)`;
  const { chromium: launcher } = await import('playwright-core');
  const browser = await launcher.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1300 }, extraHTTPHeaders: headers });
    await page.goto(`${url}/`, { waitUntil: 'load', timeout: 15_000 });
    await page.screenshot({ path: file }); // the first screenful: catalogs, caches, requests per minute by route
    return `the status page at the end of the run: ${file}`;
  } finally {
    await browser.close();
  }
}

let code = 1;
try {
  code = await main();
} catch (err) {
  log(`failed: ${(err as Error).stack ?? String(err)}`);
  if (values.tap) fs.writeFileSync(values.tap, `TAP version 14\n# Subtest: soak\n    1..0\nnot ok 1 - soak: ${String((err as Error).message).split('\n')[0]}\n1..1\n# { total: 1, pass: 0, fail: 1 }\n`);
} finally {
  await cleanup();
}
process.exit(code);
