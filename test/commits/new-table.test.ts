import t from 'tap';
import { newTableMetadata, parseCreateTableRequest, type CreateTableRequest } from '../../src/commits/index.js';
import { parseJson } from '../../src/json/index.js';
import { NOW, fixedClock, roundTrip } from '../helpers/commit-bases.js';

// a client's schema with ids of its own, nested types, and an identifier field
const REQUEST = `{
  "name": "events",
  "schema": {"type": "struct", "schema-id": 7, "identifier-field-ids": [10], "fields": [
    {"id": 10, "name": "id", "required": true, "type": "long"},
    {"id": 20, "name": "loc", "required": false, "type": {"type": "struct", "fields": [
      {"id": 21, "name": "lat", "required": false, "type": "double"},
      {"id": 22, "name": "lon", "required": false, "type": "double"}]}},
    {"id": 30, "name": "tags", "required": false, "type": {"type": "map", "key-id": 31, "key": "string", "value-id": 32, "value-required": false,
      "value": {"type": "list", "element-id": 33, "element-required": true, "element": "string"}}},
    {"id": 40, "name": "ts", "required": false, "type": "timestamptz"}]},
  "partition-spec": {"spec-id": 3, "fields": [
    {"name": "ts_day", "transform": "day", "source-id": 40, "field-id": 1500},
    {"name": "id_bucket", "transform": "bucket[16]", "source-id": 10, "field-id": 1501}]},
  "write-order": {"order-id": 4, "fields": [{"transform": "identity", "source-id": 21, "direction": "desc", "null-order": "nulls-last"}]},
  "properties": {"owner": "ana", "format-version": "2", "uuid": "ignored", "current-snapshot-id": "1"}
}`;

const request = (json = REQUEST, edit?: (o: Record<string, unknown>) => void): CreateTableRequest => {
  const body = parseJson(json) as Record<string, unknown>;
  edit?.(body);
  return parseCreateTableRequest(body);
};

t.test('a new table gets fresh column ids, a rebuilt spec and sort order, and no reserved properties', async (t) => {
  const clock = fixedClock();
  const m = newTableMetadata(request(), 's3://bucket/db/events/', clock);
  t.equal(m.formatVersion, 2);
  t.equal(m.tableUuid, clock.uuids[0]);
  t.equal(m.location, 's3://bucket/db/events');
  t.equal(m.lastUpdatedMs, NOW);
  t.equal(m.lastSequenceNumber, 0n);
  const schema = m.schemas[0]!;
  t.equal(schema.schemaId, 0);
  // Java AssignFreshIds: a struct's fields first, then each field's children in order
  t.same(
    [schema.findFieldByName('id')?.id, schema.findFieldByName('loc')?.id, schema.findFieldByName('tags')?.id, schema.findFieldByName('ts')?.id],
    [1, 2, 3, 4],
  );
  t.same([schema.findFieldByName('loc.lat')?.id, schema.findFieldByName('loc.lon')?.id], [5, 6]);
  t.same([schema.findFieldByName('tags.key')?.id, schema.findFieldByName('tags.value')?.id, schema.findFieldByName('tags.value.element')?.id], [7, 8, 9]);
  t.same(schema.identifierFieldIds, [1]);
  t.equal(m.lastColumnId, 9);
  t.same(m.partitionSpecs, [
    {
      specId: 0,
      fields: [
        { sourceId: 4, fieldId: 1000, name: 'ts_day', transform: 'day' },
        { sourceId: 1, fieldId: 1001, name: 'id_bucket', transform: 'bucket[16]' },
      ],
    },
  ]);
  t.equal(m.lastPartitionId, 1001);
  t.same(m.sortOrders, [{ orderId: 1, fields: [{ transform: 'identity', sourceId: 5, direction: 'desc', nullOrder: 'nulls-last' }] }]);
  t.equal(m.defaultSortOrderId, 1);
  t.same(m.properties, { 'write.parquet.compression-codec': 'zstd', owner: 'ana' });
  t.same(m.snapshots, []);
  t.same(m.snapshotLog, []);
  t.same(m.metadataLog, []);
  t.same(roundTrip(m), m);
});

t.test('an unpartitioned, unsorted table: spec 0 without fields, order 0, last-partition-id 999', async (t) => {
  const m = newTableMetadata(
    request(REQUEST, (o) => {
      delete o['partition-spec'];
      delete o['write-order'];
    }),
    's3://b/t',
    fixedClock(),
  );
  t.same(m.partitionSpecs, [{ specId: 0, fields: [] }]);
  t.equal(m.lastPartitionId, 999);
  t.same(m.sortOrders, [{ orderId: 0, fields: [] }]);
  t.equal(m.defaultSortOrderId, 0);
});

t.test('the format version comes from the format-version property (default 2)', async (t) => {
  const at = (v: string | undefined) =>
    newTableMetadata(
      request(REQUEST, (o) => {
        const props = o['properties'] as Record<string, string>;
        if (v === undefined) delete props['format-version'];
        else props['format-version'] = v;
      }),
      's3://b/t',
      fixedClock(),
    );
  t.equal(at(undefined).formatVersion, 2);
  t.equal(at('1').formatVersion, 1);
  const v3 = at('3');
  t.equal(v3.formatVersion, 3);
  t.equal(v3.nextRowId, 0n);
  t.same(roundTrip(v3), v3);
  t.throws(() => at('4'), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => at('two'), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('a client may override the zstd default', async (t) => {
  const m = newTableMetadata(request('{"name": "t", "schema": {"type": "struct", "fields": []}, "properties": {"write.parquet.compression-codec": "snappy"}}'), 's3://b/t', fixedClock());
  t.same(m.properties, { 'write.parquet.compression-codec': 'snappy' });
  t.equal(m.lastColumnId, 0);
});

t.test('v3 types need format-version 3', async (t) => {
  const body = '{"name": "t", "schema": {"type": "struct", "fields": [{"id": 1, "name": "v", "required": false, "type": "variant"}]}%}';
  t.throws(() => newTableMetadata(request(body.replace('%', '')), 's3://b/t', fixedClock()), { code: 'ILLEGAL_ARGUMENT' });
  t.doesNotThrow(() => newTableMetadata(request(body.replace('%', ', "properties": {"format-version": "3"}')), 's3://b/t', fixedClock()));
});

t.test('what Java checks of a new table\'s properties', async (t) => {
  const withProps = (props: Record<string, string>) =>
    newTableMetadata(
      request(REQUEST, (o) => {
        o['properties'] = props;
      }),
      's3://b/t',
      fixedClock(),
    );
  t.throws(() => withProps({ 'write.metadata.metrics.column.nope': 'full' }), { code: 'VALIDATION_FAILED' }, 'metrics for an unknown column');
  t.doesNotThrow(() => withProps({ 'write.metadata.metrics.column.loc.lat': 'full' }));
  t.throws(() => withProps({ 'commit.retry.num-retries': 'x' }), { code: 'VALIDATION_FAILED' });
  t.throws(() => withProps({ 'commit.retry.min-wait-ms': '-1' }), { code: 'VALIDATION_FAILED' });
  t.throws(() => withProps({ 'encryption.key-id': 'k' }), { code: 'ILLEGAL_ARGUMENT' }, 'encryption needs v3');
  t.doesNotThrow(() => withProps({ 'encryption.key-id': 'k', 'format-version': '3' }));
});

t.test('a spec or sort order that does not fit the schema is refused', async (t) => {
  const spec = (fields: string) =>
    newTableMetadata(
      request(REQUEST, (o) => {
        o['partition-spec'] = parseJson(`{"spec-id": 0, "fields": [${fields}]}`);
      }),
      's3://b/t',
      fixedClock(),
    );
  t.throws(() => spec('{"name": "x", "transform": "identity", "source-id": 99, "field-id": 1000}'), { code: 'VALIDATION_FAILED' });
  t.throws(() => spec('{"name": "x", "transform": "hour", "source-id": 10, "field-id": 1000}'), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => spec('{"name": "id", "transform": "day", "source-id": 40, "field-id": 1000}'), { code: 'ILLEGAL_ARGUMENT' }, "another column's name");
  t.doesNotThrow(() => spec('{"name": "ts", "transform": "day", "source-id": 40, "field-id": 1000}'), "its own column's name (Java checks only other columns)");
  t.throws(
    () =>
      newTableMetadata(
        request(REQUEST, (o) => {
          o['write-order'] = parseJson('{"order-id": 1, "fields": [{"transform": "identity", "source-id": 20, "direction": "asc", "null-order": "nulls-first"}]}');
        }),
        's3://b/t',
        fixedClock(),
      ),
    { code: 'VALIDATION_FAILED' },
    'sorting by a struct',
  );
});
