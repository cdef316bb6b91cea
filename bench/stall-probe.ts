/**
 * `/healthz` every 5 ms for a while, in a process of its own (bench/stall.ts runs it beside a
 * large /plan): `node --import tsx bench/stall-probe.ts <url> <seconds>`. Open loop: a request
 * starts when it is due whatever the earlier ones do, and its latency counts from then. Prints
 * JSON [[dueEpochMs, latencyMs], …].
 */
import { Pool } from 'undici';

const [url, secondsText] = process.argv.slice(2) as [string, string];
const target = new URL(url);
const pool = new Pool(target.origin, { connections: 8 });
const INTERVAL_MS = 5;
const total = Math.round((Number(secondsText) * 1000) / INTERVAL_MS);
const samples: [number, number][] = [];
const pending: Promise<void>[] = [];
const t0 = performance.now();
const epoch0 = Date.now();
for (let i = 0; i < total; i++) {
  const due = t0 + i * INTERVAL_MS;
  while (performance.now() < due) await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now() - 0.5)));
  pending.push(
    pool.request({ method: 'GET', path: target.pathname }).then(async (res) => {
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      samples.push([epoch0 + (due - t0), performance.now() - due]);
    }),
  );
}
await Promise.all(pending);
console.log(JSON.stringify(samples));
await pool.close();
