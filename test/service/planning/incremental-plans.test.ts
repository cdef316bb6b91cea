/**
 * Incremental append plans through the whole protocol (issue #28): `/plan` and every `/tasks`,
 * at batch sizes 1 and 3, with unsigned (t1) and signed (t2, carrying the manifests' list
 * entries) plan tasks, on the event loop and in planning workers. Every range of every demo
 * table's history must hand out each file once, and as many files as the appends of the range
 * say they added in their snapshot summaries (the writer's record, not Icefront's reading).
 * The files themselves are held to Iceberg Java's IncrementalAppendScan in
 * test/interop/incremental-append.test.ts.
 */
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { createFilesystemCatalog } from '../../../src/catalogs/index.js';
import { type Snapshot } from '../../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../../src/json/index.js';
import { appWith, demoCatalog, type ScanTasks } from './helpers.js';

const TABLES = ['sales.orders', 'sales.returns', 'legacy.inventory'] as const;

async function redeemAll(app: FastifyInstance, base: string, body: Record<string, unknown>): Promise<{ files: string[]; redemptions: number; signed: boolean }> {
  const send = (route: string, payload: string) => app.inject({ method: 'POST', url: `${base}/${route}`, headers: { 'content-type': 'application/json' }, payload });
  const res = await send('plan', stringifyJson(body));
  if (res.statusCode !== 200) throw new Error(`/plan ${res.statusCode}: ${res.body}`);
  const plan = parseJson(res.body) as ScanTasks;
  const files = plan['file-scan-tasks'].map((task) => task['data-file']['file-path']);
  const queue = [...(plan['plan-tasks'] ?? [])];
  const signed = queue.length > 0 && queue.every((task) => task.startsWith('t2.'));
  let redemptions = 0;
  while (queue.length > 0) {
    const answer = await send('tasks', JSON.stringify({ 'plan-task': queue.shift() }));
    if (answer.statusCode !== 200) throw new Error(`/tasks ${answer.statusCode}: ${answer.body}`);
    const page = parseJson(answer.body) as ScanTasks;
    if (page['file-scan-tasks'].some((task) => (task['delete-file-references'] ?? []).length > 0)) throw new Error('an incremental page attached a delete');
    files.push(...page['file-scan-tasks'].map((task) => task['data-file']['file-path']));
    queue.push(...(page['plan-tasks'] ?? []));
    redemptions++;
  }
  return { files, redemptions, signed };
}

const catalog = createFilesystemCatalog(demoCatalog());

for (const table of TABLES) {
  const [ns, name] = table.split('.') as [string, string];
  const { metadata } = await catalog.loadTable({ namespace: [ns], name });
  // main's lineage, oldest first
  const lineage: Snapshot[] = [];
  const byId = new Map(metadata.snapshots.map((s) => [s.snapshotId, s] as const));
  for (let s = byId.get(metadata.currentSnapshotId!); s; s = s.parentSnapshotId === undefined ? undefined : byId.get(s.parentSnapshotId)) lineage.unshift(s);
  const ranges: Array<{ start?: Snapshot; end: Snapshot }> = [];
  lineage.forEach((end, j) => {
    ranges.push({ end });
    for (const start of lineage.slice(0, j)) ranges.push({ start, end });
  });
  /** What the appends of (start, end] say they added. */
  const addedBy = (r: { start?: Snapshot; end: Snapshot }): number =>
    lineage
      .slice(r.start ? lineage.indexOf(r.start) + 1 : 0, lineage.indexOf(r.end) + 1)
      .filter((s) => s.summary['operation'] === 'append')
      .reduce((n, s) => n + Number(s.summary['added-data-files']), 0);

  for (const mode of [
    { name: 'unsigned, event loop', planning: { workers: 0 } },
    { name: 'signed, planning workers', planning: { workers: 2, tokenSecret: 'incremental-plans-test-secret-0123456789' } },
  ]) {
    for (const batchSize of [1, 3]) {
      t.test(`${table}, ${mode.name}, batch size ${batchSize}: every incremental range pages out each file its appends added, once`, async (t) => {
        const app = appWith([demoCatalog()], { batchSize, ...mode.planning });
        t.teardown(() => app.close());
        const base = `/v1/demo/namespaces/${ns}/tables/${name}`;
        t.ok(ranges.length >= 6, `${ranges.length} ranges over ${lineage.length} snapshots`);
        for (const r of ranges) {
          const at = `(${r.start?.snapshotId ?? 'oldest'}, ${r.end.snapshotId}]`;
          const got = await redeemAll(app, base, { ...(r.start && { 'start-snapshot-id': r.start.snapshotId }), 'end-snapshot-id': r.end.snapshotId });
          t.equal(got.files.length, addedBy(r), `${at}: as many files as the appends' summaries say they added`);
          t.equal(new Set(got.files).size, got.files.length, `${at}: each file once`);
          if (got.files.length > batchSize) {
            t.ok(got.redemptions > 0, `${at}: the rest came through /tasks (${got.redemptions})`);
            t.equal(got.signed, mode.planning.tokenSecret !== undefined, `${at}: plan tasks are ${mode.planning.tokenSecret ? 'signed t2' : 'unsigned t1'}`);
          }
        }
      });
    }
  }
}
