/**
 * Issue #42, end to end: Icefront signs every request to a `rest` upstream with AWS SigV4
 * (`auth: { mode: sigv4 }`), and an independent verifier (tools/interop/sigv4-gateway.py, botocore's
 * own SigV4Auth recomputing each signature) in front of the Iceberg REST fixture judges them.
 *
 *   Spark 4.1 ─┐  Bearer <token>                         ┌─ sig      (planning: upstream) ─┐
 *   pyiceberg ─┼──────────────▶ icefront serve (process) ┤                                   ├─▶ recorder ─▶ sigv4-gateway ─▶ REST fixture
 *   Trino 476 ─┘                                         └─ siglocal (planning: local) ──────┘   (one per     (botocore)
 *                                                                                                 catalog)
 *
 * (1) Static keys in Icefront's environment: pyiceberg and Spark write a table through `sig`; Spark
 *     (server and client planning), pyiceberg (both) and Trino read it back through `sig` (the
 *     fixture plans: it advertises /plan and /tasks) and `siglocal` (Icefront plans from the
 *     fixture's file:// warehouse, `storage.local`), each compared with the rows written. The
 *     gateway accepts every request, refuses none, all by the configured key; the recorders (a
 *     pass-through between Icefront and the gateway) see a SigV4 Authorization on every request and
 *     the callers' bearer token on none. Paths and queries with reserved characters, a nested
 *     namespace, HEAD and DELETE (with a JSON Content-Type, and bare: no Content-Type, no body,
 *     as curl sends it) verify too.
 * (2) Credentials that change: the gateway runs moto's STS with credentials living a few seconds;
 *     Icefront gets them from a web identity token file (AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN,
 *     AWS_ENDPOINT_URL_STS) and, for a second catalog, exchanges them for another role's
 *     (`role-arn`: STS AssumeRole). Requests run for more than 3 lifetimes while the token file is
 *     replaced midway: every one succeeds, none is refused, many STS keys sign, both tokens reach STS.
 * (3) What goes wrong is told: a wrong secret and a gateway clock 20 min ahead give clients a 403
 *     ErrorModel naming the catalog and AWS's error, and /readyz says the same; a sigv4 catalog
 *     with no region anywhere stops `icefront serve` at start.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { ClientError, ClientWorker, type CatalogRef, type PyicebergOp, type ScanResult } from './harness/clients.js';
import { startIcefrontProcess, type IcefrontProcess } from './harness/icefront-process.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { startSigv4Gateway, type Sigv4Gateway, type Sigv4GatewayStats } from './harness/sigv4-gateway.js';
import { REPO, interopToolchain } from './harness/toolchain.js';
import { startTrinoFor } from './harness/trino.js';

t.setTimeout(10 * 60_000);

const SERVICE = 'glue';
const REGION = 'us-east-1';
const KEY = { accessKeyId: 'AKIDICEFRONTUPSTREAM1', secretAccessKey: 'icefront/Upstream+Secret/0123456789abcdefghij' };
/** The callers' bearer token at Icefront: it must never reach the upstream. */
const CALLER_TOKEN = `caller-token-${randomBytes(12).toString('hex')}`;
const WEB_IDENTITY_ROLE = 'arn:aws:iam::123456789012:role/icefront';
const TARGET_ROLE = 'arn:aws:iam::123456789012:role/icefront-target';
/** Lifetime moto's STS gives every credential in (2). */
const STS_SECONDS = 6;

const TABLE = 'sigv4.items';
const COLUMNS = ['id', 'name', 'grp'];
const TABLE_PATH = '/namespaces/sigv4/tables/items';

// ---------------------------------------------------------------------------------------------
// Helpers

/** What a recorder saw: one request as Icefront sent it toward the gateway. */
interface Seen {
  readonly method: string;
  readonly url: string;
  /** Header names lower-cased, every value kept. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

interface Recorder {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/**
 * A pass-through on 127.0.0.1 that records every request and forwards it to `target` with its
 * headers as they came (Host included: the gateway verifies the signature over the Host Icefront
 * signed, this recorder's), its body streamed, and the answer streamed back.
 */
async function startRecorder(target: string): Promise<Recorder> {
  const to = new URL(target);
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const headers: Array<[string, string]> = [];
    const raw: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      const value = req.rawHeaders[i + 1]!;
      headers.push([name.toLowerCase(), value]);
      if (!HOP_BY_HOP.has(name.toLowerCase())) raw.push(name, value);
    }
    seen.push({ method: req.method!, url: req.url!, headers });
    const out = http.request({ host: to.hostname, port: Number(to.port), method: req.method, path: req.url, headers: raw, setHost: false }, (answer) => {
      const back: string[] = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) if (!HOP_BY_HOP.has(answer.rawHeaders[i]!.toLowerCase())) back.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
      res.writeHead(answer.statusCode!, back);
      answer.pipe(res);
    });
    out.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`recorder: ${e.message}`);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function header(s: Seen, name: string): string[] {
  return s.headers.filter(([n]) => n === name).map(([, v]) => v);
}

/** The access key id a SigV4 Authorization names. */
function keyOf(s: Seen): string | undefined {
  return /^AWS4-HMAC-SHA256 Credential=([^/]+)\//.exec(header(s, 'authorization')[0] ?? '')?.[1];
}

/** Icefront's environment: no AWS setting of this machine's, only `extra` (and no metadata endpoint). */
function awsEnv(dir: string, extra: Record<string, string>): Record<string, string> {
  const blank = Object.fromEntries(Object.keys(process.env).filter((k) => k.startsWith('AWS_')).map((k) => [k, '']));
  const none = path.join(dir, 'no-such-aws-file');
  return { ...blank, AWS_CONFIG_FILE: none, AWS_SHARED_CREDENTIALS_FILE: none, AWS_EC2_METADATA_DISABLED: 'true', ...extra };
}

function writeConfig(dir: string, name: string, config: unknown): string {
  const file = path.join(dir, name);
  // JSON is YAML
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

interface Fetched {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

async function get(url: string, init: RequestInit = {}): Promise<Fetched> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

interface ReadyzDoc {
  status: string;
  'not-ready': string[];
  catalogs: Record<string, { ready: boolean; reason?: string; status?: number; message?: string }>;
}

/** /readyz once every named catalog has been checked at least once. */
async function readyz(ice: IcefrontProcess, catalogs: readonly string[], timeoutMs = 20_000): Promise<{ status: number; doc: ReadyzDoc }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await get(`${ice.url}/readyz`);
    const doc = r.body as ReadyzDoc;
    if (catalogs.every((c) => doc.catalogs[c] && doc.catalogs[c].reason !== 'not-checked-yet') || Date.now() > until) return { status: r.status, doc };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** rows.py's canonical form of one row (keys sorted, compact JSON): ints, strings and nulls only here. */
function canonical(row: Record<string, string | number | null>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

function sameRows(t: Test, got: ScanResult, want: readonly string[], what: string): void {
  t.equal(got.count, want.length, `${what}: ${want.length} rows`);
  t.same([...got.rows].sort(), [...want].sort(), `${what}: the rows written`);
}

/**
 * The gateway's stats once they count what the recorders passed on: Icefront's readiness checks
 * keep running, and one may be between a recorder and the gateway's count when the stats are read.
 */
async function settledStats(gateway: Sigv4Gateway, recorders: readonly Recorder[]): Promise<Sigv4GatewayStats> {
  let stats = await gateway.stats();
  for (let i = 0; i < 30 && recorders.reduce((n, r) => n + r.seen.length, 0) !== stats.accepted + Object.values(stats.refused).reduce((a, b) => a + b, 0); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    stats = await gateway.stats();
  }
  return stats;
}

/** moto's STS: whose credentials an access key id is (GetCallerIdentity reads only the key id). */
async function callerArn(stsEndpoint: string, accessKeyId: string): Promise<string> {
  const res = await fetch(stsEndpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/20260101/${REGION}/sts/aws4_request, SignedHeaders=host, Signature=00`,
    },
    body: 'Action=GetCallerIdentity&Version=2011-06-15',
  });
  const text = await res.text();
  return /<Arn>([^<]+)<\/Arn>/.exec(text)?.[1] ?? `no Arn (${res.status}): ${text.slice(0, 300)}`;
}

// ---------------------------------------------------------------------------------------------

const env = await interopToolchain(t);
if (env) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-sigv4-upstream-')));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const trinoStarting = startTrinoFor(t);
  const fixture = await startRestFixture(env, { jvmOptions: ['-Xmx384m'] });
  t.teardown(() => fixture.close());
  const gateway = await startSigv4Gateway(env, { upstream: fixture.url, service: SERVICE, region: REGION, keys: [KEY] });
  t.teardown(() => gateway.close());
  const worker = ClientWorker.start(env);
  t.teardown(() => worker.close());
  const trino = await trinoStarting;
  if (trino) t.teardown(() => trino.close());

  const sigv4 = { mode: 'sigv4', 'signing-name': SERVICE, region: REGION };
  const expected = new Map<number, string>();

  await t.test('(1) static keys: clients read and write through sigv4 catalogs; the gateway verifies every request', async (t) => {
    const recSig = await startRecorder(gateway.url);
    const recLocal = await startRecorder(gateway.url);
    t.teardown(() => Promise.all([recSig.close(), recLocal.close()]).then(() => undefined));
    const configFile = writeConfig(dir, 'static.yaml', {
      server: { host: '127.0.0.1', 'readiness-interval-ms': 1000 },
      planning: { 'batch-size': 2 },
      auth: {
        tokens: [{ sha256: createHash('sha256').update(CALLER_TOKEN).digest('hex'), principal: 'interop', roles: ['rw'] }],
        allow: [{ roles: ['rw'], catalogs: ['*'], access: 'write' }],
      },
      catalogs: {
        sig: { type: 'rest', uri: recSig.url, planning: 'upstream', auth: sigv4 },
        siglocal: { type: 'rest', uri: recLocal.url, planning: 'local', auth: sigv4, storage: { local: { roots: [fixture.warehouseDir] } } },
      },
    });
    const ice = await startIcefrontProcess(configFile, { env: awsEnv(dir, { AWS_ACCESS_KEY_ID: KEY.accessKeyId, AWS_SECRET_ACCESS_KEY: KEY.secretAccessKey }) });
    t.teardown(() => ice.close());

    const fxConfig = await get(`${fixture.url}/v1/config`);
    const endpoints = ((fxConfig.body as { endpoints?: string[] }).endpoints ?? []).filter((e) => /\/plan|\/tasks/.test(e));
    t.ok(
      endpoints.some((e) => e.startsWith('POST') && e.endsWith('/plan')) && endpoints.some((e) => e.endsWith('/tasks')),
      `the fixture advertises server-side planning, so \`sig\` relays it (planning: upstream): ${endpoints.join(', ')}`,
    );

    const ref = (catalog: 'sig' | 'siglocal', planning: 'server' | 'client'): CatalogRef => ({
      name: `${catalog}_${planning}`,
      uri: ice.url,
      warehouse: catalog,
      planning,
      properties: { token: CALLER_TOKEN },
      ...(trino && { trino: trino.url }),
    });

    // Writes: pyiceberg creates, appends and deletes through `sig`; Spark inserts through it.
    const rows = (ids: number[]) => ids.map((id) => ({ id, name: `n${id}`, grp: ['a', 'b', 'c'][id % 3]! }));
    const ops: PyicebergOp[] = [
      { op: 'create_namespace', namespace: 'sigv4' },
      { op: 'create_table', table: TABLE, schema: [['id', 'long'], ['name', 'string'], ['grp', 'string']], partition: [['grp', 'identity']] },
      { op: 'append', table: TABLE, rows: rows([1, 2, 3, 4, 5, 6]) },
      { op: 'delete', table: TABLE, filter: 'id = 2' },
    ];
    await worker.run({ client: 'pyiceberg', catalog: ref('sig', 'client'), ops }, 180_000);
    await worker.run({ client: 'spark', catalog: ref('sig', 'client'), sql: ["INSERT INTO {catalog}.sigv4.items VALUES (7, 'n7', 'b'), (8, 'n8', 'c'), (9, 'n9', 'a')"] }, 300_000);
    for (const r of [...rows([1, 3, 4, 5, 6]), ...rows([7, 8, 9])]) expected.set(r.id, canonical(r));
    const want = [...expected.values()];
    const wantB = [...expected.entries()].filter(([id]) => id % 3 === 1).map(([, r]) => r);

    // The control: Spark straight on the fixture (no Icefront, no gateway) holds exactly these rows.
    const direct = await worker.run({ client: 'spark', catalog: { name: 'fixture', uri: fixture.url, planning: 'client' }, table: TABLE, columns: COLUMNS, files: false }, 300_000);
    sameRows(t, direct, want, 'Spark straight on the fixture');

    for (const catalog of ['sig', 'siglocal'] as const) {
      for (const client of ['spark', 'pyiceberg'] as const) {
        for (const planning of ['server', 'client'] as const) {
          const what = `${client} (${planning} planning) through ${catalog}`;
          try {
            sameRows(t, await worker.run({ client, catalog: ref(catalog, planning), table: TABLE, columns: COLUMNS, files: false }, 300_000), want, what);
            if (planning === 'server') {
              const filter = "grp = 'b'";
              sameRows(t, await worker.run({ client, catalog: ref(catalog, planning), table: TABLE, columns: COLUMNS, filter, files: false }, 300_000), wantB, `${what}, ${filter}`);
            }
          } catch (e) {
            t.fail(`${what} failed: ${(e as Error).message}`, { traceback: (e as ClientError).traceback, icefront: ice.log().slice(-3000) });
          }
        }
      }
      if (trino) {
        try {
          sameRows(t, await worker.run({ client: 'trino', catalog: ref(catalog, 'client'), table: TABLE, columns: COLUMNS }, 300_000), want, `Trino through ${catalog}`);
        } catch (e) {
          t.fail(`Trino through ${catalog} failed: ${(e as Error).message}`, { traceback: (e as ClientError).traceback });
        }
      }
    }

    // Paths and queries a signature must encode right: reserved characters, a nested namespace
    // (Icefront's %1F separator becomes the fixture's %2E), a `+` in a query, a bodiless DELETE.
    // (No `/` in a name: the fixture's Jetty answers 400 "Ambiguous URI path separator" to %2F.)
    const odd = 'sig v4 + odd=name&?';
    const oddPath = encodeURIComponent(odd);
    const bearer = { authorization: `Bearer ${CALLER_TOKEN}` };
    const json = { ...bearer, 'content-type': 'application/json' };
    const base = `${ice.url}/v1/sig`;
    const calls: Array<[string, string, RequestInit, number]> = [
      ['create a namespace with reserved characters', `${base}/namespaces`, { method: 'POST', headers: json, body: JSON.stringify({ namespace: [odd], properties: { note: 'ünïcode ✓' } }) }, 200],
      ['create a nested namespace in it', `${base}/namespaces`, { method: 'POST', headers: json, body: JSON.stringify({ namespace: [odd, 'child'], properties: {} }) }, 200],
      ['load it', `${base}/namespaces/${oddPath}`, { headers: bearer }, 200],
      ['load the nested one', `${base}/namespaces/${oddPath}%1Fchild`, { headers: bearer }, 200],
      ['list its children (?parent= encoded)', `${base}/namespaces?parent=${oddPath}`, { headers: bearer }, 200],
      ['a query with + for a space and a page size', `${base}/namespaces?pageSize=10&parent=sig+v4+%2B+odd%3Dname%26%3F`, { headers: bearer }, 200],
      ['HEAD a table', `${base}${TABLE_PATH}`, { method: 'HEAD', headers: bearer }, 204],
      ['load a table with ?snapshots=refs', `${base}${TABLE_PATH}?snapshots=refs`, { headers: bearer }, 200],
      // as Iceberg Java and pyiceberg send a DELETE: Content-Type: application/json, no body
      ['drop the nested namespace', `${base}/namespaces/${oddPath}%1Fchild`, { method: 'DELETE', headers: json }, 204],
    ];
    for (const [what, url, init, status] of calls) {
      const r = await get(url, init);
      t.equal(r.status, status, `${what}: ${init.method ?? 'GET'} ${url.slice(ice.url.length)} → ${status}`, { body: r.text.slice(0, 1000), gateway: gateway.log().slice(-2000) });
    }
    const listed = (await get(`${base}/namespaces?parent=${oddPath}`, { headers: bearer })).body as { namespaces?: string[][] };
    t.same(listed.namespaces, [], 'the nested namespace is gone');
    const stored = (await get(`${fixture.url}/v1/namespaces/${oddPath}`)).body as { properties?: Record<string, string> };
    t.equal(stored.properties?.['note'], 'ünïcode ✓', 'the fixture stored the signed body as sent (asked directly)');

    const ready = await readyz(ice, ['sig', 'siglocal']);
    t.equal(ready.status, 200, '/readyz: ready', { doc: ready.doc });
    t.same(ready.doc['not-ready'], [], '/readyz: no catalog held back');

    // What reached the gateway.
    const stats = await settledStats(gateway, [recSig, recLocal]);
    const seen = [...recSig.seen, ...recLocal.seen];
    t.same(stats.refused, {}, 'the gateway refused nothing', { log: gateway.log().slice(-4000) });
    t.ok(stats.accepted >= 40, `the gateway verified and forwarded many requests (${stats.accepted})`);
    t.same(stats.keys, { [KEY.accessKeyId]: stats.accepted }, 'all signed with the configured key');
    t.equal(seen.length, stats.accepted, 'every request the recorders passed on was verified (the gateway saw nothing else)');
    const methods = new Map<string, number>();
    for (const s of seen) methods.set(s.method, (methods.get(s.method) ?? 0) + 1);
    t.comment(`gateway: ${stats.accepted} accepted (${[...methods].map(([m, n]) => `${m} ${n}`).join(', ')}), refused ${JSON.stringify(stats.refused)}; sig ${recSig.seen.length}, siglocal ${recLocal.seen.length}`);
    t.ok((methods.get('POST') ?? 0) > 0, 'signed requests with bodies among them (commits, plans)');
    const notSigv4 = seen.filter((s) => header(s, 'authorization').length !== 1 || keyOf(s) !== KEY.accessKeyId || !header(s, 'authorization')[0]!.includes(`/${REGION}/${SERVICE}/aws4_request`));
    t.same(notSigv4.map((s) => `${s.method} ${s.url}`), [], `every request carried one Authorization: SigV4 by ${KEY.accessKeyId}, scoped to ${REGION}/${SERVICE}`);
    const leaked = seen.filter((s) => s.headers.some(([, v]) => v.includes(CALLER_TOKEN)));
    t.same(leaked.map((s) => `${s.method} ${s.url}`), [], "the callers' bearer token reached the gateway in no header");
    t.ok(
      seen.every((s) => header(s, 'x-amz-content-sha256').length === 1 && header(s, 'x-amz-date').length === 1),
      'every request declared its payload hash and date',
    );
    // who planned: the fixture through `sig`, Icefront itself through `siglocal`
    const plans = (r: Recorder) => r.seen.filter((s) => s.method === 'POST' && /\/plan$/.test(s.url.split('?')[0]!)).length;
    t.ok(plans(recSig) > 0, `sig: the clients' plans went to the fixture, signed (${plans(recSig)} POST …/plan)`);
    t.equal(plans(recLocal), 0, 'siglocal: no plan reached the fixture (Icefront planned from the table metadata it loaded, signed)');
    const loads = recLocal.seen.filter((s) => s.method === 'GET' && s.url.split('?')[0]!.endsWith(TABLE_PATH)).length;
    t.ok(loads > 0, `siglocal: table loads went to the fixture, signed (${loads})`);

    // A DELETE with neither Content-Type nor body (curl -X DELETE): signed over the empty payload.
    // http-proxy-3 sets Content-Length: 0 on every DELETE; a body of none must not become a stream
    // (signed as UNSIGNED-PAYLOAD, which AWS refuses for every service but S3).
    await gateway.reset();
    const bare = await get(`${base}/namespaces/${oddPath}`, { method: 'DELETE', headers: bearer });
    const bareSeen = recSig.seen.at(-1);
    t.equal(bare.status, 204, 'a DELETE without Content-Type or body: signed over the empty payload, accepted', {
      answer: bare.text.slice(0, 500),
      sent: bareSeen && { method: bareSeen.method, url: bareSeen.url, 'x-amz-content-sha256': header(bareSeen, 'x-amz-content-sha256'), 'content-length': header(bareSeen, 'content-length') },
    });
    t.same((await gateway.stats()).refused, {}, 'the gateway refused nothing');
  });

  await t.test('(2) credentials that change: web identity from a token file, STS credentials living 6 s, the token replaced midway', async (t) => {
    const sts = await startSigv4Gateway(env, { upstream: fixture.url, service: SERVICE, region: REGION, keys: [], sts: { durationSeconds: STS_SECONDS } });
    t.teardown(() => sts.close());
    const recWeb = await startRecorder(sts.url);
    const recRole = await startRecorder(sts.url);
    t.teardown(() => Promise.all([recWeb.close(), recRole.close()]).then(() => undefined));
    const tokenFile = path.join(dir, 'web-identity-token');
    fs.writeFileSync(tokenFile, 'web-identity-token-1');
    const configFile = writeConfig(dir, 'sts.yaml', {
      server: { host: '127.0.0.1', 'readiness-interval-ms': 1000 },
      catalogs: {
        web: { type: 'rest', uri: recWeb.url, planning: 'upstream', auth: sigv4 },
        role: { type: 'rest', uri: recRole.url, planning: 'upstream', auth: { ...sigv4, 'role-arn': TARGET_ROLE, 'role-session-name': 'icefront-role' } },
      },
    });
    // No static keys: the SDK's chain finds AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN and asks
    // STS (AssumeRoleWithWebIdentity) at AWS_ENDPOINT_URL_STS (its STS client's service id is
    // "STS": @smithy/core's getEndpointUrlConfig reads AWS_ENDPOINT_URL_<SERVICE ID>).
    const ice = await startIcefrontProcess(configFile, {
      env: awsEnv(dir, {
        AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile,
        AWS_ROLE_ARN: WEB_IDENTITY_ROLE,
        AWS_ROLE_SESSION_NAME: 'icefront-web',
        AWS_ENDPOINT_URL_STS: sts.stsEndpoint!,
        AWS_REGION: REGION,
      }),
    });
    t.teardown(() => ice.close());

    const outcomes = new Map<string, number>();
    const failures: string[] = [];
    let rotatedAt = 0;
    const started = Date.now();
    const runFor = 3 * STS_SECONDS * 1000 + 3000;
    const drive = async (catalog: 'web' | 'role') => {
      const base = `${ice.url}/v1/${catalog}`;
      const requests: Array<[string, RequestInit]> = [
        [`${base}${TABLE_PATH}`, {}],
        [`${base}/namespaces`, {}],
        [`${base}${TABLE_PATH}/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filter: { type: 'eq', term: 'grp', value: 'b' } }) }],
      ];
      for (let i = 0; Date.now() - started < runFor; i++) {
        const [url, init] = requests[i % requests.length]!;
        const r = await get(url, init).catch((e: Error) => ({ status: 0, body: undefined, text: e.message }));
        const key = `${catalog} ${init.method ?? 'GET'} ${r.status}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        if (r.status !== 200) failures.push(`${((Date.now() - started) / 1000).toFixed(1)} s ${catalog} ${init.method ?? 'GET'} ${url.slice(ice.url.length)}: ${r.status} ${r.text.slice(0, 300)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const rotate = async () => {
      await new Promise((resolve) => setTimeout(resolve, runFor / 2));
      // replaced atomically, as a kubelet swaps a projected token
      fs.writeFileSync(`${tokenFile}.new`, 'web-identity-token-2');
      fs.renameSync(`${tokenFile}.new`, tokenFile);
      rotatedAt = Date.now() - started;
    };
    await Promise.all([drive('web'), drive('role'), rotate()]);
    const seconds = (Date.now() - started) / 1000;
    t.comment(`${seconds.toFixed(1)} s of requests (credentials live ${STS_SECONDS} s; token replaced at ${(rotatedAt / 1000).toFixed(1)} s): ${[...outcomes].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
    t.ok(seconds > 3 * STS_SECONDS, `requests ran for more than 3 credential lifetimes (${seconds.toFixed(1)} s)`);
    t.same(failures, [], 'every request through Icefront succeeded', { icefront: ice.log().slice(-3000), gateway: sts.log().slice(-3000) });

    // A real client on the changing credentials: pyiceberg scans through both catalogs (the fixture plans).
    const want = [...expected.values()];
    for (const catalog of ['web', 'role'] as const) {
      try {
        const got = await worker.run({ client: 'pyiceberg', catalog: { name: `sts_${catalog}`, uri: ice.url, warehouse: catalog, planning: 'server' }, table: TABLE, columns: COLUMNS, files: false }, 120_000);
        sameRows(t, got, want, `pyiceberg (server planning) through ${catalog}`);
      } catch (e) {
        t.fail(`pyiceberg through ${catalog} failed: ${(e as Error).message}`, { traceback: (e as ClientError).traceback });
      }
    }
    const ready = await readyz(ice, ['web', 'role']);
    t.equal(ready.status, 200, '/readyz: ready on STS credentials', { doc: ready.doc });

    const stats = await settledStats(sts, [recWeb, recRole]);
    const keys = Object.keys(stats.keys);
    t.comment(
      `gateway: ${stats.accepted} accepted, refused ${JSON.stringify(stats.refused)}, ${keys.length} STS keys; STS: ${stats.sts.assumeRoleWithWebIdentity} AssumeRoleWithWebIdentity, ${stats.sts.assumeRole} AssumeRole, tokens ${JSON.stringify(stats.sts.tokens)}`,
    );
    t.same(stats.refused, {}, 'the gateway refused nothing (no expired, unknown or mis-signed credentials)', { log: sts.log().slice(-4000) });
    t.equal(recWeb.seen.length + recRole.seen.length, stats.accepted, 'every request the recorders passed on was verified');
    t.ok(keys.length >= 3, `at least 3 different STS access keys signed (${keys.length})`);
    t.ok(keys.every((k) => /^ASIA/.test(k)), 'all temporary (ASIA…) keys');
    t.same(stats.sts.tokens, ['web-identity-token-1', 'web-identity-token-2'], 'STS got both web identity tokens, in order');
    t.ok(stats.sts.assumeRole > 0, `role-arn: STS AssumeRole was called (${stats.sts.assumeRole})`);

    // Whose keys: moto's STS names the role behind each one.
    const arnsOf = async (r: Recorder) => {
      const distinct = [...new Set(r.seen.map(keyOf).filter((k): k is string => k !== undefined))];
      const arns = await Promise.all(distinct.map((k) => callerArn(sts.stsEndpoint!, k)));
      return { distinct, roles: [...new Set(arns.map((a) => a.replace(/^arn:aws:sts::\d+:assumed-role\/([^/]+)\/.*$/, '$1 ($&)')))] };
    };
    const web = await arnsOf(recWeb);
    const role = await arnsOf(recRole);
    t.ok(web.distinct.length >= 3, `web: ${web.distinct.length} different keys signed`);
    t.ok(role.distinct.length >= 3, `role: ${role.distinct.length} different keys signed`);
    t.ok(
      web.roles.length > 0 && web.roles.every((r) => r.startsWith('icefront (arn:aws:sts::123456789012:assumed-role/icefront/icefront-web)')),
      'web: every key was the web identity role’s (AssumeRoleWithWebIdentity, AWS_ROLE_SESSION_NAME)',
      { roles: web.roles },
    );
    t.ok(
      role.roles.length > 0 && role.roles.every((r) => r.startsWith('icefront-target (arn:aws:sts::123456789012:assumed-role/icefront-target/icefront-role)')),
      'role: every key was the target role’s (AssumeRole with role-arn and role-session-name)',
      { roles: role.roles },
    );
    t.same(
      [...recWeb.seen, ...recRole.seen].filter((s) => header(s, 'x-amz-security-token').length !== 1).map((s) => `${s.method} ${s.url}`),
      [],
      'every request carried its session token',
    );
  });

  await t.test('(3) what goes wrong is told: a wrong secret, a skewed clock, no region', async (t) => {
    const skewed = await startSigv4Gateway(env, { upstream: fixture.url, service: SERVICE, region: REGION, keys: [KEY], clockOffsetSeconds: 1200 });
    t.teardown(() => skewed.close());
    await gateway.reset();
    const credentials = path.join(dir, 'credentials');
    fs.writeFileSync(
      credentials,
      `[wrong]\naws_access_key_id = ${KEY.accessKeyId}\naws_secret_access_key = ${KEY.secretAccessKey}x\n\n[right]\naws_access_key_id = ${KEY.accessKeyId}\naws_secret_access_key = ${KEY.secretAccessKey}\n`,
    );
    const configFile = writeConfig(dir, 'faults.yaml', {
      server: { host: '127.0.0.1', 'readiness-interval-ms': 500 },
      catalogs: {
        wrongsecret: { type: 'rest', uri: gateway.url, planning: 'upstream', auth: { ...sigv4, profile: 'wrong' } },
        skewed: { type: 'rest', uri: skewed.url, planning: 'upstream', auth: { ...sigv4, profile: 'right' } },
      },
    });
    const ice = await startIcefrontProcess(configFile, { env: awsEnv(dir, { AWS_SHARED_CREDENTIALS_FILE: credentials }) });
    t.teardown(() => ice.close());

    const cases = [
      { catalog: 'wrongsecret', gw: gateway, said: /InvalidSignatureException: The request signature we calculated does not match the signature you provided\./ },
      { catalog: 'skewed', gw: skewed, said: /InvalidSignatureException: Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z/ },
    ] as const;
    for (const c of cases) {
      const r = await get(`${ice.url}/v1/${c.catalog}${TABLE_PATH}`);
      const error = (r.body as { error?: { message?: string; type?: string; code?: number } } | undefined)?.error;
      t.equal(r.status, 403, `${c.catalog}: load-table answered 403`, { body: r.text });
      t.equal(error?.code, 403, `${c.catalog}: an ErrorModel`, { body: r.text });
      t.match(error?.message ?? '', new RegExp(`Catalog '${c.catalog}'`), `${c.catalog}: its message names the catalog: ${error?.message}`);
      t.match(error?.message ?? '', c.said, `${c.catalog}: and AWS's error`);
      t.comment(`${c.catalog}: 403 ${error?.type}: ${error?.message}`);
      // a real client sees the same words
      const failed = await worker
        .run({ client: 'pyiceberg', catalog: { name: `bad_${c.catalog}`, uri: ice.url, warehouse: c.catalog, planning: 'client' }, table: TABLE, columns: COLUMNS, files: false }, 60_000)
        .then(
          () => 'read rows',
          (e: ClientError) => e.message,
        );
      t.match(failed, c.said, `${c.catalog}: pyiceberg's error carries AWS's words: ${failed.split('\n')[0]}`);
    }

    const ready = await readyz(ice, ['wrongsecret', 'skewed']);
    t.equal(ready.status, 503, '/readyz: not ready', { doc: ready.doc });
    t.equal(ready.doc.status, 'not-ready');
    t.same([...ready.doc['not-ready']].sort(), ['skewed', 'wrongsecret'], '/readyz names both catalogs');
    for (const c of cases) {
      const state = ready.doc.catalogs[c.catalog];
      t.match(state, { ready: false, reason: 'status', status: 403 }, `/readyz: ${c.catalog} not ready, reason status 403`);
      t.match(state?.message ?? '', /^GET \/v1\/config answered HTTP 403 \(/, `/readyz: ${c.catalog}: ${state?.message}`);
      t.match(state?.message ?? '', c.said, `/readyz: ${c.catalog} with AWS's error`);
    }
    const [wrongStats, skewedStats] = await Promise.all([gateway.stats(), skewed.stats()]);
    t.ok((wrongStats.refused['InvalidSignatureException'] ?? 0) > 0 && wrongStats.accepted === 0, `the gateway refused the wrong secret's signatures (${JSON.stringify(wrongStats.refused)}), accepted none`);
    t.ok((skewedStats.refused['InvalidSignatureException'] ?? 0) > 0 && skewedStats.accepted === 0, `the skewed gateway refused every date (${JSON.stringify(skewedStats.refused)}), accepted none`);
    t.match(gateway.log(), /--- canonical request ---\nGET\n\/v1\/config\n/, "the gateway logged the canonical request it computed for Icefront's GET /v1/config");

    // (c) no region in the config nor the environment: `icefront serve` stops at start.
    const noRegion = writeConfig(dir, 'no-region.yaml', {
      server: { host: '127.0.0.1' },
      catalogs: { glue: { type: 'rest', uri: gateway.url, auth: { mode: 'sigv4', 'signing-name': SERVICE } } },
    });
    const exit = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'src/cli.ts'), 'serve', '--config', noRegion, '--port', '0'], {
        cwd: REPO,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...awsEnv(dir, { AWS_ACCESS_KEY_ID: KEY.accessKeyId, AWS_SECRET_ACCESS_KEY: KEY.secretAccessKey }) },
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
    t.not(exit.code, 0, `icefront serve exited with ${exit.code}`);
    t.notMatch(exit.output, /listening on/, 'without listening');
    t.match(exit.output, /catalogs\.glue\.auth/, 'naming catalogs.glue.auth');
    t.match(exit.output, /auth\.region/, 'naming auth.region');
    t.match(exit.output, /AWS_REGION/, 'and AWS_REGION');
    t.comment(`no region: exit ${exit.code}: ${exit.output.trim().split('\n').slice(0, 4).join(' | ')}`);
  });
}
