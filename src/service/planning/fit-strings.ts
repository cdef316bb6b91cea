/**
 * Plan-task strings for a plan's further batches within a response's byte budget: one string per
 * batch when they fit, else strings each carrying a run of batches (redeeming one hands out the
 * rest of its run as plan tasks), doubling the run until the strings fit (Gravitino design §8.5:
 * a /plan answer stays small however large the plan).
 *
 * Encoding is deflate and an HMAC per string, on the event loop: a plan of a thousand batches
 * yields to other requests every few strings instead of holding them up for all of them.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';

const STRINGS_PER_TURN = 32;

export async function fitStrings<B>(batches: readonly B[], budget: number, encode: (own: B, more: readonly B[]) => string): Promise<string[]> {
  const size = (strings: string[]) => strings.reduce((n, s) => n + s.length + 3, 0);
  const encodeRuns = async (run: number): Promise<string[]> => {
    const strings: string[] = [];
    for (let i = 0; i < batches.length; i += run) {
      if (strings.length > 0 && strings.length % STRINGS_PER_TURN === 0) await yieldToLoop();
      const [own, ...more] = batches.slice(i, i + run);
      strings.push(encode(own!, more));
    }
    return strings;
  };
  let strings = await encodeRuns(1);
  for (let run = 2; size(strings) > budget && strings.length > 1; run *= 2) strings = await encodeRuns(run);
  return strings;
}
