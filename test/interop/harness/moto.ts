/**
 * moto's S3 in server mode (PyPI `moto[server]`, tools/interop/moto-server.py) as a child
 * process on 127.0.0.1 with a kernel-chosen port, the named buckets created before it reports
 * ready. moto accepts any credentials; these are the ones every client is given.
 */
import { startStdinBoundServer } from './processes.js';
import type { InteropEnv } from './toolchain.js';

export interface MotoS3 {
  /** `http://127.0.0.1:<port>` (path-style only: buckets cannot be host names on an IP). */
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** moto's stderr so far (werkzeug's request log), for failure messages. */
  log(): string;
  close(): Promise<void>;
}

export async function startMoto(env: InteropEnv, buckets: readonly string[], options: { startTimeoutMs?: number } = {}): Promise<MotoS3> {
  if (!env.motoServer) throw new Error('.interop/env.json names no motoServer: rerun tools/interop/setup.sh');
  const server = await startStdinBoundServer(env.python, [env.motoServer, ...buckets.flatMap((b) => ['--bucket', b])], 'moto', { startTimeoutMs: options.startTimeoutMs ?? 60_000 });
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    region: 'us-east-1',
    accessKeyId: 'interop',
    secretAccessKey: 'interop-secret',
    log: () => server.err.toString(),
    close: server.close,
  };
}

/**
 * The YAML lines (under `catalogs:`) of a `sql` catalog `name` on the SQLite file `db` whose
 * warehouse `warehouse` (`s3://…`) is on this moto; its keys are `${S3_KEY}` and `${S3_SECRET}`,
 * which `motoKeys` gives parseConfig.
 */
export function sqlCatalogOnMoto(moto: MotoS3, name: string, db: string, warehouse: string): string[] {
  return [
    `  ${name}:`,
    '    type: sql',
    `    uri: sqlite:${db}`,
    `    catalog-name: ${name}`,
    `    warehouse-location: ${warehouse}`,
    '    storage:',
    '      s3:',
    `        endpoint: ${moto.endpoint}`,
    `        region: ${moto.region}`,
    '        path-style: true',
    '        access-key-id: ${S3_KEY}',
    '        secret-access-key: ${S3_SECRET}',
  ];
}

/** The environment `sqlCatalogOnMoto`'s keys are read from. */
export function motoKeys(moto: MotoS3): NodeJS.ProcessEnv {
  return { S3_KEY: moto.accessKeyId, S3_SECRET: moto.secretAccessKey };
}
