/**
 * Icefront over HTTPS (issue #42 item 3, server.tls): real certificates made by openssl, real
 * handshakes. The probes and the catalog API over TLS; with ca-file, a client certificate from
 * that CA is needed for everything but the probes; certificates re-read on reload are served to
 * new connections while an open one goes on with its own.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import t, { type Test } from 'tap';
import { Agent, request } from 'undici';
import { loadConfigFile } from '../../src/config/index.js';
import { startIcefront, type RunningIcefront } from '../../src/main.js';
import { createLogger } from '../../src/observability/index.js';
import { makeCertificates } from '../helpers/certificates.js';

const certs = makeCertificates();
t.teardown(() => certs.remove());
const warehouse = path.join(certs.dir, 'warehouse');
fs.mkdirSync(warehouse);

async function serve(t: Test, serverTls: string): Promise<{ icefront: RunningIcefront; file: string }> {
  const file = path.join(certs.dir, `icefront-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, `server: { tls: ${serverTls} }\ncatalogs:\n  lake: { type: filesystem, warehouse: ${JSON.stringify(warehouse)} }\n`);
  const icefront = await startIcefront(loadConfigFile(file), { port: 0, logger: createLogger({ level: 'silent' }) });
  t.teardown(() => icefront.close());
  return { icefront, file };
}

/** A GET over TLS as a client trusting `ca`, presenting `cert` when given: status and body, or the client's error code. */
async function get(url: string, options: { ca?: string; cert?: string; key?: string } = {}): Promise<{ status: number; body: string } | { error: string }> {
  const agent = new Agent({ connect: { ...(options.ca && { ca: options.ca }), ...(options.cert && { cert: options.cert, key: options.key }) } });
  try {
    const res = await request(url, { dispatcher: agent });
    return { status: res.statusCode, body: await res.body.text() };
  } catch (err) {
    return { error: String((err as { code?: string }).code ?? err) };
  } finally {
    await agent.close();
  }
}

/** A TLS connection to `url` as a client trusting `ca`, once its handshake is done. */
function connect(url: string, ca: string): Promise<tls.TLSSocket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: hostname, port: Number(port), ca }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** One HTTP/1.1 GET on an open connection, kept open: the status line's code. */
function getOn(socket: tls.TLSSocket, route: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (c: Buffer) => {
      text += c.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n/.exec(text);
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? -1);
      if (m && length >= 0 && text.length >= m[0].length + length) {
        socket.off('data', onData);
        resolve(Number(m[1]));
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`GET ${route} HTTP/1.1\r\nHost: icefront\r\n\r\n`);
  });
}

const fingerprintOf = (file: string) => new X509Certificate(certs.read(file)).fingerprint256;

t.test('Icefront serves its API, /metrics and probes over HTTPS to a client that trusts its CA', async (t) => {
  const { icefront } = await serve(t, `{ cert-file: ${certs.serverCert}, key-file: ${certs.serverKey} }`);
  t.match(icefront.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  const ca = certs.read(certs.caFile);
  t.match(await get(`${icefront.url}/healthz`, { ca }), { status: 200 });
  t.match(await get(`${icefront.url}/readyz`, { ca }), { status: 200 });
  t.match(await get(`${icefront.url}/metrics`, { ca }), { status: 200, body: /icefront_/ });
  const config = await get(`${icefront.url}/v1/config?warehouse=lake`, { ca });
  t.match(config, { status: 200 });
  t.match(JSON.parse((config as { body: string }).body), { overrides: { prefix: 'lake' } });
  t.match(await get(`${icefront.url}/healthz`), { error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }, 'a client without the CA refuses the certificate');
});

t.test('with ca-file, a client certificate from that CA is needed for all but the probes', async (t) => {
  const { icefront } = await serve(t, `{ cert-file: ${certs.serverCert}, key-file: ${certs.serverKey}, ca-file: ${certs.caFile} }`);
  const ca = certs.read(certs.caFile);
  const client = { ca, cert: certs.read(certs.clientCert), key: certs.read(certs.clientKey) };
  const stranger = { ca, cert: certs.read(certs.strangerCert), key: certs.read(certs.strangerKey) };
  t.match(await get(`${icefront.url}/v1/config?warehouse=lake`, client), { status: 200 }, 'with a certificate from the CA');
  const none = await get(`${icefront.url}/v1/config?warehouse=lake`, { ca });
  t.match(none, { status: 401 });
  t.match(JSON.parse((none as { body: string }).body), { error: { code: 401, type: 'NotAuthorizedException', message: /A client certificate is required.*server\.tls\.ca-file/ } });
  const other = await get(`${icefront.url}/v1/namespaces`, stranger);
  t.match(other, { status: 401 });
  t.match(JSON.parse((other as { body: string }).body), { error: { message: /The client certificate was not accepted \(.+\): it must be signed by a CA in server\.tls\.ca-file/ } });
  t.match(await get(`${icefront.url}/healthz`, { ca }), { status: 200 }, 'probes need none');
  t.match(await get(`${icefront.url}/readyz`, { ca }), { status: 200 });
});

t.test('a certificate rotated on disk and reloaded is served to new connections; an open connection goes on', async (t) => {
  const cert = path.join(certs.dir, 'live.pem');
  const key = path.join(certs.dir, 'live.key');
  fs.copyFileSync(certs.serverCert, cert);
  fs.copyFileSync(certs.serverKey, key);
  const { icefront } = await serve(t, `{ cert-file: ${cert}, key-file: ${key} }`);
  const ca = certs.read(certs.caFile);
  // a keep-alive connection opened before the rotation
  const old = await connect(icefront.url, ca);
  t.teardown(() => old.destroy());
  t.equal(await getOn(old, '/healthz'), 200);
  t.equal(old.getPeerCertificate().fingerprint256, fingerprintOf(certs.serverCert), 'served the certificate in the file at start');

  fs.copyFileSync(certs.rotatedCert, cert);
  fs.copyFileSync(certs.rotatedKey, key);
  t.match(await icefront.reload(), { applied: true });
  const fresh = await connect(icefront.url, ca);
  t.equal(fresh.getPeerCertificate().fingerprint256, fingerprintOf(certs.rotatedCert), 'a new connection is served the rotated certificate');
  t.equal(await getOn(fresh, '/healthz'), 200);
  fresh.destroy();
  t.equal(await getOn(old, '/healthz'), 200, 'the connection opened before goes on, on its own certificate');
  t.equal(old.getPeerCertificate().fingerprint256, fingerprintOf(certs.serverCert));

  fs.writeFileSync(cert, 'not a certificate');
  const refused = await icefront.reload();
  t.match(refused, { applied: false, error: /server\.tls\.cert-file: .* holds no PEM certificate/ }, 'a broken file is refused');
  const third = await connect(icefront.url, ca);
  t.equal(third.getPeerCertificate().fingerprint256, fingerprintOf(certs.rotatedCert), 'and the running certificate stays');
  third.destroy();
});

t.test('turning HTTPS on or off needs a restart; the running listener keeps serving', async (t) => {
  const { icefront, file } = await serve(t, `{ cert-file: ${certs.serverCert}, key-file: ${certs.serverKey} }`);
  fs.writeFileSync(file, `catalogs:\n  lake: { type: filesystem, warehouse: ${JSON.stringify(warehouse)} }\n`);
  t.match(await icefront.reload(), { applied: false, error: /server\.tls changed, which only a restart applies/ });
  t.match(await get(`${icefront.url}/healthz`, { ca: certs.read(certs.caFile) }), { status: 200 });
});
