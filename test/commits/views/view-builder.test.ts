import t from 'tap';
import { applyViewUpdates } from '../../../src/commits/views/index.js';
import { currentViewVersion, parseViewMetadata, viewMetadataToJson, type ViewMetadata } from '../../../src/iceberg/index.js';
import { stringifyJson } from '../../../src/json/index.js';
import { VIEW, VIEW_LIBERAL } from '../../iceberg/view-samples.js';
import { NOW, fixedClock, schemaJson, stored, updates, versionJson } from '../../helpers/views.js';

const SPARK_AND_TRINO = { spark: 'SELECT 2', trino: 'SELECT 2' };
const apply = (base: string | ViewMetadata, ...json: unknown[]) => applyViewUpdates(stored(base), updates(...json), fixedClock());
const ids = (meta: ViewMetadata) => meta.versions.map((v) => v.versionId);
const log = (meta: ViewMetadata) => meta.versionLog.map((e) => [e.versionId, e.timestampMs]);

/** VIEW with versions 1..n (all spark + trino, schema 0), `current` current, and a version log. */
function manyVersions(n: number, current: number, history: readonly number[], properties: Record<string, string> = {}): ViewMetadata {
  const base = parseViewMetadata(VIEW);
  const template = currentViewVersion(base);
  const versions = Array.from({ length: n }, (_, i) => ({ ...template, versionId: i + 1, timestampMs: 1000 + i, summary: { n: String(i + 1) } }));
  return { ...base, versions, currentVersionId: current, versionLog: history.map((versionId, i) => ({ versionId, timestampMs: 5000 + i })), properties };
}

t.test('no updates change nothing', async (t) => {
  const { metadata, changed } = apply(VIEW);
  t.equal(changed, false);
  t.equal(stringifyJson(viewMetadataToJson(metadata)), stringifyJson(viewMetadataToJson(parseViewMetadata(VIEW))));
});

t.test('the base metadata is not modified', async (t) => {
  const base = parseViewMetadata(VIEW);
  const before = stringifyJson(viewMetadataToJson(base));
  applyViewUpdates(stored(base), updates({ action: 'set-properties', updates: { a: 'b' } }, { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO) }), fixedClock());
  t.equal(stringifyJson(viewMetadataToJson(base)), before);
});

t.test('a replace as Java clients send it: new schema, version with schema -1, current -1', async (t) => {
  const { metadata, changed } = apply(
    VIEW,
    { action: 'add-schema', schema: schemaJson(['day', 'events', 'users'], { 'schema-id': 0 }) },
    { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO, { 'version-id': 3, 'schema-id': -1, 'timestamp-ms': 1700000200000 }) },
    { action: 'set-current-view-version', 'view-version-id': -1 },
  );
  t.equal(changed, true);
  t.same(metadata.schemas.map((s) => s.schemaId), [0, 1], 'the new schema gets the next id, whatever id it was sent with');
  t.same(ids(metadata), [1, 2, 3]);
  t.equal(metadata.currentVersionId, 3);
  t.equal(currentViewVersion(metadata).schemaId, 1, 'schema -1 is the schema added in this commit');
  t.equal(currentViewVersion(metadata).timestampMs, 1700000200000, "the version keeps the client's timestamp");
  t.same(log(metadata), [
    [1, 1700000000000],
    [2, 1700000100000],
    [3, 1700000200000],
  ], 'the version log gains the new version at its own timestamp');
});

t.test('an identical schema is reused, not added', async (t) => {
  const base = parseViewMetadata(VIEW);
  const { metadata, changed } = apply(VIEW, {
    action: 'add-schema',
    schema: {
      type: 'struct',
      'schema-id': 9,
      fields: [
        { id: 1, name: 'day', required: false, type: 'date' },
        { id: 2, name: 'events', required: true, type: 'long', doc: 'rows that day' },
      ],
    },
  });
  t.equal(changed, false);
  t.equal(metadata.schemas.length, base.schemas.length);
  const withDoc = apply(VIEW, { action: 'add-schema', schema: schemaJson(['day', 'events']) });
  t.equal(withDoc.changed, true, 'another doc, name or type is another schema');
});

t.test('version -1 for the schema needs a schema added in this commit', async (t) => {
  t.throws(() => apply(VIEW, { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO, { 'schema-id': -1 }) }), { code: 'VALIDATION_FAILED' });
  // an identical schema is reused: it is not "added" for -1 either (Java lastAddedSchemaId stays unset)
  t.throws(
    () =>
      apply(
        VIEW,
        { action: 'add-schema', schema: viewMetadataToJsonSchema(VIEW) },
        { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO, { 'schema-id': -1 }) },
      ),
    { code: 'VALIDATION_FAILED' },
  );
});

function viewMetadataToJsonSchema(text: string): unknown {
  return ((viewMetadataToJson(parseViewMetadata(text)) as Record<string, unknown>)['schemas'] as unknown[])[0];
}

t.test('a version of an unknown schema is ILLEGAL_ARGUMENT', async (t) => {
  t.throws(() => apply(VIEW, { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO, { 'schema-id': 5 }) }), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('current -1 needs a version added in this commit', async (t) => {
  t.throws(() => apply(VIEW, { action: 'set-current-view-version', 'view-version-id': -1 }), { code: 'VALIDATION_FAILED' });
});

t.test('an unknown current version is ILLEGAL_ARGUMENT', async (t) => {
  t.throws(() => apply(VIEW, { action: 'set-current-view-version', 'view-version-id': 7 }), { code: 'ILLEGAL_ARGUMENT' });
});

t.test("a new version's id is its own when free, else one above the highest", async (t) => {
  const free = apply(VIEW, { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO, { 'version-id': 10 }) });
  t.same(ids(free.metadata), [1, 2, 10]);
  const taken = apply(VIEW, { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO, { 'version-id': 1 }) });
  t.same(ids(taken.metadata), [1, 2, 3]);
  t.equal(taken.metadata.currentVersionId, 2, 'adding a version does not make it current');
});

t.test('a version identical to an existing one reuses its id (id, timestamp and summary order aside)', async (t) => {
  const base = parseViewMetadata(VIEW);
  const v1 = base.versions[0]!;
  const same = {
    'version-id': 42,
    'timestamp-ms': NOW - 1,
    'schema-id': 0,
    summary: { 'engine-version': '3.5.1', 'engine-name': 'spark' },
    'default-catalog': 'prod',
    'default-namespace': ['analytics'],
    representations: v1.representations.map((r) => (r.kind === 'sql' ? { type: 'sql', sql: r.sql, dialect: r.dialect } : r.json)),
  };
  // Java: the reused version was not added in this commit, so -1 has nothing to name
  t.throws(
    () => apply(VIEW, { action: 'add-view-version', 'view-version': same }, { action: 'set-current-view-version', 'view-version-id': -1 }),
    { code: 'VALIDATION_FAILED' },
  );
  const back = { action: 'set-current-view-version', 'view-version-id': 1 };
  t.throws(() => apply(VIEW, { action: 'add-view-version', 'view-version': same }, back), { code: 'ILLEGAL_ARGUMENT' }, 'version 1 lacks the trino dialect of version 2');
  const allow = { action: 'set-properties', updates: { 'replace.drop-dialect.allowed': 'true' } };
  const { metadata, changed } = apply(VIEW, allow, { action: 'add-view-version', 'view-version': same }, back);
  t.equal(changed, true);
  t.same(ids(metadata), [1, 2], 'no copy is added');
  t.equal(metadata.currentVersionId, 1);
  t.same(log(metadata).at(-1), [1, NOW], 'an older version made current again is logged at the time of the commit');

  const other = apply(VIEW, { action: 'add-view-version', 'view-version': { ...same, 'default-catalog': 'dev' } });
  t.same(ids(other.metadata), [1, 2, 42], 'another default catalog is another version, with its own free id');
});

t.test('the same version added twice in one commit is added once and -1 names it', async (t) => {
  const v = versionJson(SPARK_AND_TRINO);
  const { metadata } = apply(
    VIEW,
    { action: 'add-view-version', 'view-version': v },
    { action: 'add-view-version', 'view-version': { ...v, 'version-id': 7 } },
    { action: 'set-current-view-version', 'view-version-id': -1 },
  );
  t.same(ids(metadata), [1, 2, 3]);
  t.equal(metadata.currentVersionId, 3);
});

t.test('two queries for one dialect, ignoring case, are ILLEGAL_ARGUMENT', async (t) => {
  const v = versionJson('x', {
    representations: [
      { type: 'sql', sql: 'SELECT 1', dialect: 'spark' },
      { type: 'sql', sql: 'SELECT 2', dialect: 'Spark' },
    ],
  });
  t.throws(() => apply(VIEW, { action: 'add-view-version', 'view-version': v }), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('a new current version may not drop a dialect of the previous one', async (t) => {
  const drop = [
    { action: 'add-view-version', 'view-version': versionJson('SELECT 3') },
    { action: 'set-current-view-version', 'view-version-id': -1 },
  ];
  t.throws(() => apply(VIEW, ...drop), { code: 'ILLEGAL_ARGUMENT' });
  t.equal(apply(VIEW, ...drop.slice(0, 1)).changed, true, 'adding it without making it current is fine');
  const allowed = apply(VIEW, { action: 'set-properties', updates: { 'replace.drop-dialect.allowed': 'TRUE' } }, ...drop);
  t.equal(allowed.metadata.currentVersionId, 3, 'replace.drop-dialect.allowed=true (any case) allows it');
  t.throws(() => apply(VIEW, { action: 'set-properties', updates: { 'replace.drop-dialect.allowed': 'yes' } }, ...drop), { code: 'ILLEGAL_ARGUMENT' });
  const more = apply(VIEW, { action: 'add-view-version', 'view-version': versionJson({ SPARK: 'a', trino: 'b', hive: 'c' }) }, drop[1]);
  t.equal(more.metadata.currentVersionId, 3, 'dialects compare ignoring case; adding one is fine');
});

t.test('making the current version current again changes nothing', async (t) => {
  const { metadata, changed } = apply(VIEW, { action: 'set-current-view-version', 'view-version-id': 2 });
  t.equal(changed, false);
  t.equal(metadata.versionLog.length, 2);
});

t.test('only the last change of the current version in a commit is logged (Java keeps one history entry)', async (t) => {
  const { metadata } = apply(
    VIEW,
    { action: 'set-properties', updates: { 'replace.drop-dialect.allowed': 'true' } },
    { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO, { 'timestamp-ms': 111 }) },
    { action: 'set-current-view-version', 'view-version-id': -1 },
    { action: 'set-current-view-version', 'view-version-id': 1 },
  );
  t.equal(metadata.currentVersionId, 1);
  t.same(log(metadata).slice(2), [[1, NOW]]);
});

t.test('versions beyond version.history.num-entries are expired, the current one always kept', async (t) => {
  const base = parseViewMetadata(VIEW);
  const { metadata } = applyViewUpdates(
    stored({ ...base, properties: { 'version.history.num-entries': '2' } }),
    updates({ action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO, { 'timestamp-ms': 333 }) }, { action: 'set-current-view-version', 'view-version-id': -1 }),
    fixedClock(),
  );
  t.same(ids(metadata), [3, 2], 'the current version first, then the highest ids (Java expireVersions)');
  t.same(log(metadata), [
    [2, 1700000100000],
    [3, 333],
  ], 'the log is cleared up to the last entry of an expired version');
});

t.test('an old current version is kept beside the highest ids, and the log is cleared past expired versions', async (t) => {
  const base = manyVersions(4, 1, [1, 2, 3, 4, 1], { 'version.history.num-entries': '2' });
  const { metadata, changed } = applyViewUpdates(stored(base), updates({ action: 'set-properties', updates: { x: 'y' } }), fixedClock());
  t.equal(changed, true);
  t.same(ids(metadata), [1, 4]);
  t.same(metadata.versionLog.map((e) => e.versionId), [4, 1]);
});

t.test('the default history keeps 10 versions', async (t) => {
  const base = manyVersions(10, 10, [10]);
  const { metadata } = applyViewUpdates(
    stored(base),
    updates({ action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO) }, { action: 'set-current-view-version', 'view-version-id': -1 }),
    fixedClock(),
  );
  t.same(ids(metadata), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  t.same(metadata.versionLog.map((e) => e.versionId), [10, 11]);
});

t.test('the versions added in a commit are kept even beyond the history size', async (t) => {
  const base = manyVersions(3, 3, [3], { 'version.history.num-entries': '1' });
  const { metadata } = applyViewUpdates(
    stored(base),
    updates(
      { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO) },
      { action: 'add-view-version', 'view-version': versionJson({ spark: 'SELECT 5', trino: 'SELECT 5' }) },
      { action: 'set-current-view-version', 'view-version-id': -1 },
    ),
    fixedClock(),
  );
  t.same(ids(metadata), [5, 4]);
  t.same(metadata.versionLog.map((e) => e.versionId), [5]);
});

t.test('a history size that is not a positive int is ILLEGAL_ARGUMENT', async (t) => {
  for (const size of ['0', '-1', 'ten', '1.5', ' 3', '99999999999']) {
    t.throws(() => apply(VIEW, { action: 'set-properties', updates: { 'version.history.num-entries': size } }), { code: 'ILLEGAL_ARGUMENT' }, size);
  }
  t.equal(apply(VIEW, { action: 'set-properties', updates: { 'version.history.num-entries': '+1' } }).metadata.versions.length, 1, '+1 is an int to Java');
});

t.test('assign-uuid keeps the same UUID and refuses another', async (t) => {
  t.equal(apply(VIEW, { action: 'assign-uuid', uuid: 'fa6506c3-7681-40c8-86dc-e36561f83385' }).changed, false);
  t.throws(() => apply(VIEW, { action: 'assign-uuid', uuid: 'b0b0b0b0-0000-0000-0000-000000000000' }), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(VIEW, { action: 'assign-uuid', uuid: 'FA6506C3-7681-40C8-86DC-E36561F83385' }), { code: 'ILLEGAL_ARGUMENT' }, 'compared exactly');
});

t.test('upgrade-format-version: the same version is no change, a lower or unsupported one is refused', async (t) => {
  t.equal(apply(VIEW, { action: 'upgrade-format-version', 'format-version': 1 }).changed, false);
  t.throws(() => apply(VIEW, { action: 'upgrade-format-version', 'format-version': 0 }), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(VIEW, { action: 'upgrade-format-version', 'format-version': 2 }), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('set-location changes only when the location differs', async (t) => {
  t.equal(apply(VIEW, { action: 'set-location', location: 's3://bucket/views/event_counts' }).changed, false);
  const moved = apply(VIEW, { action: 'set-location', location: 's3://other/v' });
  t.equal(moved.changed, true);
  t.equal(moved.metadata.location, 's3://other/v');
});

t.test('set-properties and remove-properties are changes unless empty, as Java records them', async (t) => {
  const set = apply(VIEW, { action: 'set-properties', updates: { owner: 'analytics', tier: 'gold' } });
  t.equal(set.changed, true);
  t.same(set.metadata.properties, { comment: 'counts per day', owner: 'analytics', tier: 'gold' });
  t.equal(apply(VIEW, { action: 'set-properties', updates: { owner: 'analytics' } }).changed, true, 'even a value already set');
  t.equal(apply(VIEW, { action: 'set-properties', updates: {} }).changed, false);
  const removed = apply(VIEW, { action: 'remove-properties', removals: ['owner', 'absent'] });
  t.equal(removed.changed, true);
  t.same(removed.metadata.properties, { comment: 'counts per day' });
  t.equal(apply(VIEW, { action: 'remove-properties', removals: ['absent'] }).changed, true, 'even a key not there');
  t.equal(apply(VIEW, { action: 'remove-properties', removals: [] }).changed, false);
});

t.test('unknown top-level keys and unknown representations of the base are kept', async (t) => {
  const { metadata } = apply(VIEW_LIBERAL, { action: 'set-properties', updates: { a: 'b' } });
  t.same(metadata.extra, { 'x-vendor': { kept: true } });
  t.equal(currentViewVersion(metadata).representations[2]?.kind, 'other');
});

t.test('a view built from no base: uuid from the clock unless assigned', async (t) => {
  const build = [
    { action: 'set-location', location: 's3://b/v' },
    { action: 'add-schema', schema: schemaJson(['a'], { 'schema-id': 3 }) },
    { action: 'add-view-version', 'view-version': versionJson('SELECT a', { 'schema-id': -1, 'timestamp-ms': 77 }) },
    { action: 'set-current-view-version', 'view-version-id': -1 },
  ];
  const fresh = applyViewUpdates(undefined, updates(...build), fixedClock());
  t.equal(fresh.changed, true);
  t.equal(fresh.metadata.viewUuid, 'uuid-1');
  t.same(fresh.metadata.schemas.map((s) => s.schemaId), [0]);
  t.same(ids(fresh.metadata), [1]);
  t.same(log(fresh.metadata), [[1, 77]]);
  const assigned = applyViewUpdates(undefined, updates({ action: 'assign-uuid', uuid: 'mine' }, ...build), fixedClock());
  t.equal(assigned.metadata.viewUuid, 'mine');
  t.throws(() => applyViewUpdates(undefined, updates(...build.slice(1)), fixedClock()), { code: 'ILLEGAL_ARGUMENT' }, 'a view needs a location');
  t.throws(() => applyViewUpdates(undefined, updates(...build.slice(0, 2)), fixedClock()), { code: 'ILLEGAL_ARGUMENT' }, 'a view needs a version');
  t.throws(() => applyViewUpdates(undefined, updates(...build.slice(0, 3)), fixedClock()), { code: 'ILLEGAL_ARGUMENT' }, 'a view needs a current version');
});

t.test('the result writes and reads back as the same view metadata', async (t) => {
  const { metadata } = apply(
    VIEW,
    { action: 'add-schema', schema: schemaJson(['day', 'events', 'users']) },
    { action: 'add-view-version', 'view-version': versionJson(SPARK_AND_TRINO, { 'schema-id': -1 }) },
    { action: 'set-current-view-version', 'view-version-id': -1 },
  );
  const once = stringifyJson(viewMetadataToJson(metadata));
  t.equal(stringifyJson(viewMetadataToJson(parseViewMetadata(once))), once);
});
