/**
 * `npm run bench`: figures as ratios against a baseline measured in the same run.
 *
 * Planner (issue 3): a synthetic table of 100 manifests × 1,000 data files, 20 columns with stats.
 * Cold unfiltered plan time in a fresh process versus avsc alone decoding the same manifests in a
 * fresh process; the median of RUNS each, and the peak RSS of the planning process.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
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
console.log(`  cold plan, all stats kept  ${statsMs.toFixed(0)} ms   (stats-fields = every column: all metric maps decoded)`);
console.log(`  ratio plan / avsc          ${(planMs / avscMs).toFixed(2)}   (target <= 1.3)`);
console.log(`  ratio plan+stats / avsc    ${(statsMs / avscMs).toFixed(2)}`);
console.log(`  peak RSS, planning process ${Math.max(...plan.map((s) => s.maxRssMB)).toFixed(0)} MB (avsc process ${Math.max(...avsc.map((s) => s.maxRssMB)).toFixed(0)} MB)`);
