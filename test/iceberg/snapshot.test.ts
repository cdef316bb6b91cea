import t from 'tap';
import { parseSnapshot, parseSnapshotRef, parseSortOrder, snapshotRefToJson, snapshotToJson, sortOrderToJson } from '../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../src/json/index.js';

t.test('a v2 snapshot keeps exact 64-bit ids and writes back in Java key order', async (t) => {
  const text =
    '{"sequence-number":7,"snapshot-id":9158179788527662767,"parent-snapshot-id":2701171901096418979,"timestamp-ms":1700000000000,' +
    '"summary":{"operation":"append","added-data-files":"1"},"manifest-list":"s3://b/t/metadata/snap-1.avro","schema-id":2}';
  const s = parseSnapshot(parseJson(text));
  t.equal(s.snapshotId, 9158179788527662767n);
  t.equal(s.parentSnapshotId, 2701171901096418979n);
  t.equal(s.sequenceNumber, 7n);
  t.equal(s.timestampMs, 1700000000000);
  t.same(s.summary, { operation: 'append', 'added-data-files': '1' });
  t.equal(s.schemaId, 2);
  t.equal(stringifyJson(snapshotToJson(s)), text);
});

t.test('a v1 snapshot without sequence number or summary, with inline manifests, round-trips', async (t) => {
  const s = parseSnapshot({ 'snapshot-id': 5, 'timestamp-ms': 10, manifests: ['a.avro', 'b.avro'] });
  t.equal(s.sequenceNumber, 0n);
  t.same(s.summary, {});
  t.same(s.manifests, ['a.avro', 'b.avro']);
  t.equal(s.manifestList, undefined);
  t.equal(stringifyJson(snapshotToJson(s)), '{"snapshot-id":5,"timestamp-ms":10,"manifests":["a.avro","b.avro"]}');
});

t.test('summary operation is written first even when the source had it later', async (t) => {
  const s = parseSnapshot({ 'snapshot-id': 1, 'timestamp-ms': 1, 'manifest-list': 'l', summary: { 'total-records': '3', operation: 'overwrite' } });
  t.equal(stringifyJson((snapshotToJson(s) as { summary: unknown }).summary), '{"operation":"overwrite","total-records":"3"}');
});

t.test('v3 row lineage fields, key id and unknown keys survive a round trip', async (t) => {
  const text =
    '{"sequence-number":3,"snapshot-id":1,"timestamp-ms":1,"summary":{"operation":"append"},"manifest-list":"l","schema-id":0,' +
    '"first-row-id":9007199254740993,"added-rows":10,"key-id":"k1","x-vendor":{"a":[1,2.50]}}';
  const s = parseSnapshot(parseJson(text));
  t.equal(s.firstRowId, 9007199254740993n);
  t.equal(s.addedRows, 10n);
  t.equal(s.keyId, 'k1');
  t.same(Object.keys(s.extra), ['x-vendor']);
  t.equal(stringifyJson(snapshotToJson(s)), text);
});

t.test('a snapshot without a manifest list or manifests is rejected naming the field', async (t) => {
  t.throws(() => parseSnapshot({ 'snapshot-id': 1, 'timestamp-ms': 1 }, 'snapshots[3]'), {
    code: 'INVALID_METADATA',
    message: /snapshots\[3\]\.manifest-list/,
  });
  t.throws(() => parseSnapshot({ 'timestamp-ms': 1, 'manifest-list': 'l' }, 'snapshots[0]'), {
    code: 'INVALID_METADATA',
    message: /snapshots\[0\]\.snapshot-id/,
  });
  t.throws(() => parseSnapshot({ 'snapshot-id': 1.5, 'timestamp-ms': 1, 'manifest-list': 'l' }), {
    code: 'INVALID_METADATA',
    message: /snapshot-id/,
  });
});

t.test('non-string summary values from liberal writers are read as their text', async (t) => {
  const s = parseSnapshot(parseJson('{"snapshot-id":1,"timestamp-ms":1,"manifest-list":"l","summary":{"operation":"append","added-records":5,"flag":true}}'));
  t.same(s.summary, { operation: 'append', 'added-records': '5', flag: 'true' });
});

t.test('refs keep their type and retention settings', async (t) => {
  const text = '{"snapshot-id":9158179788527662767,"type":"tag","max-ref-age-ms":9223372036854775807}';
  const tag = parseSnapshotRef(parseJson(text));
  t.same(tag, { snapshotId: 9158179788527662767n, type: 'tag', maxRefAgeMs: 9223372036854775807n });
  t.equal(stringifyJson(snapshotRefToJson(tag)), text);
  const branch = parseSnapshotRef({ 'snapshot-id': 1, type: 'BRANCH', 'min-snapshots-to-keep': 2, 'max-snapshot-age-ms': 1000 });
  t.same(branch, { snapshotId: 1n, type: 'branch', minSnapshotsToKeep: 2, maxSnapshotAgeMs: 1000n });
  t.throws(() => parseSnapshotRef({ 'snapshot-id': 1, type: 'pointer' }, 'refs.x'), { code: 'INVALID_METADATA', message: /refs\.x\.type/ });
});

t.test('sort orders read directions and null orders case-insensitively and write them lower-case', async (t) => {
  const order = parseSortOrder({
    'order-id': 1,
    fields: [
      { transform: 'identity', 'source-id': 2, direction: 'DESC', 'null-order': 'NULLS-LAST' },
      { transform: 'bucket[4]', 'source-id': 1, direction: 'asc', 'null-order': 'nulls-first' },
    ],
  });
  t.equal(
    stringifyJson(sortOrderToJson(order)),
    '{"order-id":1,"fields":[{"transform":"identity","source-id":2,"direction":"desc","null-order":"nulls-last"},' +
      '{"transform":"bucket[4]","source-id":1,"direction":"asc","null-order":"nulls-first"}]}',
  );
  t.throws(() => parseSortOrder({ 'order-id': 1, fields: [{ transform: 'identity', 'source-id': 2, direction: 'up', 'null-order': 'nulls-last' }] }), {
    code: 'INVALID_METADATA',
    message: /fields\[0\]\.direction/,
  });
});
