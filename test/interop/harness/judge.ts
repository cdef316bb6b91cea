/**
 * One read through Icefront judged against the truth, and its matrix cell recorded. When the
 * client fails, or returns other rows, the same client is asked the same scan straight from the
 * upstream (the control): failing there too is its own limitation (`client-cannot`, a tap todo),
 * the same wrong rows there are its own bug (`client-bug`, a todo); anything else is Icefront's
 * (`disagree`, a failure).
 */
import type { Test } from 'tap';
import type { FilterCase, InteropTable } from '../tables.js';
import type { CatalogRef, ClientError, ClientWorker, ScanJob, ScanResult } from './clients.js';
import { compareScan, label, type Comparison } from './compare.js';
import type { Matrix } from './matrix.js';

export interface Read {
  readonly comparison: Comparison;
  readonly cell: { readonly row: string; readonly column: string };
  /** The scan through Icefront, and the same scan straight from the upstream. */
  readonly through: ScanJob;
  readonly control: ScanJob;
  /** What went over the wire lately, for a failure's diagnostics. */
  readonly recent: () => unknown;
}

/** The first line of a client error that names an exception (Py4J's wrapper line skipped). */
export function firstLine(s: string): string {
  return s.split('\n').find((l) => /Exception|Error/.test(l) && !l.includes('An error occurred while calling'))?.trim().slice(0, 300) ?? s.split('\n')[0]!;
}

/** The client's result when it agreed with the truth (else undefined, after recording why). */
export async function judgeRead(t: Test, worker: ClientWorker, matrix: Matrix, truth: ScanResult, read: Read): Promise<ScanResult | undefined> {
  const { comparison: c, cell, through, control } = read;
  const client = through.client;
  let got: ScanResult;
  try {
    got = await worker.run(through);
  } catch (e) {
    const err = e as ClientError;
    const failed = await worker.run(control).then(
      () => undefined,
      (ce: ClientError) => ce.message,
    );
    if (failed !== undefined) {
      t.fail(`${label(c)}: the client failed, and fails the same scan straight on the upstream`, {
        todo: `${client} cannot read this scan, with or without Icefront: ${firstLine(failed)} (through Icefront: ${firstLine(err.message)})`,
        error: err.message,
      });
      matrix.record(cell, 'client-cannot');
    } else {
      t.fail(`${label(c)}: the client failed through Icefront (it reads this scan straight from the upstream): ${err.message}`, {
        traceback: err.traceback,
        recentRequests: read.recent(),
      });
      matrix.record(cell, 'disagree');
    }
    return undefined;
  }
  if (got.hash !== truth.hash) {
    const direct = await worker.run(control).catch(() => undefined);
    if (direct?.hash === got.hash) {
      // the control asked the upstream to plan: the rows are what the upstream's plan holds
      const upstreamPlanned = 'planning' in control.catalog && control.catalog.planning === 'server';
      const why = upstreamPlanned
        ? `the upstream's plan, not Icefront's: ${client} returns the same rows for this scan straight from the upstream, the upstream planning`
        : `${client} bug, not Icefront's: it returns the same rows for this scan straight from the upstream`;
      compareScan(t, { ...c, clientBug: why }, truth, got);
      matrix.record(cell, upstreamPlanned ? 'upstream-bug' : 'client-bug');
      return undefined;
    }
  }
  const agreed = compareScan(t, c, truth, got);
  matrix.record(cell, agreed ? 'agree' : 'disagree');
  return got;
}

/** The scan of one (table, filter) case for a client and catalog: its columns, its filter as that client spells it, its snapshot. */
export function scanOf(table: InteropTable, f: FilterCase, snapshot: string | undefined) {
  return (catalog: CatalogRef, client: ScanJob['client']): ScanJob => {
    const filter = f.spelling?.[client] ?? f.filter;
    return {
      client,
      catalog,
      table: table.name,
      columns: f.columns ?? table.columns,
      ...(filter !== undefined && { filter }),
      ...(snapshot !== undefined && { snapshotId: snapshot }),
    };
  };
}

/**
 * A (table, filter) case made ready to judge: its snapshot (the `at`-th of `snapshots`, in commit
 * order), how its messages name it, its scan for any client and catalog, and the truth: Spark
 * straight on the upstream (`direct`), planning itself, which must have rows.
 */
export async function truthOf(t: Test, worker: ClientWorker, table: InteropTable, f: FilterCase, snapshots: readonly string[] | undefined, direct: CatalogRef, upstream: string) {
  const snapshot = f.at === undefined ? undefined : snapshots?.[f.at];
  if (f.at !== undefined && snapshot === undefined) throw new Error(`${table.name} has no snapshot #${f.at}`);
  const where = `${f.filter ?? 'none'}${snapshot ? ` @ snapshot ${snapshot}` : ''}`;
  const scan = scanOf(table, f, snapshot);
  const truth = await worker.run(scan(direct, 'spark'));
  t.ok(truth.count > 0, `truth (spark → ${upstream}, client planning) has rows for ${table.name} [${where}]`);
  return { scan, where, truth };
}
