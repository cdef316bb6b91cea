/** bench/peer_pyiceberg.py in one long-lived Python process: pyiceberg planning through a server that plans. */
import path from 'node:path';
import type { InteropEnv } from '../test/interop/harness/toolchain.js';
import { startJsonLinesChild } from './json-lines-child.js';

export interface PyicebergPlanning {
  /** load_table and plan_files. */
  readonly ms: number;
  /** plan_files alone: POST /plan, then every /tasks one at a time. */
  readonly planMs: number;
  readonly files: number;
}

export interface PyicebergScan {
  /** Who plans (pyiceberg's scan-planning-mode): the server (default) or pyiceberg itself. */
  readonly planning?: 'server' | 'client';
  /** Further catalog properties (e.g. s3.* for a table on S3). */
  readonly properties?: Readonly<Record<string, string>>;
  /** The scan's row_filter, in pyiceberg's expression syntax. */
  readonly filter?: string;
}

export interface PyicebergPlanner {
  plan(uri: string, warehouse: string | undefined, table: string, scan?: PyicebergScan): Promise<PyicebergPlanning>;
  close(): Promise<void>;
}

const SCRIPT = path.resolve(import.meta.dirname, 'peer_pyiceberg.py');

export function startPyicebergPlanner(env: InteropEnv): PyicebergPlanner {
  const child = startJsonLinesChild(env.python, SCRIPT, {});
  return {
    plan: (uri, warehouse, table, scan = {}) =>
      child.ask<PyicebergPlanning>({ uri, warehouse, table, ...scan }, `pyiceberg planning ${table} via ${uri} (${scan.planning ?? 'server'}${scan.filter ? `, ${scan.filter}` : ''})`),
    close: () => child.close(),
  };
}
