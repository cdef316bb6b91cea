/**
 * The configuration a deployment would use, written as YAML: one `rest` catalog (the Iceberg REST
 * fixture, reached through Toxiproxy), one writable `filesystem` catalog, one `sql` catalog on
 * PostgreSQL whose warehouse is on S3 (moto, reached through Toxiproxy too), the read-only demo warehouse (the hostile corpus is written against `demo`), auth
 * with two principals and limits on. `variant` is what a SIGHUP changes: the `rest` catalog's
 * request timeout, and a second filesystem catalog (`extra`) present or not.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';

export const WRITER_TOKEN = 'soak-writer-token-0123456789';
export const READER_TOKEN = 'soak-reader-token-0123456789';
/** The `rest` catalog's request timeout in each variant (the latency toxic runs past both). */
export const REQUEST_MS = [2000, 2500] as const;
export const READINESS_INTERVAL_MS = 2000;
export const SQL_CATALOG_NAME = 'soak';

export interface ConfigInputs {
  readonly file: string;
  readonly proxyUrl: string;
  readonly fixtureWarehouseDir: string;
  readonly fsWarehouse: string;
  readonly pgUri: string;
  /** The `sql` catalog's warehouse, `s3://bucket/prefix`, on `s3`. */
  readonly pgWarehouse: string;
  /** Where Icefront (and the clients it tells) reach S3: Toxiproxy's address for moto. */
  readonly s3: { readonly endpoint: string; readonly region: string; readonly accessKeyId: string; readonly secretAccessKey: string };
  readonly demoWarehouse: string;
  /** planning.cache-bytes (default: Icefront's, 256 MiB). */
  readonly planningCacheBytes?: number;
  /** Each own catalog's metadata-cache-bytes (default: Icefront's, 64 MiB). */
  readonly metadataCacheBytes?: number;
}

const sha = (token: string) => createHash('sha256').update(token).digest('hex');

export function writeConfig(inputs: ConfigInputs, variant: 0 | 1): void {
  const metadataCache = inputs.metadataCacheBytes === undefined ? [] : [`    metadata-cache-bytes: ${inputs.metadataCacheBytes}`];
  const lines = [
    'logging: { level: warn }',
    'server:',
    `  readiness-interval-ms: ${READINESS_INTERVAL_MS}`,
    '  shutdown-grace-ms: 5000',
    'planning:',
    '  batch-size: 5', // several plan tasks per plan, so clients redeem them at /tasks
    '  token-secret: soak-plan-token-secret-0123456789',
    ...(inputs.planningCacheBytes === undefined ? [] : [`  cache-bytes: ${inputs.planningCacheBytes}`]),
    'auth:',
    '  tokens:',
    `    - { sha256: "${sha(WRITER_TOKEN)}", principal: writer, roles: [etl, ops] }`,
    `    - { sha256: "${sha(READER_TOKEN)}", principal: reader, roles: [analyst] }`,
    '  allow:',
    '    - { roles: [etl], catalogs: ["*"], access: write }',
    '    - { roles: [analyst], catalogs: [up, fs, demo, extra] }', // never `pg`, never a write
    '  admin-roles: [ops]',
    '  limits: { requests-per-second: 3000, burst: 6000, max-in-flight: 96 }',
    'catalogs:',
    '  up:',
    '    type: rest',
    `    uri: ${inputs.proxyUrl}`,
    '    planning: local',
    `    timeouts: { connect-ms: 1000, request-ms: ${REQUEST_MS[variant]} }`,
    '    limits: { max-in-flight: 48, max-queued: 256 }',
    `    storage: { local: { roots: [${JSON.stringify(inputs.fixtureWarehouseDir)}] } }`,
    '  fs:',
    '    type: filesystem',
    `    warehouse: ${JSON.stringify(inputs.fsWarehouse)}`,
    ...metadataCache,
    '  pg:',
    '    type: sql',
    `    uri: ${inputs.pgUri}`,
    `    catalog-name: ${SQL_CATALOG_NAME}`,
    `    warehouse-location: ${inputs.pgWarehouse}`,
    '    storage:',
    '      s3:',
    `        endpoint: ${inputs.s3.endpoint}`,
    `        region: ${inputs.s3.region}`,
    '        path-style: true',
    `        access-key-id: ${inputs.s3.accessKeyId}`,
    `        secret-access-key: ${inputs.s3.secretAccessKey}`,
    ...metadataCache,
    '  demo:',
    '    type: filesystem',
    `    warehouse: ${JSON.stringify(inputs.demoWarehouse)}`,
    '    read-only: true',
    ...metadataCache,
    ...(variant === 1 ? ['  extra:', '    type: filesystem', `    warehouse: ${JSON.stringify(inputs.demoWarehouse)}`, '    read-only: true', ...metadataCache] : []),
    '',
  ];
  // written whole then renamed: a SIGHUP never reads half a file
  fs.writeFileSync(`${inputs.file}.tmp`, lines.join('\n'));
  fs.renameSync(`${inputs.file}.tmp`, inputs.file);
}
