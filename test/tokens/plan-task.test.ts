import { createRequire, syncBuiltinESMExports } from 'node:module';
import t from 'tap';
import { JsonFloat, stringifyJson } from '../../src/json/index.js';
import {
  PLAN_TASK_MAX_LENGTH,
  canonicalScanJson,
  decodePlanTask,
  encodePlanId,
  encodePlanTask,
  tokenKey,
  type PlanTask,
} from '../../src/tokens/index.js';
import { EXACT_LITERALS, KEY, OTHER_KEY, PLAN, TASK, TASK_WITH_FACTS, URL_SAFE, copy, manifestPath, payloadOf, sealed } from './samples.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';

const UNICODE_TASK: PlanTask = {
  catalog: 'lakehouse ☃',
  namespace: ['a.b', 'x\x1fy', 'Ünïcødé 表', ''],
  table: 'ta.ble 🧊',
  snapshotId: -9223372036854775808n,
  scan: {
    filter: EXACT_LITERALS,
    caseSensitive: false,
    useSnapshotSchema: true,
    statsFields: ['id', 'ratio'],
    startSnapshotId: 9223372036854775807n,
    endSnapshotId: 9007199254740993n,
  },
  ranges: [{ manifest: 'file:///tmp/wh/ns/t/metadata/ünï-m0.avro', start: 0, end: 1, nextRowId: 0n }],
};

for (const [name, key] of [
  ['unsigned', undefined],
  ['signed', KEY],
] as const) {
  t.test(`${name}: a plan task decodes to the task it was encoded from, 64-bit ids exact`, async (t) => {
    for (const task of [TASK, UNICODE_TASK]) {
      const token = encodePlanTask(task, key);
      const back = decodePlanTask(token, key);
      t.same(back, task);
      t.equal(back?.snapshotId, task.snapshotId);
      t.equal(stringifyJson(back?.scan.filter), stringifyJson(task.scan.filter), 'bigint and float literals keep their text');
      t.equal(canonicalScanJson(back!.scan), canonicalScanJson(task.scan));
    }
  });

  t.test(`${name}: encoding is deterministic and re-encoding a decoded task gives the same string`, async (t) => {
    const token = encodePlanTask(TASK, key);
    t.equal(encodePlanTask(TASK, key), token);
    t.equal(encodePlanTask(decodePlanTask(token, key)!, key), token);
  });

  t.test(`${name}: every strict prefix of a plan task is rejected`, async (t) => {
    const token = encodePlanTask(TASK, key);
    const accepted = [];
    for (let n = 0; n < token.length; n++) if (decodePlanTask(token.slice(0, n), key) !== undefined) accepted.push(n);
    t.same(accepted, []);
  });
}

t.test('tokens use only URL-safe characters, never "+"', async (t) => {
  for (const key of [undefined, KEY]) {
    for (const task of [TASK, UNICODE_TASK]) {
      const token = encodePlanTask(task, key);
      t.match(token, URL_SAFE);
      t.equal(encodeURIComponent(token), token);
    }
  }
});

t.test('a realistic batch stays well under a kilobyte', async (t) => {
  // 3 manifests with ~110-byte paths, read hints, a 36-char table UUID and a 5-predicate filter,
  // as of writing: 559 characters unsigned, 603 signed (about 1460 / 1500 without deflate).
  const unsigned = encodePlanTask(TASK);
  const signed = encodePlanTask(TASK, KEY);
  t.comment(`plan task for 3 manifests + 5 predicates: ${unsigned.length} chars unsigned, ${signed.length} signed`);
  t.ok(TASK.ranges.every((r) => r.manifest.length >= 100));
  t.ok(signed.length < 1024, `${signed.length} chars`);
});

t.test('with a key, changing any single character of a task is detected', async (t) => {
  const token = encodePlanTask(TASK, KEY);
  const accepted = [];
  for (let i = 0; i < token.length; i++) {
    const c = ALPHABET[(ALPHABET.indexOf(token[i]!) + 1) % ALPHABET.length]!;
    const flipped = token.slice(0, i) + c + token.slice(i + 1);
    if (decodePlanTask(flipped, KEY) !== undefined) accepted.push(i);
  }
  t.same(accepted, []);
});

t.test('key policy', async (t) => {
  const unsigned = encodePlanTask(TASK);
  const signed = encodePlanTask(TASK, KEY);
  t.equal(decodePlanTask(unsigned, KEY), undefined, 'key configured: an unsigned task is rejected');
  t.equal(decodePlanTask(signed, OTHER_KEY), undefined, 'key configured: a task signed with another key is rejected');
  t.same(decodePlanTask(signed), TASK, 'no key: a signed task is accepted (the MAC cannot be checked, and need not be)');
  const bogusMac = `${unsigned}.${'A'.repeat(43)}`;
  t.same(decodePlanTask(bogusMac), TASK, 'no key: the MAC is not checked');
  t.equal(decodePlanTask(bogusMac, KEY), undefined);
  t.equal(decodePlanTask(`${unsigned}.${'A'.repeat(42)}`), undefined, 'no key: a malformed MAC is still rejected');
  t.equal(decodePlanTask(`${signed}.x`), undefined, 'a third segment is rejected');
});

t.test('replicas sharing the configured secret accept each other\'s tasks', async (t) => {
  const planning = { batchSize: 100, maxResponseBytes: 1 << 20, cacheBytes: 0, tokenSecret: 'shared-between-replicas' };
  const a = tokenKey(planning);
  const b = tokenKey({ ...planning });
  t.same(decodePlanTask(encodePlanTask(TASK, a), b), TASK);
  t.equal(tokenKey({ batchSize: 100, maxResponseBytes: 1 << 20, cacheBytes: 0 }), undefined, 'no secret: no key');
  t.throws(() => tokenKey({ ...planning, tokenSecret: 'short' }), { code: 'CONFIG_INVALID' });
  t.throws(() => encodePlanTask(TASK, Buffer.alloc(8)), { code: 'CONFIG_INVALID' });
  t.throws(() => decodePlanTask('t1.x', Buffer.alloc(8)), { code: 'CONFIG_INVALID' });
});

t.test('plan ids are never accepted as plan tasks, whatever the label', async (t) => {
  for (const key of [undefined, KEY]) {
    const id = encodePlanId(PLAN, key);
    t.equal(decodePlanTask(id, key), undefined);
    t.equal(decodePlanTask(`t1${id.slice(2)}`, key), undefined, 'relabelled');
  }
});

t.test('strings with the wrong envelope are rejected', async (t) => {
  const token = encodePlanTask(TASK);
  const body = token.slice(3);
  const cases: Record<string, unknown> = {
    'other version': `t2.${body}`,
    'upper-case kind': `T1.${body}`,
    'no kind': body,
    'empty payload': 't1.',
    'empty string': '',
    'padded base64': `${token}==`,
    'standard base64 characters': 't1.ab+d/w',
    'a space': 't1.ab d',
    'impossible base64 length': 't1.AAAAA',
    'non-canonical base64 bits': 't1.AB',
    'base64 of JSON that was not deflated': `t1.${Buffer.from(stringifyJson(payloadOf(token))).toString('base64url')}`,
    'bytes after the deflate stream': `t1.${Buffer.concat([Buffer.from(body, 'base64url'), Buffer.from([0x20, 0x20, 0x20])]).toString('base64url')}`,
    'not a string': 42,
    'too long': `t1.${'A'.repeat(PLAN_TASK_MAX_LENGTH)}`,
  };
  for (const [name, text] of Object.entries(cases)) t.equal(decodePlanTask(text as string), undefined, name);
});

t.test('payloads this server would not write are rejected', async (t) => {
  const good = payloadOf(encodePlanTask(TASK));
  const edits: Record<string, (p: Record<string, any>) => unknown> = {
    'not JSON': () => 'not json {',
    'a JSON array': () => '[1,2,3]',
    'JSON null': () => 'null',
    'an unknown key': (p) => ({ ...p, x: 1 }),
    'an unknown range key': (p) => (p['r'][0].x = 1, p),
    'an unknown scan key': (p) => (p['q'].limit = 1, p),
    'namespace as a dotted string': (p) => ({ ...p, n: 'sales' }),
    'a namespace level that is not a string': (p) => ({ ...p, n: ['sales', 1] }),
    'an empty table name': (p) => ({ ...p, t: '' }),
    'snapshot id as a string': (p) => ({ ...p, s: '9158179788527662767' }),
    'snapshot id as a float': (p) => ({ ...p, s: new JsonFloat('1.5') }),
    'snapshot id beyond 64 bits': (p) => ({ ...p, s: 2n ** 63n }),
    'case-sensitive as a string': (p) => (p['q'].cs = 'true', p),
    'a filter that does not parse': (p) => (p['q'].f = { type: 'bogus' }, p),
    'a null filter': (p) => (p['q'].f = null, p),
    'start-snapshot-id without end-snapshot-id': (p) => (p['q'].from = 1, p),
    'select holding a number': (p) => (p['q'].sel = ['a', 1], p),
    'ranges as an object': (p) => ({ ...p, r: { m: 'x', s: 0, e: 1 } }),
    'no ranges': (p) => ({ ...p, r: [] }),
    'a negative start': (p) => (p['r'][0].s = -1, p),
    'an inverted range': (p) => (p['r'][0].s = 61, p),
    'an empty range': (p) => (p['r'][0].s = p['r'][0].e, p),
    'a position beyond 2^53': (p) => (p['r'][0].e = 2n ** 60n, p),
    'an empty manifest path': (p) => (p['r'][0].m = '', p),
    'an offset without a length': (p) => (delete p['r'][0].l, p),
    'a zero length': (p) => (p['r'][0].l = 0, p),
    'an offset without its block’s first entry': (p) => (delete p['r'][0].b, p),
    'a block first entry after the range start': (p) => (p['r'][0].b = p['r'][0].s + 1, p),
    'a negative next row id': (p) => (p['r'][1].i = -1, p),
    'an empty table uuid': (p) => ({ ...p, u: '' }),
  };
  for (const [name, edit] of Object.entries(edits)) {
    const payload = edit(copy(good));
    for (const key of [undefined, KEY]) t.equal(decodePlanTask(sealed('t1', payload, key), key), undefined, `${name}${key ? ' (signed)' : ''}`);
  }
  t.ok(decodePlanTask(sealed('t1', copy(good))), 'control: the unedited payload is accepted');
});

t.test('every required field is required', async (t) => {
  const good = payloadOf(encodePlanTask(TASK));
  const paths: Array<[string, string[]]> = [
    ...['c', 'n', 't', 's', 'q', 'r'].map((k): [string, string[]] => [k, []]),
    ...['f', 'cs', 'uss'].map((k): [string, string[]] => [k, ['q']]),
    ...['m', 's', 'e'].map((k): [string, string[]] => [k, ['r', '0']]),
  ];
  for (const [key, parents] of paths) {
    const p = copy(good);
    const holder = parents.reduce<any>((o, k) => o[k], p);
    delete holder[key];
    t.equal(decodePlanTask(sealed('t1', p)), undefined, [...parents, key].join('.'));
  }
  const noUuid = copy(good);
  delete noUuid['u'];
  t.notOk(decodePlanTask(sealed('t1', noUuid))?.tableUuid, 'the table uuid is optional');
});

t.test('with a key, a tampered task is rejected before it is inflated or parsed', async (t) => {
  const require = createRequire(import.meta.url);
  const zlib = require('node:zlib') as typeof import('node:zlib');
  const calls = { inflate: 0, parse: 0 };
  const { inflateRawSync } = zlib;
  const { parse } = JSON;
  zlib.inflateRawSync = ((...args: Parameters<typeof inflateRawSync>) => (calls.inflate++, inflateRawSync(...args))) as typeof inflateRawSync;
  JSON.parse = (...args: Parameters<typeof parse>) => (calls.parse++, parse(...args));
  syncBuiltinESMExports();
  t.teardown(() => {
    zlib.inflateRawSync = inflateRawSync;
    JSON.parse = parse;
    syncBuiltinESMExports();
  });

  const signed = encodePlanTask(TASK, KEY);
  const otherTable = encodePlanTask({ ...TASK, table: 'other', ranges: [{ manifest: manifestPath(9), start: 0, end: 5 }] }, KEY);
  const [kind, , mac] = signed.split('.');
  // a well-formed, decodable payload under a MAC that belongs to another payload
  const spliced = `${kind}.${otherTable.split('.')[1]}.${mac}`;
  t.equal(decodePlanTask(spliced, KEY), undefined);
  t.equal(decodePlanTask(`t1.${'A'.repeat(PLAN_TASK_MAX_LENGTH)}`, KEY), undefined);
  t.same(calls, { inflate: 0, parse: 0 }, 'nothing was inflated or parsed');

  t.ok(decodePlanTask(signed, KEY), 'control: the genuine task decodes');
  t.ok(calls.inflate > 0 && calls.parse > 0, 'control: the spies see decoding');
});

t.test('a signed task carries its manifests\' list entries (t2), 64-bit values exact; re-encoding gives the same string', async (t) => {
  const token = encodePlanTask(TASK_WITH_FACTS, KEY);
  t.ok(token.startsWith('t2.'), 'format 2');
  const back = decodePlanTask(token, KEY);
  t.same(back, TASK_WITH_FACTS);
  t.same([...back!.facts!.manifests.values()], [...TASK_WITH_FACTS.facts!.manifests.values()], 'every list entry, bigints exact');
  t.equal(back!.facts!.noDeletes, true);
  t.equal(encodePlanTask(back!, KEY), token);
  const withDeletes = decodePlanTask(encodePlanTask({ ...TASK_WITH_FACTS, facts: { ...TASK_WITH_FACTS.facts!, noDeletes: false } }, KEY));
  t.equal(withDeletes?.facts, undefined, 'read without the key: no facts');
  t.equal(decodePlanTask(encodePlanTask({ ...TASK_WITH_FACTS, facts: { ...TASK_WITH_FACTS.facts!, noDeletes: false } }, KEY), KEY)?.facts?.noDeletes, false);
  t.comment(`3 manifests: ${encodePlanTask(TASK, KEY).length} chars without their list entries, ${token.length} with`);
});

t.test('a fanned-out batch carries the list entries of its own manifests only', async (t) => {
  const [a, b, c] = TASK.ranges;
  const fan: PlanTask = { ...TASK_WITH_FACTS, ranges: [a!], more: [[b!], [c!]] };
  const back = decodePlanTask(encodePlanTask(fan, KEY), KEY)!;
  t.same([...back.facts!.manifests.keys()], [a!.manifest, b!.manifest, c!.manifest], 'the task names all three');
  const { more, ...own } = back;
  const child = decodePlanTask(encodePlanTask({ ...own, ranges: more![0]! }, KEY), KEY)!;
  t.same([...child.facts!.manifests.keys()], [b!.manifest], 'the batch handed out names only its own');
});

t.test('without a key, no list entries are written, and none written by anyone else are believed', async (t) => {
  t.ok(encodePlanTask(TASK_WITH_FACTS).startsWith('t1.'), 'unsigned: format 1, as before');
  t.equal(decodePlanTask(encodePlanTask(TASK_WITH_FACTS))?.facts, undefined);
  // a t2 string anyone could have written: well-formed, accepted, its facts ignored
  const forged = sealed('t2', payloadOf(encodePlanTask(TASK_WITH_FACTS, KEY)));
  const read = decodePlanTask(forged);
  t.ok(read, 'an unsigned t2 string is a well-formed task');
  t.equal(read?.facts, undefined, 'whose facts a server without a key ignores');
  t.equal(decodePlanTask(forged, KEY), undefined, 'and a server with a key refuses unsigned');
});

t.test('t2 payloads this server would not write are rejected', async (t) => {
  const good = payloadOf(encodePlanTask(TASK_WITH_FACTS, KEY));
  const edits: Record<string, (p: Record<string, any>) => unknown> = {
    'no list entries': (p) => (delete p['f'], p),
    'a manifest without its entry': (p) => (p['f'].pop(), p),
    'an entry for a manifest no range names': (p) => (p['f'].push({ ...p['f'][0], m: manifestPath(9) }), p),
    'one manifest twice': (p) => (p['f'][2] = p['f'][0], p),
    'an unknown entry key': (p) => (p['f'][0].k = 1, p),
    'an entry without its sequence number': (p) => (delete p['f'][0].s, p),
    'a negative length': (p) => (p['f'][0].n = -1, p),
    'a negative first row id': (p) => (p['f'][1].i = -1, p),
    'a spec id beyond 32 bits': (p) => (p['f'][0].p = 2 ** 31, p),
    'a snapshot id beyond 64 bits': (p) => (p['f'][0].a = 2n ** 63n, p),
    'z false (absent is how false is written)': (p) => (p['z'] = false, p),
    'z as a number': (p) => (p['z'] = 1, p),
  };
  for (const [name, edit] of Object.entries(edits)) t.equal(decodePlanTask(sealed('t2', edit(copy(good)), KEY), KEY), undefined, name);
  t.equal(decodePlanTask(sealed('t1', good, KEY), KEY), undefined, 'a format 1 string with list entries');
  t.ok(decodePlanTask(sealed('t2', copy(good), KEY), KEY)?.facts, 'control: the unedited payload is accepted with its facts');
});

t.test('encoding refuses a task it could not decode', async (t) => {
  t.throws(() => encodePlanTask({ ...TASK, ranges: [] }), { code: 'INTERNAL' });
  t.throws(() => encodePlanTask({ ...TASK, ranges: [{ manifest: manifestPath(1), start: 5, end: 5 }] }), { code: 'INTERNAL' });
  t.throws(() => encodePlanTask({ ...TASK, ranges: [{ manifest: manifestPath(1), start: -1, end: 5 }] }), { code: 'INTERNAL' });
  t.throws(() => encodePlanTask({ ...TASK, ranges: [{ manifest: manifestPath(1), start: 0, end: 5, offset: 4 }] }), { code: 'INTERNAL' });
  // random values, so deflate cannot shrink the filter below the limit
  const values = Array.from({ length: 20_000 }, (_, i) => `${i.toString(36)}-${Math.random().toString(36).slice(2)}`);
  const huge = { ...TASK, scan: { ...TASK.scan, filter: { type: 'in', term: 'category', values } } };
  t.throws(() => encodePlanTask(huge), { code: 'INVALID_SCAN' }, 'a filter too large to carry');
});
