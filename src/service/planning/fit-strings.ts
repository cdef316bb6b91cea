/**
 * Plan-task strings for a plan's further batches within a response's byte budget: one string per
 * batch when they fit, else strings each carrying a run of batches (redeeming one hands out the
 * rest of its run as plan tasks), doubling the run until the strings fit (Gravitino design §8.5:
 * a /plan answer stays small however large the plan).
 */
export function fitStrings<B>(batches: readonly B[], budget: number, encode: (own: B, more: readonly B[]) => string): string[] {
  const size = (strings: string[]) => strings.reduce((n, s) => n + s.length + 3, 0);
  let strings = batches.map((batch) => encode(batch, []));
  for (let run = 2; size(strings) > budget && strings.length > 1; run *= 2) {
    strings = [];
    for (let i = 0; i < batches.length; i += run) {
      const [own, ...more] = batches.slice(i, i + run);
      strings.push(encode(own!, more));
    }
  }
  return strings;
}
