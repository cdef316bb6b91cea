import t from 'tap';
import { Turns } from '../../src/cache/index.js';
import { commitTables, parseRequirement, parseUpdate, type CommitStore, type CommitTurns, type TableChange, type TableVersion } from '../../src/commits/index.js';
import { fail, isIcefrontError } from '../../src/errors/index.js';
import { parseTableMetadata, type TableIdentifier, type TableMetadata } from '../../src/iceberg/index.js';

const ID: TableIdentifier = { namespace: ['db'], name: 't' };
const clock = { now: () => 1_700_000_000_000, newUuid: () => '00000000-0000-4000-8000-000000000000' };

function table(properties: Record<string, string> = {}): TableMetadata {
  return parseTableMetadata({
    'format-version': 2,
    'table-uuid': '11111111-1111-4111-8111-111111111111',
    location: 'file:///wh/db/t',
    'last-sequence-number': 0,
    'last-updated-ms': 1_600_000_000_000,
    'last-column-id': 1,
    'current-schema-id': 0,
    schemas: [{ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] }],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: [] }],
    'last-partition-id': 999,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties,
  });
}

/**
 * A store whose swap is conditional on the base, as every real store's (the filesystem's link, the
 * database's UPDATE … WHERE); `interfere` runs just before a swap, as another writer would.
 */
function memoryStore(initial: TableMetadata | undefined, interfere?: (version: number) => TableMetadata | undefined): CommitStore & { version(): TableVersion | undefined; swaps: number } {
  let current: TableVersion | undefined = initial && { metadata: initial, metadataLocation: 'v1' };
  let n = 1;
  const store = {
    turns: new Turns(),
    swaps: 0,
    version: () => current,
    current: async () => current,
    swap: async (swaps: readonly { base: TableVersion | undefined; next: TableMetadata }[]) => {
      store.swaps++;
      const other = interfere?.(store.swaps);
      if (other) current = { metadata: other, metadataLocation: `v${++n}` };
      const [{ base, next }] = swaps as [{ base: TableVersion | undefined; next: TableMetadata }];
      if (base?.metadataLocation !== current?.metadataLocation) throw fail('COMMIT_FAILED', 'lost the race');
      current = { metadata: next, metadataLocation: `v${++n}` };
      return [current];
    },
  };
  return store;
}

const setProperty = (k: string, requirements: TableChange['requirements'] = []): TableChange => ({
  requirements,
  updates: [parseUpdate({ action: 'set-properties', updates: { [k]: '1' } }, 'updates[0]')],
});

t.test('a lost swap whose requirements still hold is applied again on the winner’s table', async (t) => {
  const store = memoryStore(table(), (i) => (i === 1 ? table({ other: 'x' }) : undefined));
  const [done] = await commitTables(store, [{ identifier: ID, change: setProperty('mine') }], clock, { backoffMs: 1 });
  t.same(done!.metadata.properties, { other: 'x', mine: '1' }, 'both writers’ changes are in the table');
  t.equal(store.swaps, 2);
});

t.test('a lost swap whose requirements no longer hold is a 409 at once, with no pause', async (t) => {
  const requirement = [parseRequirement({ type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 1 }, 'requirements[0]')];
  // the winner changed what the requirement asserts
  const storeMoving = memoryStore(table(), (i) => (i === 1 ? parseTableMetadata(tableJson()) : undefined));
  // a back-off of an hour: had the loop paused before checking, this would never settle (tap's timeout fails it)
  const err = await commitTables(storeMoving, [{ identifier: ID, change: setProperty('mine', requirement) }], clock, { backoffMs: 3_600_000 }).catch((e: unknown) => e);
  t.ok(isIcefrontError(err, 'COMMIT_FAILED'), 'CommitFailed, without waiting out the back-off');
  t.equal(storeMoving.swaps, 1, 'never swapped again');
});

t.test('concurrent commits to one table in this process take turns: the one a winner outdated fails its requirements without writing', async (t) => {
  const addColumn = (name: string): TableChange => ({
    requirements: [parseRequirement({ type: 'assert-current-schema-id', 'current-schema-id': 0 }, 'requirements[0]')],
    updates: [
      parseUpdate({ action: 'add-schema', schema: { type: 'struct', 'schema-id': 1, fields: [{ id: 1, name: 'id', required: true, type: 'long' }, { id: 2, name, required: false, type: 'string' }] } }, 'updates[0]'),
      parseUpdate({ action: 'set-current-schema', 'schema-id': -1 }, 'updates[1]'),
    ],
  });
  const run = async (store: CommitStore & { swaps: number }) => {
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((name) => commitTables(store, [{ identifier: ID, change: addColumn(name) }], clock, { backoffMs: 1 })));
    return { won: outcomes.filter((o) => o.status === 'fulfilled').length, conflicts: outcomes.filter((o) => o.status === 'rejected' && isIcefrontError(o.reason, 'COMMIT_FAILED')).length, swaps: store.swaps };
  };
  t.same(await run(memoryStore(table())), { won: 1, conflicts: 2, swaps: 1 }, 'one swap: the others read the new schema and fail assert-current-schema-id');
  // the same three commits with no turns (each runs at once): every one builds and swaps
  const eager: CommitTurns = { run: (_keys, work) => work() };
  const unordered = Object.assign(memoryStore(table()), { turns: eager });
  t.same(await run(unordered), { won: 1, conflicts: 2, swaps: 3 }, 'without turns the losers each write a version that loses the swap');
});

t.test('nothing changed writes nothing; a commit to a missing table is NO_SUCH_TABLE; attempts run out as CommitFailed', async (t) => {
  const quiet = memoryStore(table());
  const [same] = await commitTables(quiet, [{ identifier: ID, change: { requirements: [], updates: [] } }], clock);
  t.equal(same!.metadataLocation, 'v1');
  t.equal(quiet.swaps, 0);
  const missing = await commitTables(memoryStore(undefined), [{ identifier: ID, change: setProperty('k') }], clock).catch((e: unknown) => e);
  t.ok(isIcefrontError(missing, 'NO_SUCH_TABLE'));
  const busy = memoryStore(table(), (i) => table({ [`other${i}`]: 'x' }));
  const err = await commitTables(busy, [{ identifier: ID, change: setProperty('mine') }], clock, { attempts: 3, backoffMs: 1 }).catch((e: unknown) => e);
  t.ok(isIcefrontError(err, 'COMMIT_FAILED'));
  t.equal(busy.swaps, 3, 'three attempts in all');
});

function tableJson(): Record<string, unknown> {
  return {
    'format-version': 2,
    'table-uuid': '11111111-1111-4111-8111-111111111111',
    location: 'file:///wh/db/t',
    'last-sequence-number': 0,
    'last-updated-ms': 1_600_000_000_000,
    'last-column-id': 2,
    'current-schema-id': 0,
    schemas: [{ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }, { id: 2, name: 'x', required: false, type: 'int' }] }],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: [] }],
    'last-partition-id': 999,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: {},
  };
}
