/**
 * Commits under races and crashes (issue #40, "Races" and "Crashes"), with real pyiceberg writers
 * and Icefront as real processes on the three writable stores:
 *
 *   pyiceberg writers ──REST──▶ Icefront replicas ──┬─ sql on PostgreSQL (3 replicas, one database)
 *   (clients/race_writer.py,    (one config each:   ├─ sql on SQLite     (2 replicas, one file)
 *    one process per writer)     same token secret) └─ filesystem        (2 replicas, one folder)
 *
 *   independent reader, never through Icefront: pyiceberg's SqlCatalog straight on the database;
 *   for the folder, pyiceberg's StaticTable on the highest `v<N>.metadata.json` present (what
 *   Iceberg's HadoopCatalog takes as current when the hint lags)
 *
 * Races: `ICEFRONT_RACE_WRITERS` (8) writers, round robin over the replicas, each making
 * `ICEFRONT_RACE_APPENDS` (10) appends to one table, all let go at once once every writer has
 * loaded the table. Append k of writer w holds the ids w·1,000,000 + k·100 + j, j < 1 + k mod 10.
 * pyiceberg 0.12.0 as installed retries a 409 itself, as Iceberg Java does
 * (`commit.retry.num-retries`, 4 by default: it refreshes the table and rebuilds its snapshot on
 * the new parent, logging a warning the writer counts); when it gives up (CommitFailedException)
 * the writer reloads the table and appends the same rows again, and counts that 409 too.
 * Afterwards the independent reader must find exactly the acknowledged rows, each id once (a
 * retried append landed once), no other id, one snapshot per acknowledged append, and 409s must
 * have been answered (with 4 writers or more; else the race was not exercised). Every replica
 * loads the reader's current metadata file, and a server-side plan through one names exactly the
 * reader's data files.
 *
 * Crashes: one Icefront per store, `ICEFRONT_CRASH_WRITERS` (4) writers appending until told to
 * stop, and Icefront killed (SIGKILL) `ICEFRONT_CRASH_KILLS` (20) times, each 100–600 ms after the
 * process it kills started listening, restarted at once on the same port. A writer takes a
 * refused or broken connection or a 5xx as "unknown" (recorded with its ids; it reloads and goes
 * on with new ids), a 200 as acknowledged. Afterwards: every acknowledged append present exactly
 * once; every unknown one wholly present or wholly absent (a refused one absent); no other id; a
 * fresh Icefront (the harness's process, default planning workers) loads the table at the
 * reader's metadata file and snapshot, and its server-side plan (`POST …/plan`, every plan task
 * redeemed at `/tasks`, batch size 4) lists exactly the data files the reader's scan uses.
 *
 * Both, on the metadata: every file the metadata log names, and the current one, exist; their
 * version numbers follow one another; the snapshots form one line (each the parent of the next:
 * no commit applied on a stale parent); sql: one iceberg_tables row whose
 * previous_metadata_location is the log's last entry; filesystem: exactly v1…vN in the folder, the
 * hint at most N. No visible `.tmp` file and no unparsable `*.metadata.json` in the metadata folder
 * (hidden `.…tmp` files a SIGKILL can leave are counted and printed, not failed).
 *
 * Processes: the replicas are the harness's (icefront-process.ts). The killed process is
 * `node --import tsx src/cli.ts serve --port <fixed>` started here (the harness always asks for
 * port 0). Both run `planning.workers: 0`: each planning worker thread loads tsx and the sources
 * again, which doubles a start on this 2-core machine (≈ 1.5 s instead of ≈ 3 s, twenty times per
 * store), and commits never use them; the fresh verifier keeps the default workers. Writers are
 * processes, not threads: each is an independent client with its own HTTP connections, as separate
 * engines are, and pyarrow's and pyiceberg's CPU work (Parquet, Avro, metadata parsing) runs in
 * parallel instead of under one GIL; eight cost ≈ 1 s of CPU each to start, once per scenario.
 *
 * Counts per store (appends acknowledged, 409s, unknowns and how each resolved, kills, duration)
 * are printed and written to .interop/commit-races.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { freePort } from '../helpers/free-port.js';
import { postgresMissing, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { startIcefrontProcess, type IcefrontProcess } from './harness/icefront-process.js';
import { Tail } from './harness/processes.js';
import { RemoteScanClient } from './harness/remote-scan-client.js';
import { interopToolchain, REPO, type InteropEnv } from './harness/toolchain.js';

// Warm, the file takes a few minutes; a cold toolchain setup (pip + Maven) needs more.
t.setTimeout(15 * 60_000);

const envInt = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const RACE_WRITERS = envInt('ICEFRONT_RACE_WRITERS', 8);
const RACE_APPENDS = envInt('ICEFRONT_RACE_APPENDS', 10);
const CRASH_WRITERS = envInt('ICEFRONT_CRASH_WRITERS', 4);
const CRASH_KILLS = envInt('ICEFRONT_CRASH_KILLS', 20);

const WRITER_SCRIPT = path.join(REPO, 'test/interop/clients/race_writer.py');
const CLI = path.join(REPO, 'src/cli.ts');
const TABLE = 'db.t';
const TABLE_PATH = '/v1/lake/namespaces/db/tables/t';
const SCHEMA = {
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 1, name: 'id', required: false, type: 'long' },
    { id: 2, name: 'w', required: false, type: 'long' },
    { id: 3, name: 'k', required: false, type: 'long' },
  ],
};

type Kind = 'postgres' | 'sqlite' | 'filesystem';

/** A store as the Icefront config names it and as the independent reader opens it. */
interface Store {
  readonly kind: Kind;
  /** The `lake` catalog's YAML (flow style). */
  readonly catalogYaml: string;
  /** race_writer.py's read catalog. */
  readonly reader: Record<string, string>;
  /** The table's metadata folder. */
  readonly metadataDir: string;
}

/** [k, first id, rows, attempts] */
type Acked = [number, number, number, number];
/** [k, first id, rows, cause] */
type Unknown = [number, number, number, string];
interface WriterResult {
  writer: number;
  acked: Acked[];
  unknown: Unknown[];
  conflicts: number;
  engineRetries: number;
  reloadFailures: number;
  seconds: number;
  error: string | null;
}
interface ReadResult {
  metadataLocation: string;
  metadataLog: string[];
  ids: number[];
  files: string[];
  snapshots: Array<[number, number]>;
  currentSnapshotId: string | null;
  chain: Array<[string, string | null]>;
  store: { rows?: Array<[string, string | null]>; versions?: number[]; hint?: string | null };
}

/** One line of the summary. */
interface Counts {
  scenario: 'race' | 'crash';
  kind: Kind;
  replicas: number;
  writers: number;
  acked: number;
  rows: number;
  conflicts: number;
  engineRetries: number;
  unknown: Record<string, { present: number; absent: number }>;
  kills: number;
  hiddenTemps: number;
  seconds: number;
}
const summary: Counts[] = [];

const ids = (first: number, rows: number): number[] => Array.from({ length: rows }, (_, j) => first + j);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fileOf = (location: string) => (location.startsWith('file:') ? new URL(location).pathname : location);

// ---------------------------------------------------------------------------------------------
// Child processes

/** Every child this file started and has not seen exit: killed (by pid) if the file dies first. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** race_writer.py with one job; its JSON result line, or an error quoting its stderr. */
function python<T>(env: InteropEnv, job: object, timeoutMs: number, onReady?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(env.python, [WRITER_SCRIPT, JSON.stringify(job)], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONUNBUFFERED: '1' } });
    children.add(child);
    let stdout = '';
    const stderr = new Tail(8_000);
    let ready = false;
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => {
      stderr.push(c);
      if (!ready && /^READY$/m.test(stderr.toString())) {
        ready = true;
        onReady?.();
      }
      if (process.env['ICEFRONT_INTEROP_VERBOSE']) process.stderr.write(c);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as T);
      else reject(new Error(`race_writer.py ${JSON.stringify(job).slice(0, 200)} exited ${code ?? signal}:\n${stderr.toString()}`));
    });
  });
}

/** Icefront on a fixed port (src/cli.ts through tsx, as harness/icefront-process.ts runs it). */
interface PinnedIcefront {
  readonly pid: number;
  readonly exited: Promise<void>;
  kill(): void;
  log(): string;
}

async function startPinned(configFile: string, port: number): Promise<PinnedIcefront> {
  for (let attempt = 1; ; attempt++) {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--config', configFile, '--port', String(port)], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const out = new Tail(16_000);
    const exited = new Promise<void>((resolve) => child.once('exit', () => (children.delete(child), resolve())));
    child.stderr!.on('data', (c: Buffer) => out.push(c));
    const listening = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 60_000);
      child.stdout!.on('data', (c: Buffer) => {
        out.push(c);
        if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(out.toString())) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      void exited.then(() => (clearTimeout(timer), resolve(false)));
    });
    if (listening) return { pid: child.pid!, exited, kill: () => child.kill('SIGKILL'), log: () => out.toString() };
    child.kill('SIGKILL');
    await exited;
    // the port still held for a moment (a socket of the killed process): try again
    if (attempt >= 20 || !/EADDRINUSE|already in use/.test(out.toString())) throw new Error(`Icefront did not start on port ${port}:\n${out.toString()}`);
    await sleep(100);
  }
}

// ---------------------------------------------------------------------------------------------
// Icefront over HTTP

async function http(url: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    ...(init.body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), text };
}

async function createTable(base: string): Promise<void> {
  const ns = await http(`${base}/v1/lake/namespaces`, { method: 'POST', body: { namespace: ['db'] } });
  if (ns.status !== 200) throw new Error(`create namespace: ${ns.status} ${JSON.stringify(ns.body)}`);
  const table = await http(`${base}/v1/lake/namespaces/db/tables`, { method: 'POST', body: { name: 't', schema: SCHEMA, properties: { 'format-version': '2' } } });
  if (table.status !== 200) throw new Error(`create table: ${table.status} ${JSON.stringify(table.body)}`);
}

/** The data files of a server-side plan (POST …/plan, then every plan task at /tasks), and how many /tasks it took. */
async function plannedFiles(base: string): Promise<{ files: string[]; taskRequests: number }> {
  const client = new RemoteScanClient(`${base}${TABLE_PATH}`, { workers: 2, maxRetries: 0 });
  const plan = await client.plan(['id']);
  const tasks = [...(plan['file-scan-tasks'] ?? []), ...(await client.redeem(plan['plan-tasks'] ?? []))];
  if (plan['plan-id']) await client.cancel(plan['plan-id']).catch(() => undefined);
  return { files: tasks.map((task) => task['data-file']['file-path']), taskRequests: client.exchanges.filter((e) => e.route === 'tasks').length };
}

// ---------------------------------------------------------------------------------------------
// Stores and configs

let cluster: PostgresCluster | undefined;

async function makeStore(kind: Kind, dir: string): Promise<Store> {
  const warehouse = path.join(dir, 'warehouse');
  fs.mkdirSync(warehouse, { recursive: true });
  const metadataDir = path.join(warehouse, 'db', 't', 'metadata');
  if (kind === 'filesystem') return { kind, catalogYaml: `{ type: filesystem, warehouse: ${JSON.stringify(warehouse)} }`, reader: { type: 'static', metadataDir }, metadataDir };
  const sql = (uri: string, readerUri: string): Store => ({
    kind,
    catalogYaml: `{ type: sql, uri: ${JSON.stringify(uri)}, catalog-name: lake, warehouse-location: ${JSON.stringify(warehouse)} }`,
    reader: { type: 'sql', uri: readerUri, name: 'lake', warehouse: `file://${warehouse}` },
    metadataDir,
  });
  if (kind === 'sqlite') {
    const file = path.join(dir, 'catalog.db');
    return sql(`sqlite:${file}`, `sqlite:///${file}`);
  }
  cluster ??= await startPostgres();
  const uri = await cluster.createDatabase();
  return sql(uri, `postgresql+psycopg2://${uri.split('://')[1]}`);
}

function configYaml(store: Store, secret: string, options: { workers?: number }): string {
  const planning = [`token-secret: ${JSON.stringify(secret)}`, 'batch-size: 4', ...(options.workers !== undefined ? [`workers: ${options.workers}`] : [])];
  return `planning: { ${planning.join(', ')} }\nlogging: { level: warn }\ncatalogs:\n  lake: ${store.catalogYaml}\n`;
}

function tempDir(t: Test, name: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `icefront-${name}-`)));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Checks shared by both scenarios

/** What the metadata folder holds that a reader could take for metadata. */
function checkMetadataFolder(t: Test, store: Store, read: ReadResult): number {
  const names = fs.readdirSync(store.metadataDir);
  const hidden = names.filter((n) => n.startsWith('.') && n.endsWith('.tmp'));
  const visibleTemps = names.filter((n) => !n.startsWith('.') && n.endsWith('.tmp'));
  t.same(visibleTemps, [], 'no visible .tmp file in the metadata folder');
  const unparsable = names.filter((n) => !n.startsWith('.') && n.endsWith('.metadata.json')).filter((n) => {
    try {
      JSON.parse(fs.readFileSync(path.join(store.metadataDir, n), 'utf8'));
      return false;
    } catch {
      return true;
    }
  });
  t.same(unparsable, [], 'every metadata file in the folder is whole JSON');
  const missing = [...read.metadataLog, read.metadataLocation].filter((loc) => !fs.existsSync(fileOf(loc)));
  t.same(missing, [], `every metadata file the log names (${read.metadataLog.length}) and the current one exist on disk`);

  // one line of versions: the log's files and the current one carry consecutive numbers
  const version = (loc: string) => Number((/\/v(\d+)(?:\.gz)?\.metadata\.json$/.exec(loc) ?? /\/(\d+)-[^/]*\.metadata\.json$/.exec(loc))?.[1]);
  const numbers = [...read.metadataLog, read.metadataLocation].map(version);
  const gaps = numbers.flatMap((n, i) => (i > 0 && n !== numbers[i - 1]! + 1 ? [`${numbers[i - 1]} → ${n}`] : []));
  t.same(gaps, [], `the metadata log and the current file are versions ${numbers[0]}…${numbers.at(-1)}, one after another`);
  if (store.kind === 'filesystem') {
    const present = read.store.versions ?? [];
    const max = numbers.at(-1)!;
    t.same(present, Array.from({ length: max }, (_, i) => i + 1), `the folder holds v1…v${max}.metadata.json, no gap and nothing beyond the current version`);
    t.ok(Number(read.store.hint) >= 1 && Number(read.store.hint) <= max, `version-hint.text (${read.store.hint}) names a version up to the current one`);
  } else {
    const rows = read.store.rows ?? [];
    t.equal(rows.length, 1, 'one iceberg_tables row for the table');
    t.same(rows[0], [read.metadataLocation, read.metadataLog.at(-1) ?? null], "its previous_metadata_location is the log's last entry");
  }
  // one line of snapshots: each appended on the one before (no commit applied to a stale parent)
  const forks = read.chain.flatMap(([id, parent], i) => (i > 0 && parent !== read.chain[i - 1]![0] ? [`${id} has parent ${parent}, not ${read.chain[i - 1]![0]}`] : []));
  t.same(forks, [], `the ${read.chain.length} snapshots form one line, each the parent of the next`);
  t.equal(read.chain.at(-1)?.[0], read.currentSnapshotId ?? undefined, 'the last snapshot is the current one');
  return hidden.length;
}

interface Tally {
  acked: number;
  rows: number;
  conflicts: number;
  engineRetries: number;
  unknown: Record<string, { present: number; absent: number }>;
}

/** The writers' outcomes against what the independent reader found. */
function checkRows(t: Test, results: readonly WriterResult[], read: ReadResult): Tally {
  for (const r of results) t.equal(r.error, null, `writer ${r.writer} ended without an error`);
  const found = new Map<number, number>();
  for (const id of read.ids) found.set(id, (found.get(id) ?? 0) + 1);
  const dup = [...found].filter(([, n]) => n > 1).slice(0, 10);
  t.same(dup, [], 'no id twice in the table (a retried append landed once)');

  const expected = new Set<number>();
  const tally: Tally = { acked: 0, rows: 0, conflicts: 0, engineRetries: 0, unknown: {} };
  const missingAcked: string[] = [];
  const torn: string[] = [];
  const refusedPresent: string[] = [];
  for (const r of results) {
    tally.conflicts += r.conflicts;
    tally.engineRetries += r.engineRetries;
    for (const [k, first, rows] of r.acked) {
      tally.acked++;
      tally.rows += rows;
      const got = ids(first, rows).filter((id) => found.has(id)).length;
      if (got !== rows) missingAcked.push(`writer ${r.writer} append ${k}: ${got}/${rows} rows`);
      for (const id of ids(first, rows)) expected.add(id);
    }
    for (const [k, first, rows, cause] of r.unknown) {
      const got = ids(first, rows).filter((id) => found.has(id)).length;
      const cell = (tally.unknown[cause] ??= { present: 0, absent: 0 });
      if (got === rows) {
        cell.present++;
        tally.rows += rows;
        for (const id of ids(first, rows)) expected.add(id);
      } else if (got === 0) cell.absent++;
      else torn.push(`writer ${r.writer} append ${k} (${cause}): ${got}/${rows} rows`);
      if (cause === 'refused' && got > 0) refusedPresent.push(`writer ${r.writer} append ${k}`);
    }
  }
  t.same(missingAcked, [], `every acknowledged append (${tally.acked}) is in the table`);
  t.same(torn, [], 'every unknown append is wholly in or wholly out');
  t.same(refusedPresent, [], 'no append whose connection was refused is in the table');
  const strangers = [...found.keys()].filter((id) => !expected.has(id)).slice(0, 20);
  t.same(strangers, [], 'no id but those of acknowledged (and present unknown) appends');
  t.equal(read.ids.length, tally.rows, `row count ${read.ids.length} = rows of acknowledged appends (+ present unknown ones)`);

  // one snapshot per landed append
  const snaps = new Map<string, number>();
  for (const [w, k] of read.snapshots) snaps.set(`${w}/${k}`, (snaps.get(`${w}/${k}`) ?? 0) + 1);
  const badSnaps = results.flatMap((r) => r.acked.map(([k]) => `${r.writer}/${k}`)).filter((key) => snaps.get(key) !== 1);
  t.same(badSnaps, [], 'each acknowledged append is exactly one snapshot');
  return tally;
}

function report(t: Test, c: Counts): void {
  summary.push(c);
  const unknown = Object.entries(c.unknown)
    .map(([cause, v]) => `${cause} ${v.present + v.absent} (${v.present} in, ${v.absent} out)`)
    .join(', ');
  t.comment(
    `${c.scenario} ${c.kind}: ${c.replicas} Icefront process(es), ${c.writers} writers; ${c.acked} appends acknowledged (${c.rows} rows), ` +
      `${c.conflicts} × 409 (${c.engineRetries} retried inside pyiceberg), unknown: ${unknown || 'none'}; ${c.kills} kills; ${c.hiddenTemps} hidden temp files; ${c.seconds.toFixed(1)} s`,
  );
}

// ---------------------------------------------------------------------------------------------
// Scenarios

async function race(t: Test, env: InteropEnv, kind: Kind, replicaCount: number): Promise<void> {
  const began = Date.now();
  const dir = tempDir(t, `race-${kind}`);
  const store = await makeStore(kind, dir);
  const configFile = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(configFile, configYaml(store, randomBytes(24).toString('base64url'), { workers: 0 }));
  const replicas: IcefrontProcess[] = await Promise.all(Array.from({ length: replicaCount }, () => startIcefrontProcess(configFile)));
  t.teardown(() => Promise.all(replicas.map((r) => r.close())));
  await createTable(replicas[0]!.url);

  const goFile = path.join(dir, 'go');
  t.teardown(() => fs.writeFileSync(goFile, ''));
  let ready = 0;
  const onReady = () => ++ready === RACE_WRITERS && fs.writeFileSync(goFile, '');
  const results = await Promise.all(
    Array.from({ length: RACE_WRITERS }, (_, w) =>
      python<WriterResult>(env, { mode: 'write', uri: replicas[w % replicaCount]!.url, warehouse: 'lake', table: TABLE, writer: w, appends: RACE_APPENDS, goFile, deadlineS: 200 }, 240_000, onReady),
    ),
  );
  const slowest = Math.max(...results.map((r) => r.seconds));
  const mostAttempts = Math.max(...results.flatMap((r) => r.acked.map((a) => a[3])));
  t.comment(`writers appended for ${slowest.toFixed(1)} s at most after the start line; pyiceberg gave up on an append ${mostAttempts - 1} times at most`);
  const read = await python<ReadResult>(env, { mode: 'read', table: TABLE, catalog: store.reader }, 120_000);
  const tally = checkRows(t, results, read);
  t.equal(tally.acked, RACE_WRITERS * RACE_APPENDS, 'every append was acknowledged in the end');
  t.same(tally.unknown, {}, 'no commit answered 5xx or lost its connection (nothing was killed)');
  if (RACE_WRITERS >= 4) t.ok(tally.conflicts > 0, `409s were answered (${tally.conflicts}): the race was exercised`);
  else t.comment(`${tally.conflicts} × 409 with ${RACE_WRITERS} writers`);
  const hiddenTemps = checkMetadataFolder(t, store, read);

  // every replica sees the last commit; one plans it
  for (const [i, r] of replicas.entries()) {
    const loaded = await http(`${r.url}${TABLE_PATH}`);
    t.equal((loaded.body as { 'metadata-location'?: string })?.['metadata-location'], read.metadataLocation, `replica ${i} loads the reader's current metadata`);
  }
  const { files: planned, taskRequests } = await plannedFiles(replicas.at(-1)!.url);
  t.same([...planned].sort(), read.files, `a server-side plan through a replica (${taskRequests} plan tasks redeemed) lists the reader's ${read.files.length} data files, each once`);

  report(t, { scenario: 'race', kind, replicas: replicaCount, writers: RACE_WRITERS, ...tally, kills: 0, hiddenTemps, seconds: (Date.now() - began) / 1000 });
}

async function crash(t: Test, env: InteropEnv, kind: Kind): Promise<void> {
  const began = Date.now();
  const dir = tempDir(t, `crash-${kind}`);
  const store = await makeStore(kind, dir);
  const secret = randomBytes(24).toString('base64url');
  const configFile = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(configFile, configYaml(store, secret, { workers: 0 }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server = await startPinned(configFile, port);
  t.teardown(async () => {
    server.kill();
    await server.exited;
  });
  await createTable(base);

  const stopFile = path.join(dir, 'stop');
  const goFile = path.join(dir, 'go');
  t.teardown(() => (fs.writeFileSync(stopFile, ''), fs.writeFileSync(goFile, '')));
  let ready = 0;
  let letGo!: () => void;
  const allReady = new Promise<void>((resolve) => (letGo = resolve));
  const onReady = () => {
    if (++ready < CRASH_WRITERS) return;
    fs.writeFileSync(goFile, '');
    letGo();
  };
  const writers = Promise.all(
    Array.from({ length: CRASH_WRITERS }, (_, w) =>
      python<WriterResult>(env, { mode: 'write', uri: base, warehouse: 'lake', table: TABLE, writer: w, stopFile, goFile, deadlineS: 300 }, 360_000, onReady),
    ),
  );
  writers.catch(() => undefined);
  // the kills start once every writer has loaded the table and been let go
  await Promise.race([allReady, writers]);

  const killStart = Date.now();
  let kills = 0;
  const logs: string[] = [];
  while (kills < CRASH_KILLS) {
    await sleep(100 + Math.random() * 500);
    server.kill();
    await server.exited;
    kills++;
    logs.push(server.log());
    server = await startPinned(configFile, port);
  }
  const killSeconds = (Date.now() - killStart) / 1000;
  fs.writeFileSync(stopFile, '');
  const results = await writers;
  server.kill();
  await server.exited;
  t.equal(kills, CRASH_KILLS, `Icefront was killed ${kills} times in ${killSeconds.toFixed(1)} s`);
  // what the killed processes logged at level error or above before they died (printed, not judged)
  const errors = logs.flatMap((l) => l.split('\n')).filter((line) => /"level":(5|6)0/.test(line));
  for (const line of errors.slice(0, 5)) t.comment(`logged before a kill: ${line.slice(0, 300)}`);

  const read = await python<ReadResult>(env, { mode: 'read', table: TABLE, catalog: store.reader }, 120_000);
  const tally = checkRows(t, results, read);
  t.ok(tally.acked > 0, `appends were acknowledged between the kills (${tally.acked})`);
  const hiddenTemps = checkMetadataFolder(t, store, read);

  // a fresh Icefront (the harness's process, default planning workers): load and plan
  const verifyConfig = path.join(dir, 'verify.yaml');
  fs.writeFileSync(verifyConfig, configYaml(store, secret, {}));
  const fresh = await startIcefrontProcess(verifyConfig);
  t.teardown(() => fresh.close());
  const loaded = await http(`${fresh.url}${TABLE_PATH}`);
  t.equal(loaded.status, 200, 'the table loads through a fresh Icefront');
  const body = loaded.body as { 'metadata-location'?: string };
  t.equal(body['metadata-location'], read.metadataLocation, "at the independent reader's metadata file");
  // an int64: read from the text, JSON.parse would round it
  t.equal(/"current-snapshot-id"\s*:\s*(-?\d+)/.exec(loaded.text)?.[1], read.currentSnapshotId ?? undefined, "and at the reader's current snapshot");
  const { files: planned, taskRequests } = await plannedFiles(fresh.url);
  t.ok(taskRequests > 0, `the plan handed out plan tasks, redeemed at /tasks (${taskRequests})`);
  t.equal(new Set(planned).size, planned.length, 'the plan names each data file once');
  t.same([...planned].sort(), read.files, `its server-side plan lists exactly the reader's ${read.files.length} data files`);

  report(t, { scenario: 'crash', kind, replicas: 1, writers: CRASH_WRITERS, ...tally, kills, hiddenTemps, seconds: (Date.now() - began) / 1000 });
}

// ---------------------------------------------------------------------------------------------

const env = await interopToolchain(t);
if (env) {
  const started = Date.now();
  t.comment(`pyiceberg ${env.versions['pyiceberg']}; races: ${RACE_WRITERS} writers × ${RACE_APPENDS} appends; crashes: ${CRASH_WRITERS} writers, ${CRASH_KILLS} kills`);
  const pgMissing = postgresMissing();
  const pg = (name: string, fn: (t: Test) => Promise<void>) =>
    pgMissing
      ? process.env['CI']
        ? t.test(name, async (t) => void t.fail(`needs PostgreSQL: ${pgMissing} (tools/interop/postgres.sh installs it)`))
        : t.test(name, { skip: `needs PostgreSQL: ${pgMissing}` }, async () => {})
      : t.test(name, fn);
  t.teardown(() => cluster?.stop());

  await pg('races: 3 Icefront processes on one PostgreSQL database', (t) => race(t, env, 'postgres', 3));
  await t.test('races: 2 Icefront processes on one SQLite file', (t) => race(t, env, 'sqlite', 2));
  await t.test('races: 2 Icefront processes on one filesystem warehouse', (t) => race(t, env, 'filesystem', 2));
  await t.test('crashes: Icefront on SQLite killed and restarted', (t) => crash(t, env, 'sqlite'));
  await pg('crashes: Icefront on PostgreSQL killed and restarted', (t) => crash(t, env, 'postgres'));
  await t.test('crashes: Icefront on a filesystem warehouse killed and restarted', (t) => crash(t, env, 'filesystem'));

  await t.test('summary', async (t) => {
    const total = (Date.now() - started) / 1000;
    const lines = [
      '# Commit races and crashes (test/interop/commit-races.test.ts)',
      '',
      `${new Date().toISOString()}; pyiceberg ${env.versions['pyiceberg']}; whole file ${total.toFixed(1)} s.`,
      '',
      '| scenario | store | Icefront processes | writers | appends acknowledged | rows | 409s (retried inside pyiceberg) | unknown (in / out) | kills | hidden temp files | seconds |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...summary.map((c) => {
        const unknown = Object.entries(c.unknown).map(([cause, v]) => `${cause}: ${v.present} / ${v.absent}`).join('; ') || '0';
        return `| ${c.scenario} | ${c.kind} | ${c.replicas} | ${c.writers} | ${c.acked} | ${c.rows} | ${c.conflicts} (${c.engineRetries}) | ${unknown} | ${c.kills} | ${c.hiddenTemps} | ${c.seconds.toFixed(1)} |`;
      }),
      '',
    ];
    fs.mkdirSync(path.join(REPO, '.interop'), { recursive: true });
    fs.writeFileSync(path.join(REPO, '.interop/commit-races.md'), lines.join('\n'));
    for (const line of lines) if (line.startsWith('|')) t.comment(line);
    t.comment(`whole file: ${total.toFixed(1)} s`);
    t.pass('summary written to .interop/commit-races.md');
  });
}
