import t from 'tap';
import { commitViewChange, parseViewChange } from '../../../src/commits/views/index.js';
import { currentViewVersion } from '../../../src/iceberg/index.js';
import { VIEW } from '../../iceberg/view-samples.js';
import { fixedClock, schemaJson, stored, versionJson } from '../../helpers/views.js';
import { OPENAPI_SKIP, openApiAvailable, validateAgainst } from '../../helpers/openapi.js';

const UUID = 'fa6506c3-7681-40c8-86dc-e36561f83385';

/** A replace as Java's RESTViewOperations sends it after ViewMetadata.Builder.changes(). */
const REPLACE = {
  identifier: { namespace: ['analytics'], name: 'event_counts' },
  requirements: [{ type: 'assert-view-uuid', uuid: UUID }],
  updates: [
    { action: 'add-schema', schema: schemaJson(['day', 'events', 'users'], { 'schema-id': 1 }), 'last-column-id': 3 },
    { action: 'add-view-version', 'view-version': versionJson({ spark: 'SELECT 3', trino: 'SELECT 3' }, { 'version-id': 3, 'schema-id': -1 }) },
    { action: 'set-current-view-version', 'view-version-id': -1 },
  ],
};

t.test('a CommitViewRequest is read: identifier, requirements, updates', async (t) => {
  const change = parseViewChange(REPLACE);
  t.same(change.identifier, { namespace: ['analytics'], name: 'event_counts' });
  t.same(change.requirements, [{ type: 'assert-view-uuid', uuid: UUID }]);
  t.same(change.updates.map((u) => u.action), ['add-schema', 'add-view-version', 'set-current-view-version']);
});

t.test('every member may be absent or null (Java UpdateTableRequestParser)', async (t) => {
  t.same(parseViewChange({}), { requirements: [], updates: [] });
  t.same(parseViewChange({ identifier: null, requirements: null, updates: null }), { requirements: [], updates: [] });
  t.same(parseViewChange({ identifier: { name: 'v' } }).identifier, { namespace: [], name: 'v' }, 'an identifier without namespace is in the empty namespace');
});

t.test('a malformed CommitViewRequest is BAD_REQUEST naming the field', async (t) => {
  const cases: Array<[unknown, RegExp]> = [
    ['updates', /'\(body\)'/],
    [{ updates: {} }, /'updates'/],
    [{ requirements: 'x' }, /'requirements'/],
    [{ updates: [{ action: 'set-location', location: 's' }, { action: 'add-view-version' }] }, /'updates\[1\]\.view-version'/],
    [{ requirements: [{ type: 'assert-view-uuid' }] }, /'requirements\[0\]\.uuid'/],
    [{ identifier: { namespace: ['a'] } }, /'identifier\.name'/],
    [{ identifier: { namespace: 'a.b', name: 'v' } }, /'identifier\.namespace'/],
    [{ identifier: 'a.v' }, /'identifier'/],
  ];
  for (const [body, message] of cases) t.throws(() => parseViewChange(body), { code: 'BAD_REQUEST', message }, String(message));
});

t.test('a commit checks its requirements, then applies its updates', async (t) => {
  const { metadata, changed } = commitViewChange(stored(VIEW), parseViewChange(REPLACE), fixedClock());
  t.equal(changed, true);
  t.equal(metadata.currentVersionId, 3);
  t.equal(currentViewVersion(metadata).schemaId, 1);
  t.same(metadata.versionLog.map((e) => e.versionId), [1, 2, 3]);
});

t.test('a failed requirement is COMMIT_FAILED, before any update is judged', async (t) => {
  const change = parseViewChange({
    requirements: [{ type: 'assert-view-uuid', uuid: 'another' }],
    updates: [{ action: 'set-current-view-version', 'view-version-id': 99 }],
  });
  t.throws(() => commitViewChange(stored(VIEW), change, fixedClock()), { code: 'COMMIT_FAILED' });
});

t.test('a commit that changes nothing says so', async (t) => {
  const change = parseViewChange({ requirements: [{ type: 'assert-view-uuid', uuid: UUID }], updates: [{ action: 'set-current-view-version', 'view-version-id': 2 }] });
  t.equal(commitViewChange(stored(VIEW), change, fixedClock()).changed, false);
});

t.test('the sample commit is a spec CommitViewRequest', { skip: openApiAvailable() ? false : OPENAPI_SKIP }, async (t) => {
  t.same(validateAgainst('CommitViewRequest', REPLACE), []);
});
