/**
 * Property-based fuzzing (fast-check) of mutation bodies on writable catalogs (issue #40: "Bad
 * input (any mutation body) is a 400 ErrorModel naming the field, never a 500, and changes
 * nothing"). Bodies are near misses of the spec's shapes (every update action and requirement type
 * with values of any JSON type) and arbitrary JSON. FUZZ_WRITE_RUNS sets the cases per property.
 */
import fc from 'fast-check';
import t, { type Test } from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CatalogConfig } from '../../src/config/index.js';
import { buildIcefront } from '../../src/main.js';
import { testConfig } from '../helpers/config.js';
import { validateAgainst } from '../helpers/openapi.js';

const RUNS = Number(process.env.FUZZ_WRITE_RUNS ?? 300);
const SCHEMA = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }, { id: 2, name: 's', required: false, type: 'string' }] };

const ACTIONS = [
  'assign-uuid', 'upgrade-format-version', 'add-schema', 'set-current-schema', 'add-spec', 'set-default-spec', 'add-sort-order',
  'set-default-sort-order', 'add-snapshot', 'set-snapshot-ref', 'remove-snapshots', 'remove-snapshot-ref', 'set-location',
  'set-properties', 'remove-properties', 'set-statistics', 'remove-statistics', 'set-partition-statistics',
  'remove-partition-statistics', 'remove-partition-specs', 'remove-schemas', 'add-encryption-key', 'remove-encryption-key',
];
const REQUIREMENTS = [
  'assert-create', 'assert-table-uuid', 'assert-ref-snapshot-id', 'assert-last-assigned-field-id', 'assert-current-schema-id',
  'assert-last-assigned-partition-id', 'assert-default-spec-id', 'assert-default-sort-order-id',
];
const FIELDS = ['uuid', 'format-version', 'schema', 'schema-id', 'spec', 'spec-id', 'sort-order', 'sort-order-id', 'snapshot', 'ref-name', 'type', 'snapshot-id', 'snapshot-ids', 'location', 'updates', 'removals', 'statistics', 'partition-statistics', 'spec-ids', 'schema-ids', 'encryption-key', 'key-id', 'ref', 'current-schema-id', 'last-assigned-field-id', 'default-spec-id'];

/** A JSON value of any type, small, with the numbers and strings that matter (ids, -1, huge). */
const value = fc.oneof(
  fc.constantFrom(null, true, -1, 0, 1, 1000, 2 ** 53 + 1, -(2 ** 63), '', 'main', 'x'.repeat(300), '00000000-0000-0000-0000-000000000000'),
  fc.integer(),
  fc.string({ maxLength: 12 }),
  fc.constant(SCHEMA),
  fc.constant({ 'spec-id': 0, fields: [{ 'source-id': 2, 'field-id': 1000, name: 's', transform: 'identity' }] }),
  fc.constant({ 'snapshot-id': 1, 'timestamp-ms': 1, 'manifest-list': 'file:///nowhere', summary: { operation: 'append' }, 'sequence-number': 1 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const object = (keys: fc.Arbitrary<string>) => fc.dictionary(fc.oneof(keys, fc.string({ maxLength: 6 })), value, { maxKeys: 4 });
const update = fc.tuple(fc.oneof(fc.constantFrom(...ACTIONS), fc.string({ maxLength: 8 })), object(fc.constantFrom(...FIELDS))).map(([action, rest]) => ({ ...rest, action }));
const requirement = fc.tuple(fc.oneof(fc.constantFrom(...REQUIREMENTS), fc.string({ maxLength: 8 })), object(fc.constantFrom(...FIELDS))).map(([type, rest]) => ({ ...rest, type }));
const commitBody = fc.oneof(
  { weight: 4, arbitrary: fc.record({ requirements: fc.array(requirement, { maxLength: 2 }), updates: fc.array(update, { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ requirements: value, updates: value }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
const createBody = fc.oneof(
  // well formed but for (at most) one field
  fc.tuple(fc.constantFrom('partition-spec', 'write-order', 'stage-create', 'properties', 'location'), value).map(([k, v]) => ({ name: 't2', schema: SCHEMA, [k]: v })),
  fc.record({ name: fc.oneof(fc.constantFrom('t2', '', '..', 'a/b', 'a\u0000b'), value), schema: value, 'partition-spec': value, 'write-order': value, 'stage-create': value, properties: value, location: value }, { requiredKeys: ['name'] }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A warehouse's files, to tell whether a refused request changed anything. */
function snapshotOf(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm')).sort();
}

async function start(t: Test, kind: 'filesystem' | 'sql') {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-fuzz-writes-')));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const wh = path.join(dir, 'wh');
  fs.mkdirSync(wh);
  const catalog: CatalogConfig =
    kind === 'filesystem'
      ? { type: 'filesystem', name: 'lake', warehouse: wh, locations: [], planning: 'on' }
      : { type: 'sql', name: 'lake', uri: `sqlite:${path.join(dir, 'c.db')}`, catalogName: 'lake', warehouseLocation: `file://${wh}`, warehouseDir: wh, locations: [], planning: 'on' };
  const { app } = buildIcefront(testConfig([catalog]));
  t.teardown(() => app.close());
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
  t.equal((await post('/v1/lake/namespaces', { namespace: ['db'] })).statusCode, 200);
  t.equal((await post('/v1/lake/namespaces/db/tables', { name: 't', schema: SCHEMA })).statusCode, 200);
  return { wh, post, load: async () => (await app.inject({ url: '/v1/lake/namespaces/db/tables/t' })).body };
}

/** Never a 5xx; an error is a valid ErrorModel; a refusal changes no file and no answer. */
function judge(res: { statusCode: number; body: string }, label: string, tally: Map<number, number>): void {
  tally.set(res.statusCode, (tally.get(res.statusCode) ?? 0) + 1);
  if (res.statusCode >= 500) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  if (res.statusCode >= 400) {
    const problems = validateAgainst('IcebergErrorResponse', JSON.parse(res.body));
    if (problems.length > 0) throw new Error(`${label}: not an ErrorModel: ${res.body.slice(0, 200)}`);
  }
}

for (const kind of ['filesystem', 'sql'] as const) {
  t.test(`${kind}: any commit body is applied (200) or refused with a 4xx ErrorModel, and a refusal changes nothing`, async (t) => {
    t.setTimeout(300_000);
    const { wh, post, load } = await start(t, kind);
    const tally = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(commitBody, async (body) => {
        const before = snapshotOf(wh);
        const loaded = await load();
        const res = await post('/v1/lake/namespaces/db/tables/t', body);
        judge(res, `commit ${JSON.stringify(body).slice(0, 300)}`, tally);
        if (res.statusCode !== 200) {
          if (JSON.stringify(snapshotOf(wh)) !== JSON.stringify(before)) throw new Error(`a refused commit (${res.statusCode}) changed the warehouse: ${JSON.stringify(body).slice(0, 300)}`);
          if ((await load()) !== loaded) throw new Error(`a refused commit (${res.statusCode}) changed the table: ${JSON.stringify(body).slice(0, 300)}`);
        }
      }),
      { numRuns: RUNS },
    );
    t.comment(`commit outcomes: ${[...tally].sort().map(([s, n]) => `${s}×${n}`).join(' ')}`);
    t.ok((tally.get(400) ?? 0) > 0 && (tally.get(200) ?? 0) > 0, 'both outcomes were exercised');
  });

  t.test(`${kind}: any create-table body creates a table (200) or is refused with a 4xx ErrorModel and writes nothing`, async (t) => {
    t.setTimeout(300_000);
    const { wh, post } = await start(t, kind);
    const tally = new Map<number, number>();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(createBody, async (raw) => {
        // a fresh name for the well-formed ones, so a success never collides with the last
        const body = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && (raw as { name?: unknown }).name === 't2' ? { ...raw, name: `t${++n}x` } : raw;
        const before = snapshotOf(wh);
        const res = await post('/v1/lake/namespaces/db/tables', body);
        judge(res, `create ${JSON.stringify(body).slice(0, 300)}`, tally);
        if (res.statusCode !== 200 && JSON.stringify(snapshotOf(wh)) !== JSON.stringify(before))
          throw new Error(`a refused create (${res.statusCode}) changed the warehouse: ${JSON.stringify(body).slice(0, 300)}`);
      }),
      { numRuns: RUNS },
    );
    t.comment(`create outcomes: ${[...tally].sort().map(([s, n]) => `${s}×${n}`).join(' ')}`);
    t.ok((tally.get(400) ?? 0) > 0 && (tally.get(200) ?? 0) > 0, 'both outcomes were exercised');
  });
}
