import t from 'tap';
import {
  PLAN_ID_MAX_LENGTH,
  decodePlanId,
  decodePlanTask,
  encodePlanId,
  encodePlanTask,
  type PlanRef,
} from '../../src/tokens/index.js';
import { EXACT_LITERALS, KEY, OTHER_KEY, PLAN, TASK, URL_SAFE, copy, payloadOf, sealed } from './samples.js';

const INCREMENTAL: PlanRef = {
  catalog: '',
  namespace: ['db.with.dots', 'Ünïcødé\x1f'],
  table: 'events',
  snapshotId: 9223372036854775807n,
  scan: {
    filter: EXACT_LITERALS,
    caseSensitive: true,
    useSnapshotSchema: false,
    startSnapshotId: 9007199254740993n,
    endSnapshotId: 9223372036854775807n,
  },
};

/** Form-style decoding, as Java's RESTUtil.decodeString and HTML forms do it ('+' is a space). */
function formDecode(s: string): string {
  return new URLSearchParams(`id=${s}`).get('id')!;
}

for (const key of [undefined, KEY]) {
  const name = key ? 'signed' : 'unsigned';

  t.test(`${name}: a plan id decodes to the plan it was issued for, 64-bit ids exact`, async (t) => {
    for (const plan of [PLAN, INCREMENTAL]) {
      const id = encodePlanId(plan, key);
      const back = decodePlanId(id, key);
      t.same(back, plan);
      t.equal(back?.snapshotId, plan.snapshotId);
      t.equal(back?.scan.startSnapshotId, plan.scan.startSnapshotId);
      t.equal(encodePlanId(back!, key), id, 're-encoding gives the same id');
    }
  });

  t.test(`${name}: a plan id survives path and form decoding unchanged`, async (t) => {
    for (const plan of [PLAN, INCREMENTAL]) {
      const id = encodePlanId(plan, key);
      t.match(id, URL_SAFE);
      t.notOk(id.includes('+'));
      t.equal(encodeURIComponent(id), id);
      t.equal(decodeURIComponent(id), id);
      t.equal(formDecode(id), id);
    }
  });

  t.test(`${name}: plan ids and plan tasks are never accepted for each other`, async (t) => {
    const id = encodePlanId(PLAN, key);
    const task = encodePlanTask(TASK, key);
    t.equal(decodePlanTask(id, key), undefined);
    t.equal(decodePlanId(task, key), undefined);
    t.equal(decodePlanId(`p1${task.slice(2)}`, key), undefined, 'a task relabelled as a plan id');
    t.equal(decodePlanTask(`t1${id.slice(2)}`, key), undefined, 'a plan id relabelled as a task');
  });

  t.test(`${name}: every strict prefix of a plan id is rejected`, async (t) => {
    const id = encodePlanId(PLAN, key);
    const accepted = [];
    for (let n = 0; n < id.length; n++) if (decodePlanId(id.slice(0, n), key) !== undefined) accepted.push(n);
    t.same(accepted, []);
  });
}

t.test('a plan id follows the same key policy as plan tasks', async (t) => {
  const unsigned = encodePlanId(PLAN);
  const signed = encodePlanId(PLAN, KEY);
  t.equal(decodePlanId(unsigned, KEY), undefined, 'key configured: unsigned rejected');
  t.equal(decodePlanId(signed, OTHER_KEY), undefined, 'key configured: wrong key rejected');
  t.same(decodePlanId(signed), PLAN, 'no key: signed accepted');
  const [kind, payload, mac] = signed.split('.');
  const other = encodePlanId({ ...PLAN, snapshotId: 1n }, KEY).split('.')[1];
  t.equal(decodePlanId(`${kind}.${other}.${mac}`, KEY), undefined, 'a MAC moved to another payload');
  t.ok(decodePlanId(`${kind}.${payload}.${mac}`, KEY), 'control');
});

t.test('a plan id payload with task fields, unknown fields or missing fields is rejected', async (t) => {
  const good = payloadOf(encodePlanId(PLAN));
  t.ok(decodePlanId(sealed('p1', copy(good))), 'control: the unedited payload is accepted');
  t.equal(decodePlanId(sealed('p1', { ...copy(good), r: [{ m: 'x', s: 0, e: 1 }] })), undefined, 'ranges');
  t.equal(decodePlanId(sealed('p1', { ...copy(good), x: true })), undefined, 'an unknown key');
  for (const k of ['c', 'n', 't', 's', 'q']) {
    const p = copy(good);
    delete p[k];
    t.equal(decodePlanId(sealed('p1', p)), undefined, `without ${k}`);
  }
  t.equal(decodePlanId(sealed('p1', '["p1"]')), undefined, 'a JSON array');
  t.equal(decodePlanId('p1.' + 'A'.repeat(PLAN_ID_MAX_LENGTH)), undefined, 'too long');
  t.equal(decodePlanId('p2' + encodePlanId(PLAN).slice(2)), undefined, 'another version');
});

t.test('a plan too large for a URL gets no plan id', async (t) => {
  const values = Array.from({ length: 2000 }, (_, i) => `${i.toString(36)}-${Math.random().toString(36).slice(2)}`);
  const big = { ...PLAN, scan: { ...PLAN.scan, filter: { type: 'in', term: 'category', values } } };
  t.throws(() => encodePlanId(big), { code: 'INVALID_SCAN' });
  t.ok(encodePlanId(PLAN).length < 1024, `a typical plan id is short (${encodePlanId(PLAN, KEY).length} chars signed)`);
});
