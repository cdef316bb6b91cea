/** The check every protocol walk of a bench table passes: each expected file once, no delete files, and the reference walk's set exactly. */
import type { ProtocolRun } from './peer-protocol.js';

/** Every file exactly once, `files` of them, and, given `truth`, exactly its set; returns the run's set. Throws, naming what differs. */
export function checkPlannedFiles(label: string, run: ProtocolRun, files: number, truth: Set<string> | undefined): Set<string> {
  const set = new Set(run.files);
  const problems: string[] = [];
  if (run.files.length !== files) problems.push(`${run.files.length} file-scan-tasks, expected ${files}`);
  if (set.size !== run.files.length) problems.push(`${run.files.length - set.size} duplicate file paths`);
  if (run.deletes !== 0) problems.push(`${run.deletes} delete files (the table has none)`);
  if (truth) {
    const missing: string[] = [];
    for (const f of truth) if (!set.has(f)) missing.push(f);
    const extra: string[] = [];
    for (const f of set) if (!truth.has(f)) extra.push(f);
    if (missing.length) problems.push(`${missing.length} of the fixture's files missing, e.g. ${missing.slice(0, 3).join(', ')}`);
    if (extra.length) problems.push(`${extra.length} files the fixture did not plan, e.g. ${extra.slice(0, 3).join(', ')}`);
  }
  if (problems.length) throw new Error(`${label} answered a different scan: ${problems.join('; ')}`);
  return set;
}
