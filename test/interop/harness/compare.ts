/**
 * Compares a client's scan with the truth and names table, filter and client in every message.
 * Rows: count and order-independent hash must be equal; on a mismatch the message lists the
 * canonical rows only one side has. Files: a client that reports the files its rows came from
 * (Spark) must name the same set as the truth; one that reports planned tasks (pyiceberg) must
 * at least cover every file the truth read rows from.
 */
import type { Test } from 'tap';
import type { ScanResult } from './clients.js';

export interface Comparison {
  readonly table: string;
  readonly filter: string;
  readonly client: string;
  /** `read`: files rows came from; `planned`: files of planned tasks (a superset is fine). */
  readonly files: 'read' | 'planned' | 'none';
  /**
   * Set when the rows differ from the truth but the same client, asked the same scan straight
   * from the upstream (without Icefront), returns exactly these rows: the client's own bug. The
   * row and file assertions become a tap todo naming it, so Icefront is judged only on what it
   * changes.
   */
  readonly clientBug?: string;
}

export function label(c: Comparison): string {
  return `table ${c.table}, filter [${c.filter}], client ${c.client}`;
}

export function compareScan(t: Test, c: Comparison, truth: ScanResult, got: ScanResult): boolean {
  const name = label(c);
  const todo = c.clientBug !== undefined ? { todo: c.clientBug } : {};
  const extra = { rows: rowDiff(truth, got), ...todo };
  let ok = t.equal(got.count, truth.count, `${name}: row count`, extra);
  ok = t.equal(got.hash, truth.hash, `${name}: row hash`, extra) && ok;
  if (c.files === 'read' && got.filesError !== undefined) {
    t.fail(`${name}: listing the data files read (SELECT DISTINCT _file) failed: ${got.filesError.split('\n')[0]}`, { error: got.filesError });
    ok = false;
  } else if (c.files === 'read' && truth.files && got.files) {
    ok = t.same(got.files, truth.files, `${name}: data files read`, todo) && ok;
  } else if (c.files === 'planned' && truth.files && got.files) {
    const planned = new Set(got.files);
    const missing = truth.files.filter((f) => !planned.has(f));
    ok = t.ok(missing.length === 0, `${name}: planned tasks cover every data file the truth read`, { missing, planned: got.files, ...todo }) && ok;
  }
  return ok;
}

function rowDiff(truth: ScanResult, got: ScanResult): Record<string, unknown> {
  if (truth.hash === got.hash) return {};
  const a = new Set(truth.rows);
  const b = new Set(got.rows);
  return {
    onlyInTruth: truth.rows.filter((r) => !b.has(r)).slice(0, 10),
    onlyInClient: got.rows.filter((r) => !a.has(r)).slice(0, 10),
    ...(truth.truncated || got.truncated ? { note: 'row lists truncated; the diff may be partial' } : {}),
  };
}
