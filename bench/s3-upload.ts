/**
 * Copies a folder's files to an S3-compatible store (moto) with the interop venv's boto3, eight at
 * a once: a bench table's metadata. Asynchronous on purpose: moto writes a request-log line to its
 * stderr pipe per request, which only this process's event loop drains; under a synchronous child
 * the pipe fills after a few hundred PUTs and moto stops answering.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { MotoS3 } from '../test/interop/harness/moto.js';
import type { InteropEnv } from '../test/interop/harness/toolchain.js';

const SCRIPT = `
import os, sys, boto3
from concurrent.futures import ThreadPoolExecutor
endpoint, region, key, secret, bucket, prefix, folder = sys.argv[1:8]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name=region, aws_access_key_id=key, aws_secret_access_key=secret)
names = sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n)))
with ThreadPoolExecutor(8) as pool:
    list(pool.map(lambda name: s3.upload_file(os.path.join(folder, name), bucket, f"{prefix}/{name}"), names))
print(len(names))
`;

/** Uploads every file directly in `folder` to `s3://bucket/prefix/<name>`; resolves to how many. */
export async function uploadFolder(env: InteropEnv, moto: MotoS3, bucket: string, prefix: string, folder: string): Promise<number> {
  const { stdout } = await promisify(execFile)(env.python, ['-c', SCRIPT, moto.endpoint, moto.region, moto.accessKeyId, moto.secretAccessKey, bucket, prefix, folder], { encoding: 'utf8' });
  return Number(stdout.trim());
}
