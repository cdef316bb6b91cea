import t from 'tap';
import { ParsedMetadata } from '../../../src/service/engine/worker-metadata.js';

/** Texts of `chars` characters, counting the loads of each version. */
function versions(chars: number) {
  const loads = new Map<number, number>();
  const load = (id: number) => async () => {
    loads.set(id, (loads.get(id) ?? 0) + 1);
    return String(id).padEnd(chars, ' ');
  };
  return { load, loads };
}
const parse = (text: string) => ({ length: text.length });

t.test('versions are kept until their JSON passes the bound: the least recent go first', async (t) => {
  const kept = new ParsedMetadata<{ length: number }>({ maxVersions: 64, maxTextChars: 3_500 });
  const { load, loads } = versions(1_000);
  for (let id = 1; id <= 10; id++) t.same(await kept.get(id, load(id), parse), { length: 1_000 });
  t.equal(kept.versions, 3, 'three versions of 1,000 characters fit 3,500');
  t.equal(kept.textChars, 3_000);
  await kept.get(10, load(10), parse);
  t.equal(loads.get(10), 1, 'the newest is kept: not loaded again');
  await kept.get(1, load(1), parse);
  t.equal(loads.get(1), 2, 'the oldest left: loaded again when asked for');
});

t.test('a version whose JSON alone passes the bound is parsed for its callers and not kept', async (t) => {
  const kept = new ParsedMetadata<{ length: number }>({ maxVersions: 64, maxTextChars: 3_500 });
  const { load, loads } = versions(5_000);
  const [a, b] = await Promise.all([kept.get(1, load(1), parse), kept.get(1, load(1), parse)]);
  t.same([a, b], [{ length: 5_000 }, { length: 5_000 }]);
  t.equal(loads.get(1), 1, 'callers at once share one load');
  t.equal(kept.versions, 0, 'not kept once parsed');
});

t.test('at most maxVersions are kept however small; a failed load is not kept', async (t) => {
  const kept = new ParsedMetadata<{ length: number }>({ maxVersions: 2, maxTextChars: 1_000_000 });
  const { load } = versions(100);
  for (let id = 1; id <= 5; id++) await kept.get(id, load(id), parse);
  t.equal(kept.versions, 2);
  await t.rejects(kept.get(9, async () => Promise.reject(new Error('gone')), parse), /gone/);
  t.equal(kept.textChars, kept.versions * 100, 'the failure left no entry behind (a pending one counts 1 character)');
  const { load: again, loads } = versions(100);
  await kept.get(9, again(9), parse);
  t.equal(loads.get(9), 1, 'the next get loads it');
});
