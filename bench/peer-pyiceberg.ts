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

export interface PyicebergPlanner {
  plan(uri: string, warehouse: string, table: string): Promise<PyicebergPlanning>;
  close(): Promise<void>;
}

const SCRIPT = path.resolve(import.meta.dirname, 'peer_pyiceberg.py');

export function startPyicebergPlanner(env: InteropEnv): PyicebergPlanner {
  const child = startJsonLinesChild(env.python, SCRIPT, {});
  return {
    plan: (uri, warehouse, table) => child.ask<PyicebergPlanning>({ uri, warehouse, table }, `pyiceberg planning ${table} via ${uri}`),
    close: () => child.close(),
  };
}
