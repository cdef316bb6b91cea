/**
 * Real certificates for TLS tests, made by `openssl` (issue #42): a private CA, a server
 * certificate it signs for the loopback names (and one for a name the loopback does not have),
 * and a client certificate it signs, each written as PEM into a fresh folder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface CertificateFiles {
  readonly dir: string;
  /** The CA's certificate (PEM file). */
  readonly caFile: string;
  /** A server certificate for 127.0.0.1, ::1 and localhost, and its key. */
  readonly serverCert: string;
  readonly serverKey: string;
  /** A server certificate for `upstream.test` only (to verify with a server name), and its key. */
  readonly namedCert: string;
  readonly namedKey: string;
  /** A client certificate (CN client), and its key. */
  readonly clientCert: string;
  readonly clientKey: string;
  /** A second server certificate for the loopback names, signed by the same CA (a rotation), and its key. */
  readonly rotatedCert: string;
  readonly rotatedKey: string;
  /** A client certificate signed by the other CA, and its key. */
  readonly strangerCert: string;
  readonly strangerKey: string;
  /** A second CA that signed none of them. */
  readonly otherCaFile: string;
  read(file: string): string;
  remove(): void;
}

function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A CA key and self-signed certificate `<name>.key`, `<name>.pem`. */
function makeCa(dir: string, name: string): void {
  openssl(dir, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', `/CN=${name}`]);
}

/** A key and a certificate signed by `ca` for `subjectAltName`, with the given extended key usage. */
function makeLeaf(dir: string, name: string, ca: string, subjectAltName: string, usage: 'serverAuth' | 'clientAuth'): void {
  openssl(dir, ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  fs.writeFileSync(path.join(dir, `${name}.ext`), `${subjectAltName ? `subjectAltName=${subjectAltName}\n` : ''}extendedKeyUsage=${usage}\nbasicConstraints=CA:FALSE\n`);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`]);
}

export function makeCertificates(): CertificateFiles {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-certs-'));
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  makeLeaf(dir, 'server', 'ca', 'IP:127.0.0.1,IP:::1,DNS:localhost', 'serverAuth');
  makeLeaf(dir, 'named', 'ca', 'DNS:upstream.test', 'serverAuth');
  makeLeaf(dir, 'client', 'ca', '', 'clientAuth');
  makeLeaf(dir, 'rotated', 'ca', 'IP:127.0.0.1,IP:::1,DNS:localhost', 'serverAuth');
  makeLeaf(dir, 'stranger', 'other-ca', '', 'clientAuth');
  const at = (name: string) => path.join(dir, name);
  return {
    dir,
    caFile: at('ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    namedCert: at('named.pem'),
    namedKey: at('named.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    rotatedCert: at('rotated.pem'),
    rotatedKey: at('rotated.key'),
    strangerCert: at('stranger.pem'),
    strangerKey: at('stranger.key'),
    otherCaFile: at('other-ca.pem'),
    read: (file) => fs.readFileSync(file, 'utf8'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
