import t from 'tap';
import { parseTableMetadata } from '../../src/iceberg/index.js';
import { NOW, REAL, REAL_FIXTURES_SKIP, apply, fixedClock, realFixturesAvailable, realVersion, smallV2 } from '../helpers/commit-bases.js';

const skipReal = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;
const touch = '[{"action": "set-properties", "updates": {"touched": "yes"}}]';

t.test('the metadata log keeps write.metadata.previous-versions-max entries, the newest last', async (t) => {
  const base = smallV2((j) => {
    j['properties'] = { 'write.metadata.previous-versions-max': '2' };
  });
  const { metadata } = apply(base, touch);
  t.same(
    metadata.metadataLog.map((e) => e.metadataFile),
    ['s3://bucket/db/t/metadata/00001-b.metadata.json', 's3://bucket/db/t/metadata/00002-c.metadata.json'],
  );
  const lowered = apply(smallV2(), '[{"action": "set-properties", "updates": {"write.metadata.previous-versions-max": "1"}}]').metadata;
  t.same(lowered.metadataLog.map((e) => e.metadataFile), ['s3://bucket/db/t/metadata/00002-c.metadata.json'], 'the new properties count');
});

t.test('a previous-versions-max below 1 keeps one entry; one that is not an int is refused', async (t) => {
  const zero = apply(smallV2(), '[{"action": "set-properties", "updates": {"write.metadata.previous-versions-max": "0"}}]').metadata;
  t.equal(zero.metadataLog.length, 1);
  t.throws(() => apply(smallV2(), '[{"action": "set-properties", "updates": {"write.metadata.previous-versions-max": "ten"}}]'), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('a log already at the default 100 entries drops its oldest', { skip: skipReal }, async (t) => {
  const base = realVersion(REAL.manySnapshots);
  t.equal(base.metadata.metadataLog.length, 100);
  const { metadata } = apply(base, touch);
  t.equal(metadata.metadataLog.length, 100);
  t.same(metadata.metadataLog[0], base.metadata.metadataLog[1]);
  t.same(metadata.metadataLog.at(-1), { timestampMs: base.metadata.lastUpdatedMs, metadataFile: base.metadataLocation });
});

t.test('a commit time more than a minute before the last log entry is refused, as Java refuses it', async (t) => {
  t.throws(() => apply(smallV2(), touch, fixedClock(1700000002000 - 61_000)), { code: 'ILLEGAL_ARGUMENT' });
  t.doesNotThrow(() => apply(smallV2(), touch, fixedClock(1700000002000 - 59_000)), 'a minute of clock skew is tolerated');
});

t.test('keys Java does not know are not written again', async (t) => {
  const base = smallV2((j) => {
    j['x-vendor'] = { keep: true };
    (j['snapshots'] as Array<Record<string, unknown>>)[0]!['x-snap'] = 1;
  });
  t.same(base.metadata.extra, { 'x-vendor': { keep: true } });
  const { metadata } = apply(base, touch);
  t.same(metadata.extra, {});
  t.same(metadata.snapshots[0]!.extra, {});
});

t.test('next-row-id is kept only from v3 on', async (t) => {
  const base = smallV2((j) => {
    j['next-row-id'] = 12;
  });
  t.equal(base.metadata.nextRowId, 12n);
  t.equal(apply(base, touch).metadata.nextRowId, undefined);
});

t.test('stored metadata whose refs name missing snapshots cannot be committed to', async (t) => {
  const json = JSON.parse(`{"format-version": 2, "table-uuid": "u", "location": "s3://b/t", "last-sequence-number": 0, "last-updated-ms": 1,
    "last-column-id": 1, "current-schema-id": 0, "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "a", "required": false, "type": "int"}]}],
    "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}], "last-partition-id": 999, "default-sort-order-id": 0,
    "sort-orders": [{"order-id": 0, "fields": []}], "properties": {}, "refs": {"tag": {"snapshot-id": 5, "type": "tag"}}, "snapshots": []}`) as Record<string, unknown>;
  const base = { metadata: parseTableMetadata(json), metadataLocation: 's3://b/t/metadata/00000-a.metadata.json' };
  t.throws(() => apply(base, touch), { code: 'ILLEGAL_ARGUMENT' });
  t.equal(apply(base, '[]').changed, false, 'nothing to commit: nothing checked');
});

t.test('last-updated-ms comes from the clock once per commit', async (t) => {
  let calls = 0;
  const clock = { now: () => ++calls && NOW, newUuid: () => 'u' };
  const { metadata } = apply(
    smallV2(),
    '[{"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": 1, "type": "branch"}, {"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": 2, "type": "branch"}]',
    clock,
  );
  t.equal(calls, 1);
  t.same(metadata.snapshotLog.slice(-2), [
    { timestampMs: NOW, snapshotId: 1n },
    { timestampMs: NOW, snapshotId: 2n },
  ]);
});
