/**
 * After the run: the synthetic tables' metadata read without Icefront (the fixture's own REST
 * answer for `up`; for `fs` the metadata file version-hint.text names; for `pg` the file the
 * catalog's row in PostgreSQL names, fetched from moto's S3 straight), and every commit judged against it:
 * - an acknowledged append is in the table exactly once and on main's line; its 100 rows counted;
 * - a 409 (or another 4xx) left nothing; a commit whose answer was lost is wholly in (the snapshot
 *   on main's line) or wholly out;
 * - no snapshot is in the table that no writer sent;
 * - a schema change (a column and a property naming it, one commit) likewise, the column and the
 *   property both in or both out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AwsClient } from 'aws4fetch';
import { parse as parseLossless, isSafeNumber } from 'lossless-json';
import type { PostgresCluster } from '../../test/helpers/postgres.js';
import { SYNTH_ROWS_PER_APPEND, type AppendRecord, type SchemaRecord } from './commits.js';
import { SQL_CATALOG_NAME } from './config.js';
import { CATALOGS, NAMESPACE, type CatalogName, type Generation } from './load.js';

interface Metadata {
  'current-snapshot-id'?: string | null;
  snapshots?: { 'snapshot-id': string; 'parent-snapshot-id'?: string; summary?: Record<string, string> }[];
  refs?: Record<string, { 'snapshot-id': string }>;
  'current-schema-id': number;
  schemas: { 'schema-id': number; fields: { name: string }[] }[];
  properties?: Record<string, string>;
}

export interface CommitsCheck {
  readonly rows: number;
  readonly ackedRows: number;
  readonly appends: { acked: number; conflict: number; refused: number; unknownIn: number; unknownOut: number };
  readonly schemas: { acked: number; conflict: number; refused: number; unknownIn: number; unknownOut: number };
  readonly problems: string[];
}

/** int64 ids kept as their decimal text. */
function parseMetadata(text: string): Metadata {
  return parseLossless(text, null, (value) => (isSafeNumber(value) ? Number(value) : value)) as unknown as Metadata;
}

/** Where the stores are: the fixture's URL, the `fs` warehouse folder, PostgreSQL, and moto's S3 endpoint (path style). */
export interface Stores {
  readonly fixtureUrl: string;
  readonly fsWarehouse: string;
  readonly pg: PostgresCluster;
  /** moto straight (path style), and the keys to sign with. */
  readonly s3: { readonly endpoint: string; readonly region: string; readonly accessKeyId: string; readonly secretAccessKey: string };
}

async function readMetadata(catalog: CatalogName, table: string, where: Stores): Promise<Metadata> {
  if (catalog === 'up') {
    const res = await fetch(`${where.fixtureUrl}/v1/namespaces/${NAMESPACE}/tables/${table}`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`fixture load ${table}: ${res.status} ${text.slice(0, 200)}`);
    return (parseMetadata(text) as unknown as { metadata: Metadata }).metadata;
  }
  let file: string;
  if (catalog === 'fs') {
    const dir = path.join(where.fsWarehouse, NAMESPACE, table, 'metadata');
    const version = fs.readFileSync(path.join(dir, 'version-hint.text'), 'utf8').trim();
    file = path.join(dir, `v${version}.metadata.json`);
  } else {
    const rows = await where.pg.query('SELECT metadata_location FROM iceberg_tables WHERE catalog_name = $1 AND table_namespace = $2 AND table_name = $3', [SQL_CATALOG_NAME, NAMESPACE, table]);
    const location = String(rows[0]?.['metadata_location'] ?? '');
    if (!location) throw new Error(`pg: no iceberg_tables row for ${NAMESPACE}.${table}`);
    const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(location);
    if (s3) {
      // signed by aws4fetch (not Icefront's S3 code); the key's segments as they are (Iceberg's file names need no escaping)
      const client = new AwsClient({ accessKeyId: where.s3.accessKeyId, secretAccessKey: where.s3.secretAccessKey, region: where.s3.region, service: 's3' });
      const res = await client.fetch(`${where.s3.endpoint}/${s3[1]}/${s3[2]}`);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`pg: ${location}: S3 answered ${res.status} ${text.slice(0, 200)}`);
      return parseMetadata(text);
    }
    file = location.startsWith('file:') ? fileURLToPath(location) : location;
  }
  return parseMetadata(fs.readFileSync(file, 'utf8'));
}

export async function checkCommits(
  generations: readonly Generation[],
  appends: readonly AppendRecord[],
  schemas: readonly SchemaRecord[],
  where: Stores,
): Promise<CommitsCheck> {
  const problems: string[] = [];
  const a = { acked: 0, conflict: 0, refused: 0, unknownIn: 0, unknownOut: 0 };
  const s = { acked: 0, conflict: 0, refused: 0, unknownIn: 0, unknownOut: 0 };
  let rows = 0;
  let ackedRows = 0;
  for (const g of generations)
    for (const catalog of CATALOGS) {
      const table = g.synth(catalog);
      let md: Metadata;
      try {
        md = await readMetadata(catalog, table, where);
      } catch (err) {
        problems.push(`${catalog}.${table}: ${(err as Error).message}`);
        continue;
      }
      const snapshots = md.snapshots ?? [];
      const count = new Map<string, number>();
      for (const snap of snapshots) count.set(String(snap['snapshot-id']), (count.get(String(snap['snapshot-id'])) ?? 0) + 1);
      const byId = new Map(snapshots.map((x) => [String(x['snapshot-id']), x]));
      const line = new Set<string>();
      const head = md.refs?.['main']?.['snapshot-id'] ?? md['current-snapshot-id'];
      for (let id = head === null || head === undefined || String(head) === '-1' ? undefined : String(head); id !== undefined && !line.has(id); ) {
        line.add(id);
        const parent = byId.get(id)?.['parent-snapshot-id'];
        id = parent === undefined ? undefined : String(parent);
      }
      for (const id of line) rows += Number(byId.get(id)?.summary?.['added-records'] ?? 0);
      const mine = appends.filter((r) => r.catalog === catalog && r.table === table);
      const sent = new Set(mine.map((r) => r.snapshotId));
      for (const id of count.keys()) if (!sent.has(id)) problems.push(`${catalog}.${table}: snapshot ${id} is in the table but no writer sent it`);
      for (const r of mine) {
        const n = count.get(r.snapshotId) ?? 0;
        const onLine = line.has(r.snapshotId);
        if (n > 1) problems.push(`${catalog}.${table}: snapshot ${r.snapshotId} is in the table ${n} times`);
        if (r.outcome === 'acked') {
          a.acked++;
          ackedRows += SYNTH_ROWS_PER_APPEND;
          if (n === 0 || !onLine) problems.push(`${catalog}.${table}: acknowledged append ${r.snapshotId} is ${n === 0 ? 'missing' : "not on main's line"}`);
        } else if (r.outcome === 'conflict' || r.outcome === 'refused') {
          a[r.outcome]++;
          if (n !== 0) problems.push(`${catalog}.${table}: append ${r.snapshotId} answered ${r.outcome} is in the table`);
        } else if (n === 0) a.unknownOut++;
        else if (onLine) a.unknownIn++;
        else problems.push(`${catalog}.${table}: append ${r.snapshotId} (answer lost) is in the table but not on main's line: half in`);
      }
      const schema = md.schemas.find((x) => x['schema-id'] === md['current-schema-id']);
      const columns = new Map<string, number>();
      for (const f of schema?.fields ?? []) columns.set(f.name, (columns.get(f.name) ?? 0) + 1);
      for (const r of schemas.filter((x) => x.catalog === catalog && x.table === table)) {
        const n = columns.get(r.column) ?? 0;
        const property = md.properties?.[`soak.column.${r.column}`] !== undefined;
        if (n > 1) problems.push(`${catalog}.${table}: column ${r.column} is in the schema ${n} times`);
        if (r.outcome === 'acked') {
          s.acked++;
          if (n === 0 || !property) problems.push(`${catalog}.${table}: acknowledged schema change ${r.column}: column ${n ? 'in' : 'missing'}, property ${property ? 'in' : 'missing'}`);
        } else if (r.outcome === 'conflict' || r.outcome === 'refused') {
          s[r.outcome]++;
          if (n !== 0 || property) problems.push(`${catalog}.${table}: schema change ${r.column} answered ${r.outcome} left its ${n ? 'column' : 'property'}`);
        } else if (n === 0 && !property) s.unknownOut++;
        else if (n === 1 && property) s.unknownIn++;
        else problems.push(`${catalog}.${table}: schema change ${r.column} (answer lost) is half in: column ${n ? 'in' : 'out'}, property ${property ? 'in' : 'out'}`);
      }
    }
  return { rows, ackedRows, appends: a, schemas: s, problems };
}
