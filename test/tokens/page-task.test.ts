import t from 'tap';
import { decodePageTask, decodePlanId, decodePlanTask, encodePageTask, encodePlanId, encodePlanTask, type PageTask } from '../../src/tokens/index.js';
import { KEY, OTHER_KEY, PLAN, TASK, URL_SAFE, payloadOf, sealed } from './samples.js';

const PAGE: PageTask = { ...PLAN, page: { start: 2, end: 4 }, more: [{ start: 4, end: 6 }, { start: 6, end: 7 }], total: 7, digest: 'abcDEF_-0123456789abcd' };

for (const key of [undefined, KEY]) {
  const name = key ? 'signed' : 'unsigned';

  t.test(`${name}: a page task decodes to the page it was issued for, URL-safe, the same string every time`, async (t) => {
    const text = encodePageTask(PAGE, key);
    t.match(text, URL_SAFE);
    t.ok(text.startsWith('g1.'));
    t.same(decodePageTask(text, key), PAGE);
    t.equal(decodePageTask(text, key)?.snapshotId, PLAN.snapshotId, '64-bit snapshot id exact');
    t.equal(encodePageTask(PAGE, key), text, 'deterministic');
  });

  t.test(`${name}: page tasks, plan tasks and plan ids are never taken for one another`, async (t) => {
    t.equal(decodePageTask(encodePlanTask(TASK, key), key), undefined);
    t.equal(decodePageTask(encodePlanId(PLAN, key), key), undefined);
    t.equal(decodePlanTask(encodePageTask(PAGE, key), key), undefined);
    t.equal(decodePlanId(encodePageTask(PAGE, key), key), undefined);
  });

  t.test(`${name}: ranges a server never issues are refused`, async (t) => {
    const base = payloadOf(encodePageTask(PAGE, undefined));
    const edits: Array<[string, Record<string, unknown>]> = [
      ['an empty range', { r: [3, 3] }],
      ['an inverted range', { r: [4, 2] }],
      ['a range past the plan', { r: [6, 9] }],
      ['overlapping pages', { x: [[3, 5]] }],
      ['a negative start', { r: [-1, 2] }],
      ['an empty fan-out', { x: [] }],
      ['no digest', { h: '' }],
      ['an unknown key', { z: 1 }],
    ];
    for (const [what, edit] of edits) t.equal(decodePageTask(sealed('g1', { ...base, ...edit }, key), key), undefined, what);
  });
}

t.test('a signed page task is refused under another key and unsigned', async (t) => {
  const text = encodePageTask(PAGE, KEY);
  t.equal(decodePageTask(text, OTHER_KEY), undefined);
  t.equal(decodePageTask(text.slice(0, text.lastIndexOf('.')), KEY), undefined);
});

t.test('encoding a page outside its plan is a programming error', async (t) => {
  t.throws(() => encodePageTask({ ...PAGE, page: { start: 5, end: 9 } }), { code: 'INTERNAL' });
});
