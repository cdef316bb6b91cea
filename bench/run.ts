/**
 * `npm run bench`: figures as ratios against a baseline measured in the same run.
 *
 * 1. Planner: a synthetic table of 100 manifests × 1,000 data files, 20 columns with stats.
 *    Cold unfiltered plan time in a fresh process versus avsc alone decoding the same manifests
 *    in a fresh process; the median of RUNS each, and the peak RSS of the planning process.
 * 2. Scan-planning protocol: tables of 1k, 10k, 100k and 1M files (1,000 manifests × 1,000); /plan
 *    latency and the planning process's peak RSS, cold /tasks (a fresh process, its planning
 *    workers up, whose first request is the redemption) and warm /tasks, response sizes, and the
 *    ratios cold /tasks at 100k and 1M ÷ at 1k (redemption cost should follow the batch, not the table).
 *    Plan tasks are signed, as replicas sharing planning.token-secret sign them (a cold redemption is
 *    one on another replica, or after a restart); the same task unsigned, as a server without a
 *    secret issues it, is redeemed too: it reads the snapshot's manifest list to check the task.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './median.js';
import { ensureSyntheticTable } from './synthetic-table.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const child = path.resolve(import.meta.dirname, 'plan-child.ts');

interface Sample {
  ms: number;
  entries: number;
  maxRssMB: number;
}

function measure(mode: 'plan' | 'plan-stats' | 'avsc', args: string[]): Sample {
  const out = execFileSync(process.execPath, ['--import', 'tsx', child, mode, ...args], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as Sample;
}

const table = ensureSyntheticTable({ manifests: 100, entriesPerManifest: 1000, columns: 20 });
const args = [table.warehouse, table.namespace[0]!, table.name];
const avsc: Sample[] = [];
const plan: Sample[] = [];
const planStats: Sample[] = [];
for (let i = 0; i < RUNS; i++) {
  avsc.push(measure('avsc', args));
  plan.push(measure('plan', args));
  planStats.push(measure('plan-stats', args));
}
const statsMs = median(planStats.map((s) => s.ms));
const planMs = median(plan.map((s) => s.ms));
const avscMs = median(avsc.map((s) => s.ms));
console.log(`planner: ${table.name} (${plan[0]!.entries} data files planned, ${avsc[0]!.entries} Avro records decoded by avsc)`);
console.log(`  cold plan (unfiltered)     ${planMs.toFixed(0)} ms   median of ${RUNS}`);
console.log(`  avsc alone, same manifests ${avscMs.toFixed(0)} ms   median of ${RUNS}`);
console.log(`  cold plan, all stats kept  ${statsMs.toFixed(0)} ms   (stats-fields = every column; metric maps stay raw until read, tasks not serialised)`);
console.log(`  ratio plan / avsc          ${(planMs / avscMs).toFixed(2)}   (target <= 1.3)`);
console.log(`  ratio plan+stats / avsc    ${(statsMs / avscMs).toFixed(2)}`);
console.log(`  peak RSS, planning process ${Math.max(...plan.map((s) => s.maxRssMB)).toFixed(0)} MB (avsc process ${Math.max(...avsc.map((s) => s.maxRssMB)).toFixed(0)} MB)`);

// 2. The scan-planning protocol.
const tasksChild = path.resolve(import.meta.dirname, 'tasks-child.ts');
const run = (args: string[]) =>
  JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', tasksChild, ...args], { encoding: 'utf8' }).trim().split('\n').pop()!) as Record<string, number>;
const rows: { files: number; planMs: number; coldMs: number; warmMs: number; unsignedColdMs: number; planBytes: number; tasksBytes: number; planTasks: number; rssMB: number }[] = [];
for (const manifests of [1, 10, 100, 1000]) {
  const t = ensureSyntheticTable({ manifests, entriesPerManifest: 1000, columns: 20 });
  const tokenFile = path.join(os.tmpdir(), `icefront-bench-${manifests}.token`);
  const plans: Record<string, number>[] = [];
  const redeems: Record<string, number>[] = [];
  const unsigned: Record<string, number>[] = [];
  for (let i = 0; i < RUNS; i++) {
    plans.push(run(['plan', t.warehouse, t.namespace[0]!, t.name, tokenFile]));
    redeems.push(run(['tasks', t.warehouse, t.namespace[0]!, t.name, tokenFile]));
    unsigned.push(run(['tasks', t.warehouse, t.namespace[0]!, t.name, `${tokenFile}.unsigned`]));
  }
  fs.rmSync(tokenFile, { force: true });
  fs.rmSync(`${tokenFile}.unsigned`, { force: true });
  rows.push({
    files: manifests * 1000,
    planMs: median(plans.map((p) => p.planMs!)),
    planBytes: plans[0]!.planBytes!,
    planTasks: plans[0]!.planTasks!,
    rssMB: Math.max(...plans.map((p) => p.maxRssMB!)),
    coldMs: median(redeems.map((r) => r.coldMs!)),
    warmMs: median(redeems.map((r) => r.warmMs!)),
    unsignedColdMs: median(unsigned.map((r) => r.coldMs!)),
    tasksBytes: redeems[0]!.tasksBytes!,
  });
}
console.log(`scan planning (batch-size 100, max-response-bytes 1 MiB, cache-bytes 256 MiB, token-secret set, ${os.availableParallelism()} cores, medians of ${RUNS} fresh processes):`);
console.log('  files    /plan ms  peak RSS MB  /plan KiB  plan tasks  cold /tasks ms  warm /tasks ms  /tasks KiB  cold /tasks unsigned ms');
for (const r of rows) {
  console.log(
    `  ${String(r.files).padEnd(8)} ${r.planMs.toFixed(0).padStart(8)}  ${r.rssMB.toFixed(0).padStart(11)}  ${(r.planBytes / 1024).toFixed(0).padStart(9)}  ${String(r.planTasks).padStart(10)}  ${r.coldMs.toFixed(1).padStart(14)}  ${r.warmMs.toFixed(1).padStart(14)}  ${(r.tasksBytes / 1024).toFixed(0).padStart(10)}  ${r.unsignedColdMs.toFixed(1).padStart(23)}`,
  );
}
const over = (r: (typeof rows)[number]) => (r.planBytes > 1 << 20 || r.tasksBytes > 1 << 20 ? '  OVER max-response-bytes' : '');
console.log(`  ratio cold /tasks 100k ÷ 1k: ${(rows[2]!.coldMs / rows[0]!.coldMs).toFixed(2)}   (target <= 1.5)`);
console.log(`  ratio cold /tasks 1M ÷ 1k:   ${(rows[3]!.coldMs / rows[0]!.coldMs).toFixed(2)}   (target <= 1.5)${over(rows[3]!)}`);
console.log(`  unsigned (no token-secret: the task is checked against the manifest list): 100k ÷ 1k ${(rows[2]!.unsignedColdMs / rows[0]!.unsignedColdMs).toFixed(2)}, 1M ÷ 1k ${(rows[3]!.unsignedColdMs / rows[0]!.unsignedColdMs).toFixed(2)}`);
console.log(`  peak RSS planning 1M files:  ${rows[3]!.rssMB.toFixed(0)} MB   (target <= 600)`);
