/**
 * tools/interop/writers/…/EqualityDeleteWriter (Iceberg Java 1.11.0's own Parquet writers) as a
 * child process: it commits `db.eq_part` and `db.eq_global` (equality and position deletes)
 * through the REST catalog at `uri` and prints one JSON line describing every commit.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { stopProcess, Tail } from './processes.js';
import type { InteropEnv } from './toolchain.js';

/** A file one commit added, as the writer describes it. */
export interface WrittenFile {
  readonly content: 'data' | 'equality_deletes' | 'position_deletes';
  /** The location recorded in the manifest (HadoopFileIO writes `file:/…`). */
  readonly path: string;
  /** `{ region }` in `db.eq_part`; null in the unpartitioned `db.eq_global`. */
  readonly partition: { readonly region: string } | null;
  readonly recordCount: number;
  /** Equality delete files: the field ids the rows are compared on. */
  readonly equalityFieldIds?: readonly number[];
  /** Data files: the ids written, in file order. */
  readonly ids?: readonly number[];
  /** Equality delete files: the field name and the deleted values. */
  readonly field?: string;
  readonly values?: ReadonlyArray<number | string>;
  /** Position delete files: the data file and the deleted positions in it. */
  readonly dataFile?: string;
  readonly positions?: readonly number[];
}

export interface WriterCommit {
  /** The snapshot's operation: `append` for newAppend, `delete` for a row delta adding only deletes. */
  readonly operation: string;
  /** int64 as a decimal string. */
  readonly snapshotId: string;
  readonly parentId: string | null;
  readonly sequenceNumber: number;
  readonly dataFiles: readonly WrittenFile[];
  readonly deleteFiles: readonly WrittenFile[];
}

export interface WrittenTable {
  readonly location: string;
  readonly formatVersion: number;
  readonly partitioned: boolean;
  /** In commit order. */
  readonly commits: readonly WriterCommit[];
}

export interface WriterResult {
  readonly uri: string;
  readonly warehouse: string;
  readonly tables: { readonly 'db.eq_part': WrittenTable; readonly 'db.eq_global': WrittenTable };
}

export class WriterError extends Error {
  constructor(
    message: string,
    readonly stderrTail: string,
  ) {
    super(`${message}\n--- writer stderr (tail) ---\n${stderrTail}`);
  }
}

/**
 * Runs the writer against the catalog at `uri` (with `warehouse`): creates namespace `db` if
 * absent, then both tables (it fails if either exists). Rejects with a WriterError carrying the
 * tail of its stderr when it exits non-zero, prints anything but one JSON line, or outlives
 * `timeoutMs` (then it is stopped).
 */
export function runEqualityDeleteWriter(env: InteropEnv, uri: string, warehouse: string, options: { timeoutMs?: number } = {}): Promise<WriterResult> {
  const timeoutMs = options.timeoutMs ?? 180_000;
  const child = spawn('java', ['-cp', env.writerClasspath.join(path.delimiter), env.writerMain, uri, warehouse], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  const stderr = new Tail(8000);
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => {
    stderr.push(c);
    if (process.env['ICEFRONT_INTEROP_VERBOSE']) process.stderr.write(c);
  });
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void stopProcess(child);
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new WriterError(`EqualityDeleteWriter did not start: ${e.message}`, stderr.toString()));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return reject(new WriterError(`EqualityDeleteWriter timed out after ${timeoutMs} ms`, stderr.toString()));
      if (code !== 0) return reject(new WriterError(`EqualityDeleteWriter exited ${code ?? signal}`, stderr.toString()));
      const lines = stdout.split('\n').filter((l) => l.trim() !== '');
      if (lines.length !== 1) return reject(new WriterError(`EqualityDeleteWriter printed ${lines.length} lines on stdout, not one JSON line:\n${stdout.slice(0, 2000)}`, stderr.toString()));
      try {
        const result = JSON.parse(lines[0] as string) as WriterResult;
        if (!result.tables?.['db.eq_part'] || !result.tables['db.eq_global']) throw new Error('no db.eq_part or db.eq_global in "tables"');
        resolve(result);
      } catch (e) {
        reject(new WriterError(`EqualityDeleteWriter's stdout is not its result (${(e as Error).message}): ${lines[0]?.slice(0, 2000)}`, stderr.toString()));
      }
    });
  });
}
