/**
 * Open-loop polling of one path (bench/stall-probe.ts, bench/large-table.ts): a request starts
 * every `intervalMs` whether or not the earlier ones have answered, and its latency counts from
 * when it was due, so a stalled server shows as the wait it caused, not as fewer samples.
 */
import type { Pool } from 'undici';

/** Polls `path` every `intervalMs` while `more(i)`; resolves to [dueEpochMs, latencyMs] per poll once all have answered. */
export async function pollOpenLoop(pool: Pool, path: string, intervalMs: number, more: (i: number) => boolean): Promise<[number, number][]> {
  const samples: [number, number][] = [];
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  const epoch0 = Date.now();
  for (let i = 0; more(i); i++) {
    const due = t0 + i * intervalMs;
    while (performance.now() < due) await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now() - 0.5)));
    pending.push(
      pool.request({ method: 'GET', path }).then(async (res) => {
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
        samples.push([epoch0 + (due - t0), performance.now() - due]);
      }),
    );
  }
  await Promise.all(pending);
  return samples;
}
