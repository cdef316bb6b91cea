/**
 * The goals of issue #43, each one figure with its bound (`{name, value, bound, met}`), from what
 * the run recorded; and their TAP form for CI (.ci/tap-summary.mjs counts `ok N - name` points
 * under a `# Subtest:` header and reads the closing `# { total, pass, fail }` line).
 *
 * In the CI form (--ci, 2 minutes) only the correctness goals count: memory and event-loop
 * figures are printed as comments, since two minutes cannot judge a slope.
 */
import { READINESS_INTERVAL_MS } from './config.js';
import type { FaultWindow } from './faults.js';
import type { Judge, Sent } from './judge.js';
import type { LoadTally } from './load.js';
import type { RowsCheck } from './pyiceberg.js';
import { slopePerMinute, type GcSample, type Sample } from './samples.js';
import type { CommitsCheck } from './verify-commits.js';

export interface Goal {
  readonly name: string;
  readonly value: number | string;
  readonly bound: string;
  readonly met: boolean;
  /** Correctness goals count in the CI form; the others are comments there. */
  readonly correctness: boolean;
  readonly detail?: string;
}

export interface RunRecord {
  readonly judge: Judge;
  readonly tally: LoadTally;
  readonly windows: readonly FaultWindow[];
  readonly samples: readonly Sample[];
  readonly gcSamples: readonly GcSample[];
  readonly loop: { p50Ms: number; p99Ms: number; maxMs: number } | undefined;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly alive: boolean;
  readonly exitedWith?: string;
  readonly commits: CommitsCheck;
  readonly rows: RowsCheck;
  /** The caches' budgets as configured (MiB): planning.cache-bytes, and each own catalog's metadata-cache-bytes. */
  readonly budgets: { readonly planningMB: number; readonly metadataMB: number };
  /** The pair (pair.ts): each replica's address as the balancer names it (the status page read is a's), and each kill of b's restart. */
  readonly pair: { readonly aAddress: string; readonly bAddress: string; readonly restarts: readonly { readonly killedAt: number; readonly readyAfterMs: number | undefined }[] };
}

/** Grace after a fault's end during which answers begun inside it may still fail. */
const AFTER_MS = 500;

const MAPPED = new Set([502, 503, 504]);

/** Is this answer's time inside a fault of this kind (it began before the fault ended, and ended after it began)? */
function inFault(s: Sent, windows: readonly FaultWindow[], kind: FaultWindow['kind']): boolean {
  return windows.some((w) => w.kind === kind && s.start <= w.end + AFTER_MS && s.end >= w.start);
}

/** A request the balancer had sent to the replica that was killed, while it was down or coming back. */
const onKilledReplica = (s: Sent, r: RunRecord) => s.via !== undefined && s.via.split(', ').includes(r.pair.bAddress) && inFault(s, r.windows, 'replica');

const failureOf = (s: Sent) => s.outcome === 'no-answer' || s.outcome === 'cut' || s.outcome === 'balancer' || s.status >= 500;

export function judgeGoals(r: RunRecord): Goal[] {
  const goals: Goal[] = [];
  const add = (g: Goal) => goals.push(g);
  const sample = (xs: readonly string[]) => (xs.length ? xs.slice(0, 5).join(' | ') : undefined);
  const describe = (s: Sent) => `${new Date(s.start).toISOString().slice(11, 23)} ${s.kind}${s.catalog ? ` on ${s.catalog}` : ''} → ${s.status || s.outcome}${s.via ? ` via ${s.via}` : ''}${s.note ? ` (${s.note.slice(0, 120)})` : ''}`;

  add({ name: 'Icefront alive throughout (both replicas; b but for its planned kills)', value: r.alive ? 'yes' : `no (${r.exitedWith})`, bound: 'yes', met: r.alive, correctness: true });
  add({ name: 'every request answered within its deadline + 1 s', value: r.judge.late.length, bound: '0 later', met: r.judge.late.length === 0, correctness: true, detail: sample(r.judge.late.map(describe)) ?? `slowest ${r.judge.slowestMs.toFixed(0)} ms (${r.judge.slowest})` });
  const noAnswer = r.judge.notSuccess.filter((s) => s.outcome === 'no-answer');
  add({ name: 'no request left without an answer', value: noAnswer.length, bound: '0', met: noAnswer.length === 0, correctness: true, detail: sample(noAnswer.map(describe)) });
  add({ name: 'every success whole: each 200 a writer read was a LoadTableResult', value: r.tally.malformed.length, bound: '0 that were not', met: r.tally.malformed.length === 0, correctness: true, detail: sample(r.tally.malformed) });
  const bad = r.judge.notSuccess.filter((s) => s.outcome === 'bad-error');
  add({ name: 'every error an ErrorModel', value: bad.length, bound: '0 that are not', met: bad.length === 0, correctness: true, detail: sample(bad.map(describe)) });
  // 5xx (and cut answers) only on the upstream catalog, only 502/503/504, only while a fault is on;
  // ErrorModels on the catalog whose S3 is slowed, while it is (the toxic's end cuts its connections);
  // or from the balancer, for a request it had sent to the replica that was killed
  const storageFault = (s: Sent) => s.catalog === 'pg' && s.outcome === 'error-model' && inFault(s, r.windows, 'storage');
  const wrong5xx = r.judge.notSuccess.filter(
    (s) => failureOf(s) && s.kind !== 'readyz' && !(s.catalog === 'up' && inFault(s, r.windows, 'upstream') && (s.outcome !== 'error-model' || MAPPED.has(s.status))) && !storageFault(s) && !onKilledReplica(s, r),
  );
  const onStorage = r.judge.notSuccess.filter((s) => failureOf(s) && storageFault(s));
  add({
    name: 'no 5xx (or cut answer) but mapped upstream faults while one is on, S3 faults on its catalog, or requests the killed replica held',
    value: wrong5xx.length,
    bound: '0',
    met: wrong5xx.length === 0,
    correctness: true,
    detail: sample(wrong5xx.map(describe)) ?? (onStorage.length ? `while S3 was slowed: ${sample(onStorage.map(describe))}` : undefined),
  });
  const restarts = r.pair.restarts;
  const back = restarts.filter((x) => x.readyAfterMs !== undefined);
  const held = r.judge.notSuccess.filter((s) => failureOf(s) && onKilledReplica(s, r));
  add({
    name: 'the pair: replica b killed (SIGKILL) and started again, ready within 30 s each time, both alive at the end',
    value: `${back.length}/${restarts.length}`,
    bound: 'all, at least one',
    met: restarts.length > 0 && back.length === restarts.length && r.alive,
    correctness: true,
    detail: `ready after the kill: ${restarts.map((x) => (x.readyAfterMs === undefined ? 'never' : `${x.readyAfterMs} ms`)).join(', ') || 'no kill'}; requests b held when killed: ${held.length} (${[...new Set(held.map((s) => s.outcome === 'error-model' ? String(s.status) : s.outcome))].join(', ') || 'none'})`,
  });
  const mapped = r.judge.notSuccess.filter((s) => s.catalog === 'up' && MAPPED.has(s.status)).length;
  add({ name: 'the faults were met (502/503/504 answered on the upstream catalog)', value: mapped, bound: '> 0', met: mapped > 0, correctness: true });
  add({ name: 'the principal who may not is refused (403) every time', value: r.tally.forbiddenWrong.length, bound: `0 of ${r.tally.forbidden} otherwise`, met: r.tally.forbiddenWrong.length === 0 && r.tally.forbidden > 0, correctness: true, detail: sample(r.tally.forbiddenWrong) });
  add({
    name: 'hostile requests and raw framings refused (4xx), never a success, a 5xx or a smuggled answer',
    value: r.tally.hostileWrong.length,
    bound: `0 of ${r.tally.hostile + r.tally.raw}`,
    met: r.tally.hostileWrong.length === 0 && r.tally.hostile > 0 && r.tally.raw > 0,
    correctness: true,
    detail: sample(r.tally.hostileWrong),
  });

  const lost = [...r.commits.problems, ...r.rows.problems];
  add({
    name: 'nothing lost: every acknowledged commit in exactly once, every 409 left nothing, every lost answer wholly in or out',
    value: lost.length,
    bound: '0 problems',
    met: lost.length === 0 && r.commits.appends.acked > 0 && r.rows.batches.acked > 0,
    correctness: true,
    detail: sample(lost) ?? `appends ${JSON.stringify(r.commits.appends)}, schema changes ${JSON.stringify(r.commits.schemas)}, pyiceberg batches ${JSON.stringify(r.rows.batches)}`,
  });
  add({ name: 'rows counted by the independent readers = rows of acknowledged commits + lost answers wholly in', value: `${r.commits.rows + r.rows.rows}`, bound: `≥ ${r.commits.ackedRows + r.rows.ackedRows} acknowledged`, met: lost.length === 0 && r.commits.rows + r.rows.rows >= r.commits.ackedRows + r.rows.ackedRows, correctness: true });

  // recovery: /readyz ready and errors on the upstream catalog stopped, within two probe intervals
  const bound = 2 * READINESS_INTERVAL_MS;
  const recovery = r.windows.filter((w) => w.end > 0).map((w, i, all) => {
    const next = all[i + 1]?.start ?? r.endedAt;
    // after a replica's restart, errors on any catalog count; after S3 slowed, on `pg`; after the others, on `up`
    const lastError = r.judge.notSuccess.filter((s) => (w.kind === 'replica' || s.catalog === (w.kind === 'storage' ? 'pg' : 'up')) && failureOf(s) && s.start > w.end && s.end < next).reduce((m, s) => Math.max(m, s.start - w.end), 0);
    return { name: w.name, ms: Math.max(w.readyAfterMs ?? Infinity, lastError), ready: w.readyAfterMs, lastError };
  });
  const worst = recovery.reduce((m, x) => Math.max(m, x.ms), 0);
  add({ name: 'recovery: /readyz ready and no error within two probe intervals of each fault end', value: Number.isFinite(worst) ? Math.round(worst) : 'never', bound: `≤ ${bound} ms`, met: worst <= bound && recovery.length > 0, correctness: true, detail: recovery.map((x) => `${x.name}: ready +${x.ready ?? '∞'} ms, last error +${x.lastError} ms`).join('; ') });
  const reloads = r.windows.filter((w) => w.kind === 'reload');
  add({ name: 'SIGHUP with a changed config applied at once', value: `${reloads.filter((w) => w.reloadApplied).length}/${reloads.length}`, bound: 'all', met: reloads.every((w) => w.reloadApplied), correctness: true });
  // the page read is replica a's, and each replica lists the upstream errors it saw: a's answers count
  const byA = (s: Sent) => s.via !== undefined && s.via.split(', ').at(-1) === r.pair.aAddress;
  const shown = r.windows.filter((w) => w.kind === 'upstream' && r.judge.notSuccess.some((s) => s.catalog === 'up' && MAPPED.has(s.status) && byA(s) && s.start >= w.start && s.start <= w.end));
  const onPage = shown.filter((w) => (w.statusPageErrors ?? 0) > 0);
  add({ name: "the status page shows the faults as they happened (an upstream error timed within each fault that clients saw from the replica whose page it is)", value: `${onPage.length}/${shown.length}`, bound: 'all', met: onPage.length === shown.length, correctness: true, detail: shown.filter((w) => !onPage.includes(w)).map((w) => w.name).join(', ') || undefined });

  // memory and the event loop: over the last two thirds of the run
  const third = r.startedAt + (r.endedAt - r.startedAt) / 3;
  const late = r.samples.filter((s) => s.at >= third);
  const rssSlope = slopePerMinute(late.map((s) => ({ at: s.at, y: s.rssMB })));
  add({ name: 'RSS slope over the last two thirds', value: round(rssSlope, 3), bound: '< 1 MB/min', met: rssSlope < 1, correctness: false, detail: `RSS ${round(r.samples[0]?.rssMB, 1)} → ${round(r.samples.at(-1)?.rssMB, 1)} MB, peak ${round(Math.max(...r.samples.map((s) => s.rssMB)), 1)} MB; caches ${round(r.samples[0]?.cacheMB, 1)} → ${round(r.samples.at(-1)?.cacheMB, 1)} MB (budgets: planning ${r.budgets.planningMB} MB, table metadata ${r.budgets.metadataMB} MB per own catalog), slope ${round(slopePerMinute(late.map((s) => ({ at: s.at, y: s.cacheMB }))), 2)} MB/min; planning workers' heaps used ${round(r.samples[0]?.workerHeapUsedMB, 1)} → ${round(r.samples.at(-1)?.workerHeapUsedMB, 1)} MB, committed ${round(r.samples[0]?.workerHeapCommittedMB, 1)} → ${round(r.samples.at(-1)?.workerHeapCommittedMB, 1)} MB, slope ${round(slopePerMinute(late.map((s) => ({ at: s.at, y: s.workerHeapCommittedMB }))), 2)} MB/min; RSS per third ${thirds(r).join(' / ')} MB` });
  const gcThird = nearest(r.gcSamples, third);
  const gcEnd = r.gcSamples.at(-1);
  const heapRatio = gcThird && gcEnd ? gcEnd.heapAfterGcMB / gcThird.heapAfterGcMB : NaN;
  add({ name: 'heap after a GC at the end vs at the first third', value: round(heapRatio, 3), bound: '≤ 1.10', met: heapRatio <= 1.1, correctness: false, detail: `${round(gcThird?.heapAfterGcMB, 1)} → ${round(gcEnd?.heapAfterGcMB, 1)} MB (forced GCs: ${r.gcSamples.length})` });
  const fdSlope = slopePerMinute(late.map((s) => ({ at: s.at, y: s.fds })));
  const sockSlope = slopePerMinute(late.map((s) => ({ at: s.at, y: s.sockets })));
  add({ name: 'open file descriptors slope over the last two thirds', value: round(fdSlope, 3), bound: '< 1 /min', met: fdSlope < 1, correctness: false, detail: `fds ${r.samples[0]?.fds} → ${r.samples.at(-1)?.fds}, max ${Math.max(...r.samples.map((s) => s.fds))}` });
  add({ name: 'open sockets slope over the last two thirds', value: round(sockSlope, 3), bound: '< 1 /min', met: sockSlope < 1, correctness: false, detail: `sockets ${r.samples[0]?.sockets} → ${r.samples.at(-1)?.sockets}, max ${Math.max(...r.samples.map((s) => s.sockets))}` });
  const loops = r.samples.slice(1).map((s) => s.loopP99Ms).sort((a, b) => a - b);
  const p99 = r.loop?.p99Ms ?? NaN;
  add({
    name: 'event-loop delay p99 over the run (no large plans are planned; forced GCs left out)',
    value: round(p99, 1),
    bound: '≤ 20 ms',
    met: p99 <= 20,
    correctness: false,
    detail: `p50 ${round(r.loop?.p50Ms, 1)} ms, max ${round(r.loop?.maxMs, 1)} ms; 5 s windows: median p99 ${round(loops[loops.length >> 1], 1)} ms, worst p99 ${round(loops.at(-1), 1)} ms`,
  });
  return goals;
}

/** Mean RSS in each third of the run. */
function thirds(r: RunRecord): string[] {
  const span = (r.endedAt - r.startedAt) / 3;
  return [0, 1, 2].map((i) => {
    const xs = r.samples.filter((s) => s.at >= r.startedAt + i * span && s.at < r.startedAt + (i + 1) * span);
    return String(round(xs.reduce((a, s) => a + s.rssMB, 0) / xs.length, 0));
  });
}

function nearest(xs: readonly GcSample[], at: number): GcSample | undefined {
  return xs.reduce<GcSample | undefined>((best, x) => (best === undefined || Math.abs(x.at - at) < Math.abs(best.at - at) ? x : best), undefined);
}

function round(x: number | undefined, digits: number): number | string {
  return x === undefined || !Number.isFinite(x) ? 'n/a' : Number(x.toFixed(digits));
}

/** TAP for .ci/tap-summary.mjs: one subtest point per counted goal, comments for the rest. */
export function tapOf(goals: readonly Goal[], ci: boolean, header: string[]): string {
  const counted = goals.filter((g) => !ci || g.correctness);
  const lines = ['TAP version 14', ...header.map((h) => `# ${h}`)];
  if (ci) lines.push('# CI form: only the correctness goals count; memory and event-loop figures are comments (two minutes cannot judge a slope)');
  counted.forEach((g, i) => {
    lines.push(`# Subtest: ${g.name}`, '    1..0', `${g.met ? 'ok' : 'not ok'} ${i + 1} - ${g.name}: ${g.value} (bound ${g.bound})`);
    if (g.detail) lines.push(`  ---`, `  detail: ${JSON.stringify(g.detail)}`, `  ...`);
  });
  for (const g of goals.filter((x) => ci && !x.correctness)) lines.push(`# ${g.name}: ${g.value} (bound ${g.bound}${g.met ? ', met' : ', not met'})${g.detail ? `; ${g.detail}` : ''}`);
  const pass = counted.filter((g) => g.met).length;
  lines.push(`1..${counted.length}`, `# { total: ${counted.length}, pass: ${pass}, fail: ${counted.length - pass} }`, '');
  return lines.join('\n');
}
