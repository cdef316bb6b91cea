import t from 'tap';
import { applyUpdates, type TableVersion } from '../../src/commits/index.js';
import { tableMetadataToJson } from '../../src/iceberg/index.js';
import { NOW, REAL, REAL_FIXTURES_SKIP, apply, fixedClock, realFixturesAvailable, realVersion, roundTrip, smallV2, updates } from '../helpers/commit-bases.js';

const skipReal = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

function snapshot(id: number | bigint, seq: number | bigint, parent: number | bigint | undefined, ts: number, extra = ''): string {
  const p = parent === undefined ? '' : `"parent-snapshot-id": ${parent}, `;
  return `{"action": "add-snapshot", "snapshot": {"sequence-number": ${seq}, "snapshot-id": ${id}, ${p}"timestamp-ms": ${ts}, "manifest-list": "s3://bucket/db/t/metadata/snap-${id}.avro", "summary": {"operation": "append"}${extra}}}`;
}
const main = (id: number | bigint) => `{"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": ${id}, "type": "branch"}`;
const stored = (metadata: TableVersion['metadata']): TableVersion => ({ metadata, metadataLocation: 's3://bucket/db/t/metadata/00003-d.metadata.json' });

t.test('add-snapshot then set main: the snapshot is current, logged at its own timestamp', async (t) => {
  const { metadata } = apply(smallV2(), `[${snapshot(3, 3, 2, 1700000003000)}, ${main(3)}]`);
  t.equal(metadata.currentSnapshotId, 3n);
  t.equal(metadata.lastSequenceNumber, 3n);
  t.same(metadata.refs['main'], { snapshotId: 3n, type: 'branch' });
  t.same(metadata.snapshotLog.at(-1), { timestampMs: 1700000003000, snapshotId: 3n });
  t.equal(metadata.lastUpdatedMs, NOW, 'last-updated-ms is the time of the commit, not the snapshot');
  t.same(roundTrip(metadata), metadata);
});

t.test('a snapshot added without a ref changes neither the current snapshot nor the log', async (t) => {
  const { metadata } = apply(smallV2(), `[${snapshot(3, 3, 2, 1700000003000)}]`);
  t.equal(metadata.currentSnapshotId, 2n);
  t.equal(metadata.snapshots.length, 3);
  t.equal(metadata.snapshotLog.length, 2);
});

t.test('a v2 snapshot must be newer than the table\'s last sequence number', async (t) => {
  t.throws(() => apply(smallV2(), `[${snapshot(3, 2, 2, 1700000003000)}]`), { code: 'COMMIT_FAILED' }, 'stale: the client retries with fresh metadata');
  t.throws(() => applyUpdates(smallV2(), updates(`[${snapshot(3, 2, 2, 1700000003000)}]`), fixedClock(), { staleAs: 'VALIDATION_FAILED' }), { code: 'VALIDATION_FAILED' });
  t.doesNotThrow(() => apply(smallV2(), `[${snapshot(3, 2, undefined, 1700000003000)}]`), 'a snapshot without parent is exempt (Java)');
  // Java then takes the snapshot's sequence number as the table's: older snapshots above it fail validation
  t.throws(() => apply(smallV2(), `[${snapshot(3, 0, undefined, 1700000003000)}]`), { code: 'VALIDATION_FAILED' });
});

t.test('in a v1 table sequence numbers are not checked', { skip: skipReal }, async (t) => {
  const v1 = realVersion(REAL.v1);
  const { metadata } = apply(v1, `[${snapshot(11, 0, 6788296308394418127n, 1700000003000)}, ${main(11)}]`);
  t.equal(metadata.currentSnapshotId, 11n);
  t.equal(metadata.lastSequenceNumber, 0n);
  t.same(roundTrip(metadata), metadata);
});

t.test('a snapshot id already in the table is refused', async (t) => {
  t.throws(() => apply(smallV2(), `[${snapshot(2, 3, 1, 1700000003000)}]`), { code: 'VALIDATION_FAILED' });
});

t.test('v3 row lineage: first-row-id is required, never behind next-row-id, and next-row-id moves past added rows', { skip: skipReal }, async (t) => {
  const v3 = realVersion(REAL.v3);
  t.equal(v3.metadata.nextRowId, 6n);
  const { metadata } = apply(v3, `[${snapshot(9, 5, 5398841822738664432n, 1771415400000, ', "first-row-id": 6, "added-rows": 4')}, ${main(9)}]`);
  t.equal(metadata.nextRowId, 10n);
  t.same(roundTrip(metadata), metadata);
  t.throws(() => apply(v3, `[${snapshot(9, 5, 5398841822738664432n, 1771415400000)}]`), { code: 'VALIDATION_FAILED' }, 'no first-row-id');
  t.throws(() => apply(v3, `[${snapshot(9, 5, 5398841822738664432n, 1771415400000, ', "first-row-id": 5, "added-rows": 4')}]`), { code: 'COMMIT_FAILED' }, 'behind');
  const ahead = apply(v3, `[${snapshot(9, 5, 5398841822738664432n, 1771415400000, ', "first-row-id": 20, "added-rows": 4')}]`).metadata;
  t.equal(ahead.nextRowId, 10n, 'Java adds the rows to next-row-id, not to first-row-id');
});

t.test('two snapshots set as main in one change: the intermediate one leaves the snapshot log', async (t) => {
  const { metadata } = apply(smallV2(), `[${snapshot(3, 3, 2, 1700000003000)}, ${main(3)}, ${snapshot(4, 4, 3, 1700000004000)}, ${main(4)}]`);
  t.same(
    metadata.snapshotLog.map((e) => e.snapshotId),
    [1n, 2n, 4n],
  );
  t.equal(metadata.currentSnapshotId, 4n);
});

t.test('a rollback (main set to an older snapshot) is logged at the time of the change', async (t) => {
  const { metadata } = apply(smallV2(), `[${main(1)}]`, fixedClock(1800000000000));
  t.equal(metadata.currentSnapshotId, 1n);
  t.same(metadata.snapshotLog.at(-1), { timestampMs: 1800000000000, snapshotId: 1n });
  t.equal(metadata.lastUpdatedMs, 1800000000000);
});

t.test('branches and tags other than main leave the current snapshot alone', async (t) => {
  const { metadata } = apply(
    smallV2(),
    `[{"action": "set-snapshot-ref", "ref-name": "dev", "snapshot-id": 1, "type": "branch", "min-snapshots-to-keep": 3, "max-snapshot-age-ms": 1000},
      {"action": "set-snapshot-ref", "ref-name": "v1", "snapshot-id": 1, "type": "tag", "max-ref-age-ms": 5000}]`,
  );
  t.equal(metadata.currentSnapshotId, 2n);
  t.same(metadata.refs['dev'], { snapshotId: 1n, type: 'branch', minSnapshotsToKeep: 3, maxSnapshotAgeMs: 1000n });
  t.same(metadata.refs['v1'], { snapshotId: 1n, type: 'tag', maxRefAgeMs: 5000n });
  t.equal(metadata.snapshotLog.length, 2);
  t.same(roundTrip(metadata), metadata);
});

t.test('set-snapshot-ref refusals: unknown snapshot, retention a tag cannot have, non-positive retention', async (t) => {
  t.throws(() => apply(smallV2(), `[${main(99)}]`), { code: 'VALIDATION_FAILED' });
  const ref = (extra: string, type = 'tag') => `[{"action": "set-snapshot-ref", "ref-name": "r", "snapshot-id": 1, "type": "${type}"${extra}}]`;
  t.throws(() => apply(smallV2(), ref(', "min-snapshots-to-keep": 1')), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(smallV2(), ref(', "max-snapshot-age-ms": 1')), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(smallV2(), ref(', "min-snapshots-to-keep": 0', 'branch')), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(smallV2(), ref(', "max-snapshot-age-ms": 0', 'branch')), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(smallV2(), ref(', "max-ref-age-ms": -1')), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('setting a ref to what it already is changes nothing; other retention is a change', async (t) => {
  t.equal(apply(smallV2(), `[${main(2)}]`).changed, false);
  const retained = apply(smallV2(), '[{"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": 2, "type": "branch", "max-ref-age-ms": 10}]');
  t.equal(retained.changed, true);
  t.same(retained.metadata.snapshotLog.map((e) => e.snapshotId), [1n, 2n, 2n], 'Java logs main again');
});

t.test('remove-snapshot-ref of main leaves the table without a current snapshot', async (t) => {
  const { metadata } = apply(smallV2(), '[{"action": "remove-snapshot-ref", "ref-name": "main"}]');
  t.equal(metadata.currentSnapshotId, undefined);
  t.same(metadata.refs, {});
  t.equal((tableMetadataToJson(metadata) as Record<string, unknown>)['current-snapshot-id'], -1);
  t.same(roundTrip(metadata), metadata);
});

t.test('remove-snapshots drops the refs and statistics that pointed at them', { skip: skipReal }, async (t) => {
  const base = realVersion(REAL.v2Refs);
  const { metadata } = apply(base, '[{"action": "remove-snapshots", "snapshot-ids": [293191470325800019, 1638951453256129678]}]');
  t.same(metadata.snapshots.map((s) => s.snapshotId), [5231658854638766100n, 7558608030923099867n, 154324552338474173n]);
  t.same(Object.keys(metadata.refs).sort(), ['main', 'test-branch'], 'the tag on a removed snapshot is gone');
  // a log entry for a removed snapshot drops the history before it
  t.same(metadata.snapshotLog.map((e) => e.snapshotId), [154324552338474173n]);
  t.same(roundTrip(metadata), metadata);

  const stats = realVersion(REAL.v2Specs);
  const pruned = apply(stats, '[{"action": "remove-snapshots", "snapshot-ids": [6593870062034330780]}]').metadata;
  t.same(pruned.statistics.map((s) => s.snapshotId), [240252726469419150n]);
});

t.test('removing more snapshot ids than the table has snapshots fails as it does in Java', async (t) => {
  t.throws(() => apply(smallV2(), '[{"action": "remove-snapshots", "snapshot-ids": [7, 8, 9]}]'), { code: 'ILLEGAL_ARGUMENT' });
  t.equal(apply(smallV2(), '[{"action": "remove-snapshots", "snapshot-ids": [8, 9]}]').changed, false, 'ids not in the table are ignored');
});

t.test('removing the current snapshot removes main and the current snapshot', async (t) => {
  const { metadata } = apply(smallV2(), '[{"action": "remove-snapshots", "snapshot-ids": [2]}]');
  t.equal(metadata.currentSnapshotId, undefined);
  t.same(metadata.refs, {});
  t.same(metadata.snapshotLog, [], 'the entry of the removed snapshot drops the history before it');
});

t.test('removing the oldest snapshot keeps the later history', async (t) => {
  const { metadata } = apply(smallV2(), '[{"action": "remove-snapshots", "snapshot-ids": [1]}]');
  t.same(metadata.snapshotLog.map((e) => e.snapshotId), [2n]);
  t.equal(metadata.currentSnapshotId, 2n);
});

t.test('a snapshot log that does not end with the current snapshot is refused once it is rewritten', async (t) => {
  const base = smallV2((j) => {
    j['snapshot-log'] = [{ 'timestamp-ms': 1700000001000, 'snapshot-id': 1 }];
  });
  t.throws(() => apply(base, '[{"action": "remove-snapshots", "snapshot-ids": [1]}]'), { code: 'VALIDATION_FAILED' });
});

t.test('statistics: set replaces a snapshot\'s file, remove drops it, and partition statistics alike', async (t) => {
  const file = (id: number, p: string) =>
    `{"action": "set-statistics", "statistics": {"snapshot-id": ${id}, "statistics-path": "${p}", "file-size-in-bytes": 10, "file-footer-size-in-bytes": 4, "blob-metadata": [{"type": "apache-datasketches-theta-v1", "snapshot-id": ${id}, "sequence-number": ${id}, "fields": [1]}]}}`;
  const set = apply(smallV2(), `[${file(1, 'a.puffin')}, ${file(2, 'b.puffin')}, ${file(1, 'c.puffin')}]`).metadata;
  t.same(set.statistics.map((s) => [s.snapshotId, s.statisticsPath]), [[1n, 'c.puffin'], [2n, 'b.puffin']]);
  t.same(roundTrip(set), set);
  const removed = apply(stored(set), '[{"action": "remove-statistics", "snapshot-id": 1}]');
  t.same(removed.metadata.statistics.map((s) => s.snapshotId), [2n]);
  t.equal(apply(stored(set), '[{"action": "remove-statistics", "snapshot-id": 7}]').changed, false);

  const part = apply(smallV2(), '[{"action": "set-partition-statistics", "partition-statistics": {"snapshot-id": 2, "statistics-path": "p.parquet", "file-size-in-bytes": 9}}]').metadata;
  t.same(part.partitionStatistics, [{ snapshotId: 2n, statisticsPath: 'p.parquet', fileSizeInBytes: 9n }]);
  t.same(apply(stored(part), '[{"action": "remove-partition-statistics", "snapshot-id": 2}]').metadata.partitionStatistics, []);
  t.equal(apply(stored(part), '[{"action": "remove-partition-statistics", "snapshot-id": 1}]').changed, false);
});

t.test('a snapshot with a timestamp far after the commit time is refused (Java allows a minute of skew)', async (t) => {
  t.throws(() => apply(smallV2(), `[${snapshot(3, 3, 2, NOW + 120_000)}, ${main(3)}]`), { code: 'ILLEGAL_ARGUMENT' });
  t.doesNotThrow(() => apply(smallV2(), `[${snapshot(3, 3, 2, NOW + 30_000)}, ${main(3)}]`));
});
