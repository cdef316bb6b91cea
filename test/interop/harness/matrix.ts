/**
 * The interop matrix: rows are clients and their planning modes, columns are Icefront's
 * catalogs, and each cell counts the (table, filter) reads by outcome. Rendered as a Markdown
 * table (the closing note quotes it) into the test log and `.interop/matrix.md` (or another
 * file name, e.g. `matrix-s3.md` for s3-upstream.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './toolchain.js';

/**
 * `agree`: rows (and files, where reported) equal the truth. `disagree`: they don't, or the
 * client failed only through Icefront. `client-bug`: wrong rows the same client also returns
 * straight from the upstream, planning itself. `upstream-bug`: wrong rows the same client also
 * returns straight from the upstream with the upstream planning (the upstream's plan, which
 * Icefront relays or pages). `client-cannot`: the client fails the scan with or without Icefront.
 */
export type Outcome = 'agree' | 'disagree' | 'client-bug' | 'upstream-bug' | 'client-cannot';
const OUTCOMES: readonly Outcome[] = ['agree', 'disagree', 'client-bug', 'upstream-bug', 'client-cannot'];

export class Matrix {
  private readonly cells = new Map<string, Map<string, Record<Outcome, number>>>();

  constructor(private readonly columns: readonly string[]) {}

  record(cell: { readonly row: string; readonly column: string }, outcome: Outcome): void {
    let row = this.cells.get(cell.row);
    if (!row) this.cells.set(cell.row, (row = new Map()));
    let counts = row.get(cell.column);
    if (!counts) row.set(cell.column, (counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>));
    counts[outcome]++;
  }

  total(outcome: Outcome): number {
    let n = 0;
    for (const row of this.cells.values()) for (const counts of row.values()) n += counts[outcome];
    return n;
  }

  /** `agree/total`, with the other outcomes named when present; `—` where nothing was read. */
  render(): string[] {
    const lines = [`| client (mode) | ${this.columns.join(' | ')} |`, `|---|${this.columns.map(() => '---').join('|')}|`];
    for (const [row, byColumn] of this.cells) {
      const cells = this.columns.map((column) => {
        const c = byColumn.get(column);
        if (!c) return '—';
        const all = OUTCOMES.reduce((n, o) => n + c[o], 0);
        const notes = OUTCOMES.filter((o) => o !== 'agree' && c[o] > 0).map((o) => `${c[o]} ${o}`);
        return `${c.agree}/${all}${notes.length ? ` (${notes.join(', ')})` : ''}`;
      });
      lines.push(`| ${row} | ${cells.join(' | ')} |`);
    }
    return lines;
  }

  /** Writes the rendered table to `.interop/<fileName>` (default `matrix.md`); returns its path. */
  write(fileName = 'matrix.md'): string {
    const file = path.join(REPO, '.interop', fileName);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${this.render().join('\n')}\n`);
    return file;
  }
}
