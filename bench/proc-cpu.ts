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
