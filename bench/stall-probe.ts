/**
 * `/healthz` every 5 ms for a while, in a process of its own (bench/stall.ts runs it beside a
 * large /plan): `node --import tsx bench/stall-probe.ts <url> <seconds>`. Open loop: a request
 * starts when it is due whatever the earlier ones do, and its latency counts from then. Prints
 * JSON [[dueEpochMs, latencyMs], …].
 */
import { Pool } from 'undici';
import { pollOpenLoop } from './open-loop-poll.js';

const [url, secondsText] = process.argv.slice(2) as [string, string];
const target = new URL(url);
const pool = new Pool(target.origin, { connections: 8 });
const INTERVAL_MS = 5;
const total = Math.round((Number(secondsText) * 1000) / INTERVAL_MS);
const samples = await pollOpenLoop(pool, target.pathname, INTERVAL_MS, (i) => i < total);
console.log(JSON.stringify(samples));
await pool.close();
