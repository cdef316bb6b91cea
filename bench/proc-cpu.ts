/**
 * CPU time of another process, or of each of its threads, from /proc (Linux, proc(5): utime +
 * stime of `stat`, in clock ticks), in milliseconds.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** user + system CPU ms of a `stat` file (a process's, its threads' included, or one thread's). */
function statCpuMs(file: string): number {
  const stat = fs.readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU ms the process `pid` and all its threads have used so far. */
export function procCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** CPU ms each thread of `pid` has used so far, by thread id (a thread that ends meanwhile is left out). */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`).map(Number)) {
    try {
      out.set(tid, statCpuMs(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** Busy and total clock ticks of the whole machine so far (proc(5) /proc/stat `cpu` line; idle and iowait are not busy). */
function machineTicks(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - ticks[3]! - ticks[4]!, total };
}

/** The share of the machine's CPU time (every CPU, every process) spent busy over the next `ms`. */
export async function machineBusy(ms: number): Promise<number> {
  const before = machineTicks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineTicks();
  return after.total === before.total ? 0 : (after.busy - before.busy) / (after.total - before.total);
}
