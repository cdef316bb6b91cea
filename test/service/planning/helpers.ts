/** Builders for the scan-planning protocol tests (not a test file). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config, FilesystemCatalogConfig } from '../../../src/config/index.js';
import { parseJson } from '../../../src/json/index.js';
import { buildIcefront } from '../../../src/main.js';
import type { Logger } from '../../../src/observability/index.js';

export const REPO = path.resolve(import.meta.dirname, '../../..');
export const DEMO_WAREHOUSE = path.join(REPO, 'fixtures/warehouse');

/** The demo catalog; over the committed warehouse it is read-only (no test writes the repository's fixtures), over a copy writable. */
export function demoCatalog(name = 'demo', warehouse = DEMO_WAREHOUSE): FilesystemCatalogConfig {
  return {
    type: 'filesystem',
    name,
    warehouse,
    locations: [{ prefix: 's3://icefront-demo/warehouse', dir: warehouse }],
    planning: 'on',
    ...(path.resolve(warehouse) === DEMO_WAREHOUSE && { readOnly: true }),
  };
}

export function appWith(catalogs: FilesystemCatalogConfig[], planning: Partial<Config['planning']> = {}, logger?: Logger): FastifyInstance {
  const config: Config = {
    source: '',
    server: { host: '127.0.0.1', port: 0, bodyLimit: 1 << 20 },
    planning: { batchSize: 100, maxResponseBytes: 1 << 20, cacheBytes: 64 << 20, ...planning },
    catalogs: new Map(catalogs.map((c) => [c.name, c])),
    logLevel: 'silent',
  };
  return buildIcefront(config, logger ? { logger } : {}).app;
}

/** A copy of a demo table in a temp warehouse (so a test can commit to it by moving its version hint). */
export function copyDemoTable(ns: string, table: string): { warehouse: string; tableDir: string; remove: () => void } {
  const warehouse = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-plan-'));
  const tableDir = path.join(warehouse, ns, table);
  fs.cpSync(path.join(DEMO_WAREHOUSE, ns, table), tableDir, { recursive: true });
  return { warehouse, tableDir, remove: () => fs.rmSync(warehouse, { recursive: true, force: true }) };
}

export interface Task {
  'data-file': { 'file-path': string; partition: unknown[] };
  'delete-file-references'?: number[];
  'residual-filter': unknown;
}
export interface ScanTasks {
  status?: string;
  'plan-id'?: string;
  'file-scan-tasks': Task[];
  'delete-files'?: { 'file-path': string; 'content-offset'?: number }[];
  'plan-tasks'?: string[];
}

/** A task as a client sees it after resolving its delete references: comparable across responses. */
export function taskKey(task: Task, deletes: ScanTasks['delete-files']): string {
  const refs = (task['delete-file-references'] ?? []).map((i) => {
    const d = deletes![i]!;
    return `${d['file-path']}@${d['content-offset'] ?? ''}`;
  });
  return JSON.stringify([task['data-file']['file-path'], task['data-file'].partition, refs.sort(), task['residual-filter']]);
}

export function keysOf(body: ScanTasks): string[] {
  return body['file-scan-tasks'].map((t) => taskKey(t, body['delete-files']));
}

export async function post(app: FastifyInstance, url: string, body: unknown) {
  return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

export function parse(body: string): ScanTasks {
  return parseJson(body) as ScanTasks;
}

/** Plans through /plan, then redeems every plan task (breadth-first, as pyiceberg does). */
export async function planAndRedeem(app: FastifyInstance, base: string, request: unknown): Promise<{ plan: ScanTasks; keys: string[]; responses: number }> {
  const res = await post(app, `${base}/plan`, request);
  if (res.statusCode !== 200) throw new Error(`plan failed: ${res.statusCode} ${res.body}`);
  const plan = parse(res.body);
  const keys = keysOf(plan);
  const queue = [...(plan['plan-tasks'] ?? [])];
  let responses = 1;
  while (queue.length > 0) {
    const task = queue.shift()!;
    const r = await post(app, `${base}/tasks`, { 'plan-task': task });
    if (r.statusCode !== 200) throw new Error(`tasks failed: ${r.statusCode} ${r.body}`);
    const body = parse(r.body);
    keys.push(...keysOf(body));
    queue.push(...(body['plan-tasks'] ?? []));
    responses++;
  }
  return { plan, keys, responses };
}

/** The value of a Prometheus counter/gauge line, 0 when absent. */
export function metric(text: string, name: string): number {
  const m = new RegExp(`^${name.replace(/[{}"=]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}
