/** Copies a folder's files to an S3-compatible store (moto) with the interop venv's boto3: the bench table's metadata, for bench/peer.ts. */
import { execFileSync } from 'node:child_process';
import type { MotoS3 } from '../test/interop/harness/moto.js';
import type { InteropEnv } from '../test/interop/harness/toolchain.js';

const SCRIPT = `
import os, sys, boto3
endpoint, region, key, secret, bucket, prefix, folder = sys.argv[1:8]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name=region, aws_access_key_id=key, aws_secret_access_key=secret)
n = 0
for name in sorted(os.listdir(folder)):
    s3.upload_file(os.path.join(folder, name), bucket, f"{prefix}/{name}")
    n += 1
print(n)
`;

/** Uploads every file directly in `folder` to `s3://bucket/prefix/<name>`; returns how many. */
export function uploadFolder(env: InteropEnv, moto: MotoS3, bucket: string, prefix: string, folder: string): number {
  const out = execFileSync(env.python, ['-c', SCRIPT, moto.endpoint, moto.region, moto.accessKeyId, moto.secretAccessKey, bucket, prefix, folder], { encoding: 'utf8' });
  return Number(out.trim());
}
