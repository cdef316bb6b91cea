/**
 * A real S3-compatible server for tests: s3rver on 127.0.0.1 (random port) over a temp
 * directory, with one bucket and optional directory trees uploaded through signed PUTs.
 * s3rver checks access key ids (only S3RVER is known) but never verifies SigV4 signatures, and
 * a delimited listing reports a common prefix only when some key sits directly below it
 * (`a/` is missing from a listing of the root when every key is `a/b/…`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { AwsClient } from 'aws4fetch';

/** The slice of s3rver 3.7.1's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
export const S3RVER_REGION = 'us-east-1';

export interface S3Upload {
  /** A local directory; every file below it is uploaded. */
  readonly dir: string;
  /** Key prefix, e.g. `warehouse/sales/orders` (files land at `<prefix>/<relative path>`). */
  readonly prefix: string;
}

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`: a path-style endpoint. */
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** Upload one object (the key is taken literally). */
  put(key: string, body: Uint8Array | string): Promise<void>;
  /** Stop the server and delete its directory. */
  close(): Promise<void>;
}

export async function startS3Server(options: { bucket?: string; uploads?: readonly S3Upload[] } = {}): Promise<S3TestServer> {
  const bucket = options.bucket ?? 'warehouse';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (err) {
    fs.rmSync(directory, { recursive: true, force: true });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new AwsClient({ ...S3RVER_CREDENTIALS, service: 's3', region: S3RVER_REGION, retries: 0 });

  const put = async (key: string, body: Uint8Array | string): Promise<void> => {
    // encoded independently of src/storage/s3 so tests do not check the FileIO against itself
    const url = `${endpoint}/${encodeURIComponent(bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const res = await client.fetch(url, { method: 'PUT', body });
    if (res.status !== 200) throw new Error(`PUT ${key} answered ${res.status}: ${await res.text()}`);
    await res.body?.cancel();
  };

  const closeAll = async () => {
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  };
  try {
    for (const upload of options.uploads ?? []) {
      for (const rel of filesBelow(upload.dir)) {
        await put(`${upload.prefix.replace(/\/+$/, '')}/${rel}`, fs.readFileSync(path.join(upload.dir, rel)));
      }
    }
  } catch (err) {
    await closeAll();
    throw err;
  }
  return { endpoint, bucket, region: S3RVER_REGION, credentials: S3RVER_CREDENTIALS, put, close: closeAll };
}

/** Paths of all regular files below `dir`, relative and `/`-separated. */
function filesBelow(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}
