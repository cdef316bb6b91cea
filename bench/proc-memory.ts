/**
 * Memory of another process from /proc/<pid>/status (Linux): resident set now (VmRSS) and its
 * peak (VmHWM). Writing 5 to /proc/<pid>/clear_refs resets the peak to the current RSS (proc(5)),
 * so a peak can be read per phase; where that is refused, the peak stays the process lifetime's.
 */
import fs from 'node:fs';

export interface ProcMemory {
  readonly rssMB: number;
  readonly peakMB: number;
}

export function procMemory(pid: number): ProcMemory {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(m[1]);
  };
  return { rssMB: kb('VmRSS') / 1024, peakMB: kb('VmHWM') / 1024 };
}

/** Resets VmHWM to the current RSS; false when the kernel refuses (the peak is then lifetime). */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
