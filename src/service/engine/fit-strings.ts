/**
 * Plan-task strings for a plan's further batches within a response's byte budget: one string per
 * batch when they fit, else strings each carrying a run of batches (redeeming one hands out the
 * rest of its run as plan tasks), doubling the run until the strings fit (Gravitino design §8.5:
 * a /plan answer stays small however large the plan).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/** The strings of every run of `run` batches, in batch order (as `encodeRuns` makes them). */
export type RunEncoder = (run: number) => Promise<string[]>;

/** The strings for runs of 1, 2, 4, … batches: the first that fit `budget` (JSON quotes and commas counted). */
export async function fitStrings(budget: number, encode: RunEncoder): Promise<string[]> {
  const size = (strings: string[]) => strings.reduce((n, s) => n + s.length + 3, 0);
  let strings = await encode(1);
  for (let run = 2; size(strings) > budget && strings.length > 1; run *= 2) strings = await encode(run);
  return strings;
}

const STRINGS_PER_TURN = 32;

/**
 * One string per run of `run` batches: `encode(first, rest)` for each. Encoding is deflate and an
 * HMAC per string; on the event loop, a plan of a thousand batches yields to other requests every
 * few strings instead of holding them up for all of them.
 */
export async function encodeRuns<B>(batches: readonly B[], run: number, encode: (own: B, more: readonly B[]) => string): Promise<string[]> {
  const strings: string[] = [];
  for (let i = 0; i < batches.length; i += run) {
    if (strings.length > 0 && strings.length % STRINGS_PER_TURN === 0) await yieldToLoop();
    const [own, ...more] = batches.slice(i, i + run);
    strings.push(encode(own!, more));
  }
  return strings;
}
