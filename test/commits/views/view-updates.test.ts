import t from 'tap';
import { parseViewUpdate } from '../../../src/commits/views/index.js';
import { parseJson } from '../../../src/json/index.js';
import { schemaJson, versionJson } from '../../helpers/views.js';

const parse = (json: unknown, path = 'updates[0]') => parseViewUpdate(json, path);

t.test('every view update of the REST spec is read', async (t) => {
  t.same(parse({ action: 'assign-uuid', uuid: 'u-1' }), { action: 'assign-uuid', uuid: 'u-1' });
  t.same(parse({ action: 'upgrade-format-version', 'format-version': 1 }), { action: 'upgrade-format-version', formatVersion: 1 });
  t.same(parse({ action: 'set-location', location: 's3://b/v' }), { action: 'set-location', location: 's3://b/v' });
  t.same(parse({ action: 'set-properties', updates: { a: '1' } }), { action: 'set-properties', updates: { a: '1' } });
  t.same(parse({ action: 'remove-properties', removals: ['a', 'b'] }), { action: 'remove-properties', removals: ['a', 'b'] });
  t.same(parse({ action: 'set-current-view-version', 'view-version-id': -1 }), { action: 'set-current-view-version', viewVersionId: -1 });

  const schema = parse({ action: 'add-schema', schema: schemaJson(['a', 'b'], { 'schema-id': 4 }), 'last-column-id': 2 });
  t.equal(schema.action, 'add-schema');
  if (schema.action === 'add-schema') {
    t.equal(schema.schema.schemaId, 4);
    t.same(schema.schema.fields.map((f) => f.name), ['a', 'b']);
  }

  const added = parse({ action: 'add-view-version', 'view-version': versionJson('SELECT 1', { 'schema-id': -1, 'default-catalog': 'c' }) });
  t.equal(added.action, 'add-view-version');
  if (added.action === 'add-view-version') {
    t.same(added.viewVersion, {
      versionId: 1,
      timestampMs: 1_800_000_000_000 - 5000,
      schemaId: -1,
      summary: { 'engine-name': 'spark' },
      representations: [{ kind: 'sql', sql: 'SELECT 1', dialect: 'spark' }],
      defaultCatalog: 'c',
      defaultNamespace: ['analytics'],
    });
  }
});

t.test('the action is read case-insensitively, as Java', async (t) => {
  t.same(parse({ action: 'SET-Location', location: 'x' }), { action: 'set-location', location: 'x' });
});

t.test('the legacy names updated and removed are read; the spec names win when both are sent', async (t) => {
  t.same(parse({ action: 'set-properties', updated: { a: '1' } }), { action: 'set-properties', updates: { a: '1' } });
  t.same(parse({ action: 'set-properties', updated: { a: '1' }, updates: { b: '2' } }), { action: 'set-properties', updates: { b: '2' } });
  t.same(parse({ action: 'remove-properties', removed: ['a'] }), { action: 'remove-properties', removals: ['a'] });
  t.same(parse({ action: 'remove-properties', removed: ['a'], removals: ['b'] }), { action: 'remove-properties', removals: ['b'] });
});

t.test('a key named twice in removals is removed once (Java reads a set)', async (t) => {
  t.same(parse({ action: 'remove-properties', removals: ['a', 'a'] }), { action: 'remove-properties', removals: ['a'] });
});

t.test('a __proto__ property is data', async (t) => {
  const u = parse(parseJson('{"action":"set-properties","updates":{"__proto__":"x"}}'));
  t.equal(u.action === 'set-properties' && Object.hasOwn(u.updates, '__proto__'), true);
  t.equal(u.action === 'set-properties' && u.updates['__proto__' as 'x'], 'x');
});

t.test('a malformed update is BAD_REQUEST naming the field path', async (t) => {
  const cases: Array<[unknown, RegExp, string?]> = [
    ['set-location', /'updates\[1\]'/],
    [{ location: 'x' }, /'updates\[1\]\.action'/],
    [{ action: 'add-the-moon' }, /'updates\[1\]\.action'/],
    [{ action: 'assign-uuid' }, /'updates\[1\]\.uuid'/],
    [{ action: 'upgrade-format-version', 'format-version': '1' }, /'updates\[1\]\.format-version'/],
    [{ action: 'upgrade-format-version', 'format-version': 1.5 }, /'updates\[1\]\.format-version'/],
    [{ action: 'set-location', location: null }, /'updates\[1\]\.location'/],
    [{ action: 'set-properties' }, /'updates\[1\]\.updates'/],
    [{ action: 'set-properties', updates: { a: 1 } }, /'updates\[1\]\.updates\.a'/, 'a number is not a string value (Java JsonUtil.getStringMap)'],
    [{ action: 'set-properties', updates: ['a'] }, /'updates\[1\]\.updates'/],
    [{ action: 'remove-properties', removals: 'a' }, /'updates\[1\]\.removals'/],
    [{ action: 'remove-properties', removals: [1] }, /'updates\[1\]\.removals\[0\]'/],
    [{ action: 'add-schema' }, /'updates\[1\]\.schema'/],
    [{ action: 'add-schema', schema: { type: 'struct', fields: [{ id: 1, name: 'a', type: 'string' }] } }, /'updates\[1\]\.schema\.fields\[0\]\.required'/],
    [{ action: 'add-view-version' }, /'updates\[1\]\.view-version'/],
    [{ action: 'add-view-version', 'view-version': 3 }, /'updates\[1\]\.view-version'/],
    [{ action: 'add-view-version', 'view-version': versionJson('x', { 'default-namespace': undefined }) }, /'updates\[1\]\.view-version\.default-namespace'/],
    [{ action: 'add-view-version', 'view-version': versionJson('x', { representations: [{ type: 'sql', sql: 'x' }] }) }, /'updates\[1\]\.view-version\.representations\[0\]\.dialect'/],
    [
      { action: 'add-view-version', 'view-version': versionJson('x', { representations: [{ type: 'substrait', plan: 'AA' }] }) },
      /'updates\[1\]\.view-version\.representations\[0\]\.type'/,
      'the REST spec knows SQL representations only',
    ],
    [{ action: 'set-current-view-version' }, /'updates\[1\]\.view-version-id'/],
    [{ action: 'set-current-view-version', 'view-version-id': 2 ** 31 }, /'updates\[1\]\.view-version-id'/],
  ];
  for (const [json, message, name] of cases) {
    t.throws(() => parse(json, 'updates[1]'), { code: 'BAD_REQUEST', message }, name ?? JSON.stringify(json));
  }
});

t.test('a table update sent to a view is UNSUPPORTED_OPERATION (Java MetadataUpdate.applyTo(ViewMetadata.Builder))', async (t) => {
  for (const action of ['set-current-schema', 'add-snapshot', 'set-snapshot-ref', 'add-spec', 'remove-schemas']) {
    t.throws(() => parse({ action }), { code: 'UNSUPPORTED_OPERATION' }, action);
  }
});
