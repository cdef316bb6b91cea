/**
 * What a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) spent its samples on: self time by
 * area (a package under node_modules, a folder of Icefront's build, Node's internals, GC, idle) and
 * by function, for bench/commits.ts --profile. Also usable alone: `tsx bench/cpu-profile-top.ts FILE [N]`.
 */
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: number[];
}
interface CpuProfile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface ProfileSummary {
  /** Milliseconds sampled in all, and of them not idle. */
  readonly totalMs: number;
  readonly busyMs: number;
  readonly areas: { area: string; ms: number }[];
  readonly functions: { fn: string; area: string; ms: number }[];
  /** Inclusive time of the call trees under functions whose name matches (e.g. JSON, commit). */
  readonly inclusive: { fn: string; ms: number }[];
}

function areaOf(url: string, name: string): string {
  if (name === '(idle)') return '(idle)';
  if (name === '(garbage collector)') return '(garbage collector)';
  if (name === '(program)' || name === '(root)') return '(program: native, not JS)';
  if (url === '') return '(native / builtins)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const dist = /\/dist\/(.+)$/.exec(url);
  if (dist) return `icefront ${path.dirname(dist[1]!)}`;
  return url;
}

export function summarizeProfile(file: string, top = 20): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  const areas = new Map<string, number>();
  const fns = new Map<string, { area: string; ms: number }>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const area = areaOf(url, functionName);
    totalMs += ms;
    if (area === '(idle)') idleMs += ms;
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const key = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : ''}`.trim();
    const f = fns.get(key) ?? { area, ms: 0 };
    f.ms += ms;
    fns.set(key, f);
  }
  // inclusive time: each sample counted once per distinct named frame on its stack
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, ms] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url } = byId.get(at)!.callFrame;
      if (!functionName || !url.includes('/dist/')) continue;
      const key = `${functionName} (${areaOf(url, functionName)})`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  const sorted = <T extends { ms: number }>(xs: T[]) => xs.sort((a, b) => b.ms - a.ms);
  return {
    totalMs,
    busyMs: totalMs - idleMs,
    areas: sorted([...areas].map(([area, ms]) => ({ area, ms }))),
    functions: sorted([...fns].map(([fn, v]) => ({ fn, ...v }))).slice(0, top),
    inclusive: sorted([...inclusive].map(([fn, ms]) => ({ fn, ms }))).slice(0, top),
  };
}

export function printProfile(summary: ProfileSummary, indent = '  '): void {
  const pct = (ms: number) => `${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)}%`;
  console.log(`${indent}sampled ${(summary.totalMs / 1000).toFixed(1)} s, busy (not idle) ${(summary.busyMs / 1000).toFixed(1)} s; shares below are of busy time`);
  console.log(`${indent}self time by area:`);
  for (const a of summary.areas.filter((x) => x.area !== '(idle)').slice(0, 14)) console.log(`${indent}  ${pct(a.ms)}  ${a.area}`);
  console.log(`${indent}self time by function:`);
  for (const f of summary.functions.filter((x) => x.area !== '(idle)')) console.log(`${indent}  ${pct(f.ms)}  ${f.fn}  [${f.area}]`);
  console.log(`${indent}inclusive time, Icefront's functions:`);
  for (const f of summary.inclusive) console.log(`${indent}  ${pct(f.ms)}  ${f.fn}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printProfile(summarizeProfile(process.argv[2]!, Number(process.argv[3] ?? 25)));
}
