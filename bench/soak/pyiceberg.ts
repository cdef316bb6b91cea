/**
 * Real clients: pyiceberg (the interop harness' Python worker, test/interop/harness/clients.ts)
 * appending rows of a known count through Icefront, and afterwards the same pyiceberg reading
 * each table through an independent catalog, never through Icefront: the fixture itself for
 * `up`, the table's own metadata files (version-hint.text) for `fs`, its SqlCatalog on the same
 * PostgreSQL database (and moto's S3, straight) for `pg`.
 *
 * Each append is one batch: `2 + batch % 4` rows, every row carrying its batch number, so the
 * rows of every batch can be counted afterwards: an acknowledged batch exactly once, a refused
 * one (409) not at all, one whose answer was lost (a 5xx, a cut) wholly or not at all.
 */
import { pathToFileURL } from 'node:url';
import { ClientError, ClientWorker, type CatalogRef, type HadoopCatalogRef, type SqlCatalogRef } from '../../test/interop/harness/clients.js';
import type { InteropEnv } from '../../test/interop/harness/toolchain.js';
import type { CommitOutcome } from './commits.js';
import { SQL_CATALOG_NAME, WRITER_TOKEN } from './config.js';
import type { CatalogName, Generation, LoadContext } from './load.js';
import { CATALOGS, NAMESPACE } from './load.js';

export interface BatchRecord {
  readonly catalog: CatalogName;
  readonly table: string;
  readonly batch: number;
  readonly rows: number;
  readonly outcome: CommitOutcome;
  readonly error?: string;
}

export const rowsOf = (batch: number) => 2 + (batch % 4);

export interface IndependentStores {
  readonly fixtureUrl: string;
  readonly fsWarehouse: string;
  readonly pgUri: string;
  /** `s3://bucket/prefix` on `s3`. */
  readonly pgWarehouse: string;
  readonly s3: { readonly endpoint: string; readonly region: string; readonly accessKeyId: string; readonly secretAccessKey: string };
}

let nextBatch = 0;

/**
 * One pyiceberg writer: appends in turn on each catalog's rows table of the current generation.
 * `s3Keys`: the S3 credentials it is given (where S3 is comes from Icefront's table config).
 */
export async function pyicebergWriter(ctx: LoadContext, worker: ClientWorker, icefrontUrl: string, s3Keys: Readonly<Record<string, string>>, records: BatchRecord[], gapMs: number): Promise<void> {
  for (let i = 0; ctx.running(); i++) {
    const catalog = CATALOGS[i % CATALOGS.length]!;
    const g = ctx.current();
    const batch = nextBatch++;
    const n = rowsOf(batch);
    const ref: CatalogRef = { uri: icefrontUrl, warehouse: catalog, properties: { token: WRITER_TOKEN, ...s3Keys } };
    const table = g.rows(catalog);
    try {
      await worker.run({ client: 'pyiceberg', catalog: ref, ops: [{ op: 'append', table: `${NAMESPACE}.${table}`, rows: Array.from({ length: n }, (_, j) => ({ id: batch * 10 + j, batch })) }] }, 60_000);
      records.push({ catalog, table, batch, rows: n, outcome: 'acked' });
    } catch (err) {
      const message = err instanceof ClientError ? err.message : String(err);
      // CommitFailedException is pyiceberg's 409; anything else may have failed before or after the commit
      const outcome: CommitOutcome = /CommitFailed/.test(message) ? 'conflict' : 'unknown';
      records.push({ catalog, table, batch, rows: n, outcome, error: message.split('\n')[0]!.slice(0, 200) });
      if (/worker (exited|is not running)/.test(message)) return;
    }
    await new Promise((r) => setTimeout(r, gapMs));
  }
}

export function independentRef(catalog: CatalogName, stores: IndependentStores): CatalogRef | HadoopCatalogRef | SqlCatalogRef {
  if (catalog === 'up') return { uri: stores.fixtureUrl };
  if (catalog === 'fs') return { type: 'hadoop', warehouse: pathToFileURL(stores.fsWarehouse).href };
  const { s3 } = stores;
  return {
    type: 'sql',
    name: SQL_CATALOG_NAME,
    uri: stores.pgUri,
    warehouse: stores.pgWarehouse,
    properties: { 's3.endpoint': s3.endpoint, 's3.region': s3.region, 's3.path-style-access': 'true', 's3.access-key-id': s3.accessKeyId, 's3.secret-access-key': s3.secretAccessKey },
  };
}

export interface RowsCheck {
  /** Rows in the tables, counted by the independent readers. */
  readonly rows: number;
  /** Rows the acknowledged batches put there. */
  readonly ackedRows: number;
  readonly batches: { acked: number; conflict: number; unknownIn: number; unknownOut: number; refused: number };
  readonly problems: string[];
}

/** Every rows table of every generation, read by its independent reader; each batch judged. */
export async function checkRows(env: InteropEnv, stores: IndependentStores, generations: readonly Generation[], records: readonly BatchRecord[]): Promise<RowsCheck> {
  const worker = ClientWorker.start(env);
  const problems: string[] = [];
  const batches = { acked: 0, conflict: 0, unknownIn: 0, unknownOut: 0, refused: 0 };
  let rows = 0;
  let ackedRows = 0;
  try {
    for (const g of generations)
      for (const catalog of CATALOGS) {
        const table = g.rows(catalog);
        const mine = records.filter((r) => r.catalog === catalog && r.table === table).sort((a, b) => a.batch - b.batch);
        const ref = independentRef(catalog, stores);
        const whole = await worker.run({ client: 'pyiceberg', catalog: ref, table: `${NAMESPACE}.${table}`, columns: ['batch'] }, 300_000);
        rows += whole.count;
        const counted = new Map<number, number>();
        let windowRows = 0;
        // windows of at most 100 batches: at most 500 rows, all returned (rows.py MAX_ROWS)
        for (let i = 0; i < mine.length; i += 100) {
          const lo = mine[i]!.batch;
          const hi = mine[Math.min(mine.length, i + 100) - 1]!.batch;
          const part = await worker.run({ client: 'pyiceberg', catalog: ref, table: `${NAMESPACE}.${table}`, columns: ['batch'], filter: `batch >= ${lo} AND batch <= ${hi}` }, 300_000);
          if (part.truncated) problems.push(`${catalog}.${table}: batches ${lo}..${hi} hold ${part.count} rows, more than one read returns`);
          windowRows += part.count;
          for (const line of part.rows) {
            const b = (JSON.parse(line) as { batch: number }).batch;
            counted.set(b, (counted.get(b) ?? 0) + 1);
          }
        }
        if (windowRows !== whole.count) problems.push(`${catalog}.${table}: ${whole.count} rows, but ${windowRows} of them carry a batch some writer sent`);
        for (const r of mine) {
          const got = counted.get(r.batch) ?? 0;
          if (r.outcome === 'acked') {
            batches.acked++;
            ackedRows += r.rows;
            if (got !== r.rows) problems.push(`${catalog}.${table}: acknowledged batch ${r.batch} has ${got} of its ${r.rows} rows`);
          } else if (r.outcome === 'conflict' || r.outcome === 'refused') {
            batches[r.outcome]++;
            if (got !== 0) problems.push(`${catalog}.${table}: batch ${r.batch} answered ${r.outcome} left ${got} rows`);
          } else if (got === 0) batches.unknownOut++;
          else if (got === r.rows) batches.unknownIn++;
          else problems.push(`${catalog}.${table}: batch ${r.batch} (answer lost: ${r.error}) is partly in: ${got} of ${r.rows} rows`);
        }
      }
  } catch (err) {
    problems.push(`independent read failed: ${(err as Error).message.slice(0, 300)}`);
  } finally {
    await worker.close();
  }
  return { rows, ackedRows, batches, problems };
}
