/**
 * TLS to upstreams (issue #42 item 2): a `rest` catalog's `tls` (ca-file, cert-file, key-file,
 * server-name) reaches every connection Icefront makes to the upstream, through its one
 * transport; real certificates made by openssl, real TLS handshakes with Node's https server.
 */
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { createRestUpstream, probeUpstream } from '../../../src/catalogs/index.js';
import { loadConfigFile, type RestCatalogConfig } from '../../../src/config/index.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import { buildIcefront } from '../../../src/main.js';
import { makeCertificates } from '../../helpers/certificates.js';
import { testConfig } from '../../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, type UpstreamStub } from '../../helpers/upstream-stub.js';

const certs = makeCertificates();
t.teardown(() => certs.remove());

/** A rest catalog on `stub` as a config file with `tls` would give it (files read as loadConfigFile reads them). */
function catalogWith(t: Test, stub: UpstreamStub, tls: string | undefined, uri = stub.uri): RestCatalogConfig {
  const file = path.join(certs.dir, `icefront-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, `catalogs:\n  up:\n    type: rest\n    uri: ${uri}\n${tls ? `    tls: ${tls}\n` : ''}`);
  t.teardown(() => fs.rmSync(file, { force: true }));
  const loaded = loadConfigFile(file).catalogs.get('up') as RestCatalogConfig;
  return stubCatalogConfig(stub, { uri, ...(loaded.tls && { tls: loaded.tls }) });
}

async function reach(t: Test, config: RestCatalogConfig) {
  const upstream = createRestUpstream(config);
  t.teardown(() => upstream.close());
  const probe = await probeUpstream(upstream, config);
  const loaded = await upstream.fetchConfig().then(
    (c) => ({ ok: true as const, prefix: c.prefix }),
    (err: unknown) => ({ ok: false as const, code: isIcefrontError(err) ? err.code : String(err), status: isIcefrontError(err) ? err.status : 0, message: (err as Error).message }),
  );
  return { probe, loaded };
}

const serve = async (t: Test, tls: Parameters<typeof startUpstreamStub>[0] extends infer O ? (O extends { tls?: infer T } ? T : never) : never) => {
  const stub = await startUpstreamStub({ prefix: 'wh', tls });
  t.teardown(() => stub.close());
  return stub;
};

t.test('an upstream under a private CA is refused without tls.ca-file, with a message that says so, and reached with it', async (t) => {
  const stub = await serve(t, { cert: certs.read(certs.serverCert), key: certs.read(certs.serverKey) });
  t.match(stub.uri, /^https:\/\/127\.0\.0\.1:/);

  const without = await reach(t, catalogWith(t, stub, undefined));
  t.match(without.probe, { ready: false, reason: 'tls' }, '/readyz: not ready');
  t.match(without.probe.message, /not signed by a trusted CA: give its CA as tls\.ca-file \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
  t.match(without.loaded, { ok: false, code: 'UPSTREAM_BAD_GATEWAY', status: 502 });
  t.match(without.loaded.ok ? '' : without.loaded.message, /^Catalog 'up': .*give its CA as tls\.ca-file/, 'the error names the catalog and the fix');

  const wrong = await reach(t, catalogWith(t, stub, `{ ca-file: ${certs.otherCaFile} }`));
  t.match(wrong.probe, { ready: false, reason: 'tls' }, 'a CA that did not sign it is not enough');

  const withCa = await reach(t, catalogWith(t, stub, `{ ca-file: ${path.basename(certs.caFile)} }`));
  t.match(withCa.probe, { ready: true }, 'with the CA (a path relative to the config file): ready');
  t.match(withCa.loaded, { ok: true, prefix: 'wh' }, "and Icefront's own calls go through");
});

t.test('a certificate for another name needs tls.server-name', async (t) => {
  const stub = await serve(t, { cert: certs.read(certs.namedCert), key: certs.read(certs.namedKey) });
  const bare = await reach(t, catalogWith(t, stub, `{ ca-file: ${certs.caFile} }`));
  t.match(bare.probe, { ready: false, reason: 'tls' });
  t.match(bare.probe.message, /does not name the host .*set tls\.server-name/);
  const named = await reach(t, catalogWith(t, stub, `{ ca-file: ${certs.caFile}, server-name: upstream.test }`));
  t.match(named.probe, { ready: true });
  t.match(named.loaded, { ok: true });
});

t.test('mTLS: an upstream that asks for a client certificate takes tls.cert-file and tls.key-file, and refuses a connection without them', async (t) => {
  const stub = await serve(t, { cert: certs.read(certs.serverCert), key: certs.read(certs.serverKey), ca: certs.read(certs.caFile), requestCert: true, rejectUnauthorized: true });
  const without = await reach(t, catalogWith(t, stub, `{ ca-file: ${certs.caFile} }`));
  // TLS 1.3: the client's handshake ends before the server judges its certificate; the server then closes
  t.match(without.probe, { ready: false, reason: 'connection-failed' });
  t.match(without.probe.message, /the connection failed \(UND_ERR_SOCKET\); an https upstream that closes every connection at once may want a client certificate \(tls\.cert-file, tls\.key-file\)/);
  t.match(without.loaded, { ok: false, status: 502 });
  t.equal(stub.requests.length, 0, 'no request reached the upstream without a certificate');

  const withCert = await reach(t, catalogWith(t, stub, `{ ca-file: ${certs.caFile}, cert-file: ${certs.clientCert}, key-file: ${certs.clientKey} }`));
  t.match(withCert.probe, { ready: true });
  t.match(withCert.loaded, { ok: true, prefix: 'wh' });
  t.ok(stub.requests.length >= 2, 'requests came over the mutually authenticated connection');
});

t.test('tls settings are checked when the config is read', async (t) => {
  const stub = await serve(t, { cert: certs.read(certs.serverCert), key: certs.read(certs.serverKey) });
  t.throws(() => catalogWith(t, stub, `{ ca-file: no-such.pem }`), /catalogs\.up\.tls\.ca-file: cannot read .*no-such\.pem \(ENOENT/);
  t.throws(() => catalogWith(t, stub, `{ ca-file: ${certs.clientKey} }`), /tls\.ca-file: .* holds no PEM certificate/);
  t.throws(() => catalogWith(t, stub, `{ cert-file: ${certs.clientCert} }`), /catalogs\.up\.tls: must have property key-file when property cert-file is present/);
  t.throws(() => catalogWith(t, stub, `{ ca-file: ${certs.caFile} }`, stub.uri.replace('https:', 'http:')), /catalogs\.up\.tls: applies to an https:\/\/ upstream/);
});

t.test('streamed pass-through takes the same TLS settings: a caller reaches an mTLS upstream through Icefront, and gets a clear 502 when the catalog has no CA', async (t) => {
  const stub = await serve(t, { cert: certs.read(certs.serverCert), key: certs.read(certs.serverKey), ca: certs.read(certs.caFile), requestCert: true, rejectUnauthorized: true });
  stub.respond = (req) => (req.url.endsWith('/namespaces') ? { status: 200, body: '{"namespaces":[["sales"]]}' } : undefined);
  const good = catalogWith(t, stub, `{ ca-file: ${certs.caFile}, cert-file: ${certs.clientCert}, key-file: ${certs.clientKey} }`);
  const bare = { ...stubCatalogConfig(stub, { name: 'bare' }) };
  const app = buildIcefront(testConfig([good, bare])).app;
  t.teardown(() => app.close());
  const listed = await app.inject({ url: '/v1/up/namespaces' });
  t.equal(listed.statusCode, 200);
  t.same(JSON.parse(listed.body), { namespaces: [['sales']] }, "the upstream's answer, over mTLS");
  const refused = await app.inject({ url: '/v1/bare/namespaces' });
  t.equal(refused.statusCode, 502);
  t.match(JSON.parse(refused.body), { error: { code: 502, type: 'BadGatewayException', message: /^Catalog 'bare': .*give its CA as tls\.ca-file/ } });
});
