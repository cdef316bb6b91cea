/**
 * Several replicas (issue 13, item 8; docs/deployment.md): three Icefront processes started from
 * one config file (one `planning.token-secret`, one filesystem warehouse) behind Debian's nginx,
 * round robin. A client plans one scan and redeems its plan tasks through the balancer; they land
 * on all three replicas; one replica is killed (SIGKILL) in the middle of the redemptions, while a
 * /tasks request waits at it; the client still ends with exactly the table's data files.
 *
 * The table: written by the project's writer (tools/iceberg-writer, metadata only: planning reads
 * manifests, never data files) as 6 manifests of 40 files, then a delete commit that removes every
 * ninth file (DELETED entries, the rest carried over as EXISTING). Truth: the writer's own list of
 * the live data files, not anything read back. `planning.batch-size: 4` makes some fifty plan tasks.
 *
 * The client is the project's own (harness/remote-scan-client.ts): it plays the protocol as Iceberg
 * Java's RESTTableScan does, three workers on one queue of plan tasks. Twice:
 *   - as Iceberg Java's HTTP client, retrying an answer 502: nginx passes a request to another
 *     replica only when it could not send it (harness/nginx.ts), so a /tasks sent to the replica
 *     that dies is answered 502 and the client's retry is what lands it on a live one;
 *   - as pyiceberg 0.12, which retries nothing but authentication errors, behind the deployment
 *     doc's `location ~ /tasks$` with `non_idempotent`: nginx itself resends the /tasks the dead
 *     replica held, and the client never sees a failure.
 *
 * Killed mid-request, deterministically: the victim is stopped (SIGSTOP) before the second half of
 * the redemptions starts, so the kernel still accepts nginx's connections to it but nobody reads
 * them; once /proc/net/tcp shows request bytes waiting unread on a connection to its port, it is
 * killed (SIGKILL), and every request it held is reset under nginx.
 *
 * Needs nginx (tools/bench/setup.sh installs Debian's package and is run here; it is idempotent)
 * and Linux (/proc/net/tcp). Without them the test skips, saying why; with `CI` set it fails
 * instead, as the interop suite does, so a CI run never passes without it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import { DATA, writeSyntheticTable, type TableBuilder } from '../../tools/iceberg-writer/index.js';
import { appWith, post } from '../service/planning/helpers.js';
import { startIcefrontProcess, type IcefrontProcess } from './harness/icefront-process.js';
import { ensureNginx, startNginxBalancer } from './harness/nginx.js';
import { RemoteScanClient, type Exchange, type FileScanTask } from './harness/remote-scan-client.js';

t.setTimeout(10 * 60_000);

const CATALOG = 'lake';
const TABLE_PATH = `/v1/${CATALOG}/namespaces/sales/tables/events`;
const SELECT = ['id', 'event_ts', 'category'];
/** Plan tasks redeemed before the kill, with all three replicas up. */
const BEFORE_KILL = 15;

/** The table as the writer leaves it; `removed` are the files its delete commit took out. */
function writeTable(warehouse: string, manifests: number, perManifest: number): { builder: TableBuilder; removed: string[] } {
  const root = path.join(warehouse, 'sales', 'events');
  const { builder } = writeSyntheticTable({ root, location: pathToFileURL(root).href, manifests, entriesPerManifest: perManifest, columns: 3, seed: 'replicas' });
  const removed = dataFiles(builder).filter((_, i) => i % 9 === 4);
  builder.commit({ operation: 'delete', remove: removed });
  return { builder, removed };
}

/** The writer's live data files, sorted. */
function dataFiles(builder: TableBuilder): string[] {
  return builder
    .liveFiles()
    .filter((f) => f.file.content === DATA)
    .map((f) => f.file.filePath)
    .sort();
}

/** The config every replica runs: one file, the token secret from the environment. */
function configYaml(warehouse: string, publicUrl: string): string {
  return `server:
  public-url: ${JSON.stringify(publicUrl)}
  trusted-proxies: ["127.0.0.1"]
planning:
  batch-size: 4
  token-secret: "\${ICEFRONT_TOKEN_SECRET}"
logging: { level: info }
catalogs:
  ${CATALOG}: { type: filesystem, warehouse: ${JSON.stringify(warehouse)} }
`;
}

/** The sum of a replica's `icefront_task_requests_total` series (plan-task redemptions it answered). */
async function taskRequestsAt(replica: IcefrontProcess): Promise<number> {
  const text = await (await fetch(`${replica.url}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(/^icefront_task_requests_total(?:\{[^}]*\})? (\S+)$/gm)) sum += Number(m[1]);
  return sum;
}

/**
 * Whether request bytes wait unread on a connection the kernel accepted for 127.0.0.1:port
 * (Linux /proc/net/tcp: local address `0100007F:<port hex>`, state 01 ESTABLISHED, rx_queue > 0).
 */
function requestWaitingAt(port: number): boolean {
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .some((line) => {
      const f = line.trim().split(/\s+/);
      if (f.length < 5) return false;
      const localPort = parseInt(f[1]!.split(':')[1]!, 16);
      const rxQueue = parseInt(f[4]!.split(':')[1]!, 16);
      return localPort === port && f[3] === '01' && rxQueue > 0;
    });
}

/** Polls `condition` every 10 ms; false when it has not held within `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

const paths = (tasks: readonly FileScanTask[]) => tasks.map((task) => task['data-file']['file-path']);
const okTasks = (exchanges: readonly Exchange[]) => exchanges.filter((e) => e.route === 'tasks' && e.status === 200);

let nginxChecked: Promise<string | undefined> | undefined;

/** Why this machine cannot run the scenario (undefined: it can); installs nginx on the first call. */
async function missingHere(t: Test): Promise<string | undefined> {
  nginxChecked ??= ensureNginx().then((nginx) => {
    if (!nginx.ok) return nginx.why;
    if (process.platform !== 'linux') return `Linux (/proc/net/tcp), not ${process.platform}`;
    t.comment(nginx.version);
    return undefined;
  });
  return nginxChecked;
}

interface Scenario {
  /** The deployment doc's `location ~ /tasks$` with `proxy_next_upstream … non_idempotent`. */
  readonly resendTasks: boolean;
  /** The client's retries of a 429/502/503/504: Iceberg Java's 5, or none (pyiceberg 0.12). */
  readonly maxRetries: number;
}

async function killMidScan(t: Test, scenario: Scenario): Promise<void> {
  const missing = await missingHere(t);
  if (missing !== undefined) {
    if (process.env['CI']) t.fail(`replicas test needs ${missing} (CI is set, so this fails instead of skipping)`);
    else t.skip(`replicas test skipped: needs ${missing}`, () => {});
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-replicas-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const warehouse = path.join(dir, 'warehouse');
  const { builder, removed } = writeTable(warehouse, 6, 40);
  const expected = dataFiles(builder);

  // One config file, one secret; the balancer's port is chosen first so it can be the public URL.
  const balancerPort = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const configFile = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(configFile, configYaml(warehouse, `http://127.0.0.1:${balancerPort}`));
  const secret = randomBytes(24).toString('base64url');
  const replicas = await Promise.all([0, 1, 2].map(() => startIcefrontProcess(configFile, { env: { ICEFRONT_TOKEN_SECRET: secret } })));
  t.teardown(() => Promise.all(replicas.map((r) => r.close())));
  const balancer = await startNginxBalancer(
    replicas.map((r) => r.port),
    { port: balancerPort, resendTasks: scenario.resendTasks },
  );
  t.teardown(() => balancer.close());
  const addr = (r: IcefrontProcess) => `127.0.0.1:${r.port}`;
  const diag = () => ({ nginxAccess: balancer.accessLog().slice(-60), nginxErrors: balancer.errorLog().split('\n').slice(-20) });

  const client = new RemoteScanClient(`${balancer.url}${TABLE_PATH}`, { workers: 3, maxRetries: scenario.maxRetries });
  const plan = await client.plan(SELECT);
  const planTasks = plan['plan-tasks'] ?? [];
  t.ok(planTasks.length >= 2 * BEFORE_KILL, `batch size 4 cuts the plan into many plan tasks (${planTasks.length})`);
  const found = paths(plan['file-scan-tasks'] ?? []);

  // All three up: the redemptions spread over every replica, as nginx and the replicas both say.
  found.push(...paths(await client.redeem(planTasks.slice(0, BEFORE_KILL))));
  const answered = (r: IcefrontProcess) => okTasks(client.exchanges).filter((e) => e.answeredBy === addr(r)).length;
  for (const [i, r] of replicas.entries()) {
    t.ok(answered(r) > 0, `replica ${i} answered plan tasks before the kill (nginx says ${answered(r)})`, diag());
    t.equal(await taskRequestsAt(r), answered(r), `replica ${i} counted the redemptions nginx sent it`);
  }

  // The victim stops reading; the rest of the scan starts; once a /tasks waits at it, it dies.
  const [victim, ...survivors] = [replicas[1]!, replicas[0]!, replicas[2]!];
  const victimBefore = answered(victim);
  const phase2 = client.exchanges.length;
  victim.signal('SIGSTOP');
  const rest = client.redeem(planTasks.slice(BEFORE_KILL));
  rest.catch(() => undefined);
  const held = await until(() => requestWaitingAt(victim.port), 30_000);
  t.ok(held, 'a /tasks request reached the stopped replica before it was killed', diag());
  victim.signal('SIGKILL');
  await victim.exited;

  let later: FileScanTask[];
  try {
    later = await rest;
  } catch (err) {
    t.fail(`the client failed after the kill: ${(err as Error).message}`, diag());
    return;
  }
  found.push(...paths(later));

  const afterKill = client.exchanges.slice(phase2);
  const victimFirst = (e: Exchange) => e.upstreams.split(',')[0]!.trim() === addr(victim);
  if (scenario.resendTasks) {
    // nginx resent what the dead replica held: the client saw only 200s, some of them "victim, survivor".
    t.same(afterKill.filter((e) => e.status !== 200), [], 'the client saw no failed answer', diag());
    const resent = afterKill.filter((e) => e.route === 'tasks' && victimFirst(e) && e.answeredBy !== addr(victim));
    t.ok(resent.length > 0, `nginx resent the /tasks the killed replica held to a live one (${resent.length})`, diag());
  } else {
    // nginx answered 502 for what the dead replica held; the client retried each on a live replica.
    const reset = afterKill.filter((e) => e.route === 'tasks' && e.status === 502 && e.answeredBy === addr(victim));
    t.ok(reset.length > 0, `nginx answered 502 for the /tasks the killed replica held (${reset.length})`, diag());
    for (const e of reset) {
      const retried = afterKill.find((x) => x.planTask === e.planTask && x.status === 200);
      t.ok(retried && survivors.some((s) => retried.answeredBy === addr(s)), 'the client retried it and a live replica answered', { retried });
    }
  }
  t.equal(okTasks(afterKill).filter((e) => e.answeredBy === addr(victim)).length, 0, 'nothing was answered by the stopped replica');
  t.equal(answered(victim), victimBefore);

  // Every plan task redeemed once, and the files are exactly the writer's: none missing, none twice.
  const redeemed = okTasks(client.exchanges).map((e) => e.planTask!);
  t.same([...new Set(redeemed)].sort(), [...planTasks].sort(), 'every plan task was redeemed');
  t.equal(redeemed.length, new Set(redeemed).size, 'no plan task was redeemed twice');
  t.equal(found.length, new Set(found).size, 'no data file came twice');
  t.same([...found].sort(), expected, 'the scan read exactly the live data files the writer committed');
  t.same(removed.filter((gone) => found.includes(gone)), [], 'no file the delete commit removed came back');

  for (const s of survivors) t.equal(await taskRequestsAt(s), answered(s), `replica on ${addr(s)} counted every redemption nginx sent it`);
  t.equal(await client.cancel(plan['plan-id']!), 204, 'the plan is released (DELETE …/plan/{id}) through a live replica');

  // The secret is what makes the strings redeemable anywhere: an Icefront with another one refuses them.
  const stranger = appWith([{ type: 'filesystem', name: CATALOG, warehouse, locations: [], planning: 'on' }], { batchSize: 4, workers: 0, tokenSecret: randomBytes(24).toString('base64url') });
  t.teardown(() => stranger.close());
  const refused = await post(stranger, `${TABLE_PATH}/tasks`, { 'plan-task': planTasks[0] });
  t.equal(refused.statusCode, 404, 'another token secret: 404');
  t.equal((JSON.parse(refused.body) as { error: { type: string } }).error.type, 'NoSuchPlanTaskException');
}

t.test('a replica killed mid-scan: the client retries the 502 on another replica, as Iceberg Java does', (t) => killMidScan(t, { resendTasks: false, maxRetries: 5 }));

t.test('a replica killed mid-scan: nginx resends /tasks for a client that does not retry (pyiceberg)', (t) => killMidScan(t, { resendTasks: true, maxRetries: 0 }));

// Known bug (src/, not fixed here): a replica whose view of a filesystem table is younger than
// `refresh-ms` does not know a snapshot another replica pinned just after a commit, and refuses
// that plan's tasks as expired instead of reading the folder again. The window is refresh-ms
// (default 250 ms); 60 s here makes it certain.
// A replica reuses its resolution of a table for refresh-ms: a plan task pinned to a newer
// snapshot makes it look at the current metadata again (scan-planning.ts withPinnedSnapshot).
t.test('a replica that has not yet seen a commit redeems a plan task pinned to it', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-replicas-lag-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const warehouse = path.join(dir, 'warehouse');
  const root = path.join(warehouse, 'sales', 'events');
  const { builder } = writeSyntheticTable({ root, location: pathToFileURL(root).href, manifests: 2, entriesPerManifest: 8, columns: 3, seed: 'lagging' });
  const catalog = { type: 'filesystem', name: CATALOG, warehouse, locations: [], planning: 'on', refreshMs: 60_000 } as const;
  const planning = { batchSize: 2, workers: 0, tokenSecret: randomBytes(24).toString('base64url') };
  const [planner, lagging] = [appWith([catalog], planning), appWith([catalog], planning)];
  t.teardown(() => Promise.all([planner.close(), lagging.close()]));
  t.equal((await lagging.inject({ method: 'GET', url: TABLE_PATH })).statusCode, 200, 'the lagging replica has read the table');
  builder.commit({ operation: 'delete', remove: [dataFiles(builder)[0]!] });
  const planned = await post(planner, `${TABLE_PATH}/plan`, { select: SELECT, filter: true, 'case-sensitive': true });
  const task = (JSON.parse(planned.body) as { 'plan-tasks'?: string[] })['plan-tasks']?.[0];
  t.ok(task, 'the plan after the commit has plan tasks');
  const res = await post(lagging, `${TABLE_PATH}/tasks`, { 'plan-task': task });
  t.equal(res.statusCode, 200, 'the lagging replica redeems it', { body: res.body });
});
