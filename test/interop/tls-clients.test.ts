/**
 * TLS both ways with real clients and a real TLS terminator (issue #42's interop proofs), every
 * certificate made by openssl in the test (test/helpers/certificates.ts: a private CA, server
 * certificates for 127.0.0.1, a client certificate, and one from another CA):
 *
 * ```
 * pyiceberg (ssl.cabundle) ─┐                 ┌─ fx   (tls.ca-file) ──▶ Debian's nginx  ──HTTP──▶ REST fixture
 * Spark (JVM truststore) ───┼─HTTPS─▶ Icefront┤                         (listen … ssl,
 *                           │  (server.tls)   └─ bare (no tls) ───✗──▶  the CA's cert)
 * pyiceberg (client cert) ──┴─HTTPS─▶ Icefront (server.tls + ca-file: mutual TLS) ─▶ fx ─▶ nginx …
 * ```
 *
 * Icefront runs as operators run it (`icefront serve --config FILE`, harness/icefront-process.ts),
 * its config naming every PEM file relative to itself. pyiceberg writes a table through Icefront
 * over HTTPS, Icefront relays to the fixture through nginx over HTTPS; pyiceberg straight on the
 * fixture (plain HTTP, no Icefront, no TLS) must then read exactly the rows written, and pyiceberg
 * (`ssl: {cabundle}`) and Spark (`-Djavax.net.ssl.trustStore`, a PKCS12 made by keytool from the
 * CA) through Icefront over HTTPS, client and server planning, the same rows. Refused: pyiceberg
 * without the CA (certificate verification); the `bare` catalog (no tls.ca-file) answers 502 with
 * a message saying to give the CA as tls.ca-file, to Node and to pyiceberg, and `/readyz` names
 * reason `tls` for it. With `server.tls.ca-file`: pyiceberg without a client certificate, with one
 * from another CA, and Spark (its JVM presents none) are refused with 401; pyiceberg with the
 * client certificate reads the rows; the probes answer without one.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import t, { type Test } from 'tap';
import { makeCertificates } from '../helpers/certificates.js';
import { openApiAvailable, validateAgainst } from '../helpers/openapi.js';
import { ClientError, ClientWorker, type CatalogRef, type PyicebergWrote, type ScanResult } from './harness/clients.js';
import { compareScan } from './harness/compare.js';
import { startIcefrontProcess, type IcefrontProcess } from './harness/icefront-process.js';
import { ensureNginx, startNginxTlsTerminator } from './harness/nginx.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { interopToolchain } from './harness/toolchain.js';

t.setTimeout(10 * 60_000);

const TABLE = 'tls.events';
const COLUMNS = ['id', 'kind', 'day'];
/** Two appends (two commits, two data files). */
const BATCHES: ReadonlyArray<ReadonlyArray<{ id: number; kind: string; day: string }>> = [
  [
    { id: 1, kind: 'a', day: '2026-03-01' },
    { id: 2, kind: 'b', day: '2026-03-01' },
    { id: 3, kind: 'a', day: '2026-03-02' },
  ],
  [
    { id: 4, kind: 'c', day: '2026-03-03' },
    { id: 5, kind: 'b', day: '2026-03-04' },
  ],
];
/** The rows written, as clients/rows.py writes a row (JSON, keys sorted; a date as its ISO string), sorted. */
const WRITTEN = BATCHES.flat()
  .map((r) => JSON.stringify({ day: r.day, id: r.id, kind: r.kind }))
  .sort();
const TRUSTSTORE_PASSWORD = 'icefront-interop';

/** A GET over HTTPS from this process, trusting `ca` (and presenting a client certificate if given); the answer's status and JSON. */
function httpsGet(url: string, tls: { ca: string; cert?: string; key?: string }): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ...tls, agent: false, timeout: 15_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(body) as unknown });
        } catch {
          reject(new Error(`GET ${url}: ${res.statusCode}, not JSON: ${body.slice(0, 300)}`));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer within 15 s`)));
    req.on('error', reject);
  });
}

/**
 * The message of a failed client job, its first line written to the test log ('' when it
 * succeeded: the caller's match then fails, naming it).
 */
const refusal = (t: Test, what: string, job: Promise<unknown>): Promise<string> =>
  job.then(
    () => '',
    (e: ClientError) => {
      // the line that names the failure (Py4J's first line only names the call)
      const lines = e.message.split('\n').filter((l) => l.trim() !== '' && !/^Py4JJavaError: An error occurred while calling/.test(l));
      t.comment(`${what}: ${(lines[0] ?? e.message).trim().replace(/^:\s*/, '').slice(0, 400)}`);
      return `${e.message}\n${e.traceback.split('\n').slice(-6).join('\n')}`;
    },
  );

const env = await interopToolchain(t);
const nginxHere = env && (await ensureNginx());
if (nginxHere && !nginxHere.ok) {
  if (process.env['CI']) t.fail(`the TLS interop test needs Debian's nginx: ${nginxHere.why} (CI is set, so this fails instead of skipping)`);
  else t.skip(`the TLS interop test needs Debian's nginx: ${nginxHere.why}`, () => {});
}
if (env && nginxHere?.ok) {
  t.comment(nginxHere.version);
  const certs = makeCertificates();
  t.teardown(() => certs.remove());
  const ca = certs.read(certs.caFile);

  // Spark's trust: a PKCS12 truststore holding only the test's CA, made by the JDK's keytool
  const truststore = path.join(certs.dir, 'truststore.p12');
  execFileSync('keytool', ['-importcert', '-noprompt', '-alias', 'icefront-test-ca', '-file', certs.caFile, '-keystore', truststore, '-storetype', 'PKCS12', '-storepass', TRUSTSTORE_PASSWORD], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });

  const fixture = await startRestFixture(env);
  t.teardown(() => fixture.close());
  // nginx serves the CA's certificate for 127.0.0.1 (SAN IP:127.0.0.1) and passes plain HTTP to the fixture
  const nginx = await startNginxTlsTerminator(fixture.url, { certFile: certs.serverCert, keyFile: certs.serverKey });
  t.teardown(() => nginx.close());

  // Icefront's own server certificate is another one the CA signed for the loopback names
  const writeConfig = (name: string, serverTls: string) => {
    const file = path.join(certs.dir, name);
    fs.writeFileSync(
      file,
      [
        'logging: { level: warn }',
        'server:',
        '  readiness-interval-ms: 300',
        `  tls: ${serverTls}`,
        'catalogs:',
        '  fx:',
        '    type: rest',
        `    uri: ${nginx.url}`,
        `    tls: { ca-file: ${path.basename(certs.caFile)} }`,
        '  bare:',
        '    type: rest',
        `    uri: ${nginx.url}`,
        '',
      ].join('\n'),
    );
    return file;
  };
  const serverTls = `{ cert-file: ${path.basename(certs.rotatedCert)}, key-file: ${path.basename(certs.rotatedKey)}`;
  const [ice, mtls] = await Promise.all([
    startIcefrontProcess(writeConfig('icefront.yaml', `${serverTls} }`)),
    startIcefrontProcess(writeConfig('icefront-mtls.yaml', `${serverTls}, ca-file: ${path.basename(certs.caFile)} }`)),
  ]);
  t.teardown(() => Promise.all([ice.close(), mtls.close()]));

  // REQUESTS_CA_BUNDLE and CURL_CA_BUNDLE (set on some machines) would override pyiceberg's
  // ssl.cabundle: requests' merge_environment_settings prefers them to Session.verify
  const worker = ClientWorker.start(env, {
    sparkJavaOptions: [`-Djavax.net.ssl.trustStore=${truststore}`, `-Djavax.net.ssl.trustStorePassword=${TRUSTSTORE_PASSWORD}`, '-Djavax.net.ssl.trustStoreType=PKCS12'],
    env: { REQUESTS_CA_BUNDLE: undefined, CURL_CA_BUNDLE: undefined },
  });
  t.teardown(() => worker.close());

  const diag = (...processes: IcefrontProcess[]) => ({
    nginxAccess: nginx.accessLog().slice(-30),
    // without keep-alive connections closed by their clients, which are not errors
    nginxErrors: nginx.errorLog().split('\n').filter((l) => l !== '' && !/while waiting for request/.test(l)).slice(-15),
    icefront: processes.map((p) => p.log().slice(-3000)),
  });
  const through = (server: IcefrontProcess, name: string, planning: 'server' | 'client', tls?: CatalogRef['tls'], warehouse = 'fx'): CatalogRef => ({
    name,
    uri: server.url,
    warehouse,
    planning,
    ...(tls && { tls }),
  });
  const withCa = { caFile: certs.caFile };

  await t.test('both Icefronts serve HTTPS, and nginx terminates TLS in front of the fixture', async (t) => {
    t.match(ice.url, /^https:\/\/127\.0\.0\.1:\d+$/, `Icefront: ${ice.url}`);
    t.match(mtls.url, /^https:\/\/127\.0\.0\.1:\d+$/, `Icefront with server.tls.ca-file: ${mtls.url}`);
    t.match(nginx.url, /^https:\/\/127\.0\.0\.1:\d+$/, `nginx in front of the fixture: ${nginx.url}`);
    const direct = await httpsGet(`${nginx.url}/v1/config`, { ca });
    t.equal(direct.status, 200, "the fixture's /v1/config through nginx, trusting the CA");
    t.match(nginx.accessLog().at(-1), /^GET \/v1\/config 200 ssl=TLSv1\.[23] upstream_status=200$/, 'nginx logged it, over TLS, relayed to the fixture');
  });

  let truth: ScanResult | undefined;
  await t.test('pyiceberg writes through Icefront over HTTPS (given the CA); Icefront reaches the fixture through nginx with tls.ca-file', async (t) => {
    const before = nginx.accessLog().length;
    const wrote = (await worker.run({
      client: 'pyiceberg',
      catalog: through(ice, 'writer', 'client', withCa),
      ops: [
        { op: 'create_namespace', namespace: 'tls' },
        { op: 'create_table', table: TABLE, schema: [['id', 'long'], ['kind', 'string'], ['day', 'date']] },
        ...BATCHES.map((rows) => ({ op: 'append' as const, table: TABLE, rows })),
      ],
    })) as PyicebergWrote;
    t.match(wrote.snapshots[TABLE], /^-?\d+$/, 'the table has a current snapshot');
    const relayed = nginx.accessLog().slice(before);
    const commits = relayed.filter((l) => /^POST \/v1\/(\S+\/)?namespaces\/tls\/tables\/events 200 ssl=TLSv1\.[23] /.test(l));
    t.equal(commits.length, BATCHES.length, 'each append was a commit Icefront relayed through nginx over TLS', { relayed, ...diag(ice) });

    // truth: pyiceberg straight on the fixture, plain HTTP: no Icefront, no TLS
    truth = await worker.run({ client: 'pyiceberg', catalog: { name: 'truth', uri: fixture.url, planning: 'client' }, table: TABLE, columns: COLUMNS });
    t.same(truth.rows, WRITTEN, 'the fixture holds exactly the rows written');
    t.equal(truth.files?.length, BATCHES.length, 'one data file per append');
  });

  const readers: ReadonlyArray<{ client: 'pyiceberg' | 'spark'; planning: 'server' | 'client' }> = [
    { client: 'pyiceberg', planning: 'client' },
    { client: 'pyiceberg', planning: 'server' },
    { client: 'spark', planning: 'client' },
    { client: 'spark', planning: 'server' },
  ];
  for (const r of readers) {
    const how = r.client === 'spark' ? 'a JVM truststore made from the CA' : 'ssl.cabundle = the CA';
    await t.test(`${r.client} (scan-planning-mode=${r.planning}) reads the rows through Icefront over HTTPS, given ${how}`, async (t) => {
      if (!truth) return t.fail('no truth: the write failed');
      const before = nginx.accessLog().length;
      const got = await worker.run({ client: r.client, catalog: through(ice, `https_${r.client}_${r.planning}`, r.planning, r.client === 'pyiceberg' ? withCa : undefined), table: TABLE, columns: COLUMNS });
      compareScan(t, { table: TABLE, filter: '', client: `${r.client} via Icefront https (${r.planning} planning)`, files: r.client === 'spark' ? 'read' : 'planned' }, truth, got);
      t.same(got.rows, WRITTEN, 'the rows written');
      const relayed = nginx.accessLog().slice(before);
      t.ok(
        relayed.some((l) => /^GET \/v1\/(\S+\/)?namespaces\/tls\/tables\/events 200 ssl=TLSv1\.[23] /.test(l)),
        'its load-table went on through nginx over TLS',
        { relayed },
      );
      if (r.planning === 'server')
        t.ok(
          relayed.some((l) => /^POST \/v1\/(\S+\/)?namespaces\/tls\/tables\/events\/plan 200 ssl=/.test(l)),
          "and its plan was the fixture's, through nginx",
          { relayed },
        );
    });
  }

  await t.test('pyiceberg without the CA is refused: the certificate does not verify', async (t) => {
    const err = await refusal(t, 'pyiceberg without the CA', worker.run({ client: 'pyiceberg', catalog: through(ice, 'no_ca', 'client'), table: TABLE, columns: COLUMNS }));
    t.match(err, /SSLError/, 'an SSL error');
    t.match(err, /CERTIFICATE_VERIFY_FAILED|certificate verify failed/, 'certificate verification failed');
  });

  await t.test('the catalog without tls.ca-file: 502 naming the fix, and /readyz reason tls (real nginx, real handshake)', async (t) => {
    const before = nginx.accessLog().length;
    for (const route of ['/v1/config?warehouse=bare', '/v1/bare/namespaces']) {
      const got = await httpsGet(`${ice.url}${route}`, { ca });
      t.equal(got.status, 502, `${route}: 502`);
      t.match(
        got.json,
        { error: { code: 502, type: 'BadGatewayException', message: /^Catalog 'bare': .*the upstream's TLS certificate is not signed by a trusted CA: give its CA as tls\.ca-file \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/ } },
        `${route}: an ErrorModel naming the catalog and saying to give the CA as tls.ca-file`,
        diag(ice),
      );
      if (openApiAvailable()) t.same(validateAgainst('IcebergErrorResponse', got.json), [], `${route}: a valid IcebergErrorResponse`);
    }
    // fx's background checks go on meanwhile (GET /v1/config), but nothing else of fx: a listing would be bare's
    const relayed = nginx.accessLog().slice(before);
    t.notOk(
      relayed.some((l) => /^GET \/v1\/(\S+\/)?namespaces /.test(l)),
      "bare's listing never reached the fixture: Icefront broke off the handshake over nginx's certificate",
      { relayed },
    );
    const err = await refusal(t, 'pyiceberg through bare', worker.run({ client: 'pyiceberg', catalog: through(ice, 'bare', 'client', withCa, 'bare'), table: TABLE, columns: COLUMNS }));
    t.match(err, /ServerError/, 'pyiceberg through bare: a server error');
    t.match(err, /give its CA as tls\.ca-file/, 'whose message says to give the CA as tls.ca-file');

    // the background check: poll until both catalogs have been checked
    let readyz: { status: number; json: unknown } | undefined;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      readyz = await httpsGet(`${ice.url}/readyz`, { ca });
      const cats = (readyz.json as { catalogs?: Record<string, { ready?: boolean; reason?: string }> }).catalogs ?? {};
      if (cats['fx']?.ready === true && cats['bare']?.reason !== undefined) break;
    }
    t.equal(readyz?.status, 503, '/readyz: 503, one catalog is not ready');
    t.match(
      readyz?.json,
      {
        status: 'not-ready',
        'not-ready': ['bare'],
        catalogs: { fx: { ready: true }, bare: { ready: false, reason: 'tls', message: /give its CA as tls\.ca-file \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/ } },
      },
      'fx (tls.ca-file) is ready; bare is not, for reason tls',
      diag(ice),
    );
  });

  await t.test('mutual TLS (server.tls.ca-file): pyiceberg is refused without a client certificate and with a stranger one, and reads with the CA-signed one', async (t) => {
    if (!truth) return t.fail('no truth: the write failed');
    const none = await refusal(t, 'pyiceberg without a client certificate', worker.run({ client: 'pyiceberg', catalog: through(mtls, 'mtls_none', 'client', withCa), table: TABLE, columns: COLUMNS }));
    t.match(none, /NotAuthorized|Unauthorized/, 'without a client certificate: 401');
    t.match(none, /A client certificate is required/, 'saying a client certificate is required');
    const stranger = await refusal(
      t,
      "pyiceberg with another CA's client certificate",
      worker.run({ client: 'pyiceberg', catalog: through(mtls, 'mtls_stranger', 'client', { ...withCa, certFile: certs.strangerCert, keyFile: certs.strangerKey }), table: TABLE, columns: COLUMNS }),
    );
    t.match(stranger, /The client certificate was not accepted/, "with another CA's certificate: refused, saying it was not accepted");
    for (const planning of ['client', 'server'] as const) {
      const got = await worker.run({
        client: 'pyiceberg',
        catalog: through(mtls, `mtls_${planning}`, planning, { ...withCa, certFile: certs.clientCert, keyFile: certs.clientKey }),
        table: TABLE,
        columns: COLUMNS,
      });
      compareScan(t, { table: TABLE, filter: '', client: `pyiceberg via Icefront mTLS, client certificate (${planning} planning)`, files: 'planned' }, truth, got);
    }
    const spark = await refusal(t, 'Spark (no client certificate)', worker.run({ client: 'spark', catalog: through(mtls, 'mtls_spark', 'client'), table: TABLE, columns: COLUMNS, files: false }));
    t.match(spark, /NotAuthorized/, 'Spark, whose JVM presents no client certificate: refused (401)');
    t.match(spark, /A client certificate is required/, 'saying a client certificate is required');

    for (const probe of ['/healthz', '/readyz']) {
      const got = await httpsGet(`${mtls.url}${probe}`, { ca });
      t.not(got.status, 401, `${probe} answers without a client certificate (${got.status})`);
    }
    const listed = await httpsGet(`${mtls.url}/v1/fx/namespaces`, { ca, cert: certs.read(certs.clientCert), key: certs.read(certs.clientKey) });
    t.equal(listed.status, 200, 'Node with the client certificate: 200');
    t.same((listed.json as { namespaces?: unknown }).namespaces, [['tls']], 'and the namespaces, relayed through nginx');
  });
}
