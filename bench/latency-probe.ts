/**
 * Open-loop latency at a fixed rate, in a process of its own (bench/door.ts runs it against each
 * path): `node --import tsx bench/latency-probe.ts <url> <rate/s> <seconds>`. Requests start on a
 * schedule whatever the answers do (so a slow server is not hidden by coordinated omission), over
 * 16 keep-alive connections; prints JSON { p50, p90, p99 } in milliseconds, after a 1 s warm-up.
 */
import { Pool } from 'undici';

const [url, rateText, secondsText] = process.argv.slice(2) as [string, string, string];
const rate = Number(rateText);
const seconds = Number(secondsText);
const target = new URL(url);
const pool = new Pool(target.origin, { connections: 16 });
const path = target.pathname + target.search;

async function one(): Promise<number> {
  const start = process.hrtime.bigint();
  const res = await pool.request({ method: 'GET', path });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function run(durationS: number): Promise<number[]> {
  const samples: number[] = [];
  const pending: Promise<void>[] = [];
  const t0 = process.hrtime.bigint();
  const total = Math.round(rate * durationS);
  for (let i = 0; i < total; i++) {
    const due = t0 + BigInt(Math.round((i * 1e9) / rate));
    let now = process.hrtime.bigint();
    while (now < due) {
      const waitMs = Number(due - now) / 1e6;
      if (waitMs > 1) await new Promise((r) => setTimeout(r, waitMs - 0.5));
      else await new Promise((r) => setImmediate(r));
      now = process.hrtime.bigint();
    }
    // latency counts from when the request was due, not when the loop got to it
    const lag = Number(now - due) / 1e6;
    pending.push(one().then((ms) => void samples.push(ms + lag)));
  }
  await Promise.all(pending);
  return samples;
}

await run(1);
const samples = (await run(seconds)).sort((a, b) => a - b);
const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
console.log(JSON.stringify({ p50: at(0.5), p90: at(0.9), p99: at(0.99), n: samples.length }));
await pool.close();
