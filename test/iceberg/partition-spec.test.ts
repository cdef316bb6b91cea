import t from 'tap';
import { isUnpartitioned, parsePartitionFields, parsePartitionSpec, parseSchema, parseTransform, partitionSpecToJson, partitionType, transformResultType, type IcebergType } from '../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../src/json/index.js';

t.test('parseTransform recognises every spec transform, case-insensitively, keeping the text', async (t) => {
  t.same(parseTransform('identity'), { kind: 'identity', text: 'identity' });
  t.same(parseTransform('bucket[16]'), { kind: 'bucket', param: 16, text: 'bucket[16]' });
  t.same(parseTransform('truncate[4]'), { kind: 'truncate', param: 4, text: 'truncate[4]' });
  for (const k of ['year', 'month', 'day', 'hour', 'void'] as const) t.same(parseTransform(k), { kind: k, text: k });
  t.same(parseTransform('Bucket[ 8 ]'), { kind: 'bucket', param: 8, text: 'Bucket[ 8 ]' });
  t.same(parseTransform('DAY'), { kind: 'day', text: 'DAY' });
});

t.test('unrecognised transforms and non-positive widths are unknown, not errors', async (t) => {
  t.same(parseTransform('zorder'), { kind: 'unknown', text: 'zorder' });
  t.same(parseTransform('bucket[0]'), { kind: 'unknown', text: 'bucket[0]' });
  t.same(parseTransform('truncate[x]'), { kind: 'unknown', text: 'truncate[x]' });
  t.same(parseTransform('geohash[3]'), { kind: 'unknown', text: 'geohash[3]' });
});

t.test('transform result types follow the spec table', async (t) => {
  const ts: IcebergType = { kind: 'timestamptz' };
  const dec: IcebergType = { kind: 'decimal', precision: 9, scale: 2 };
  t.same(transformResultType(parseTransform('bucket[4]'), dec), { kind: 'int' });
  t.same(transformResultType(parseTransform('year'), ts), { kind: 'int' });
  t.same(transformResultType(parseTransform('month'), ts), { kind: 'int' });
  t.same(transformResultType(parseTransform('hour'), ts), { kind: 'int' });
  t.same(transformResultType(parseTransform('day'), ts), { kind: 'date' });
  t.same(transformResultType(parseTransform('identity'), dec), dec);
  t.same(transformResultType(parseTransform('truncate[10]'), dec), dec);
  t.same(transformResultType(parseTransform('void'), ts), ts);
  t.same(transformResultType(parseTransform('zorder'), ts), ts);
});

const SCHEMA = parseSchema({
  type: 'struct',
  fields: [
    { id: 1, name: 'id', required: true, type: 'long' },
    { id: 2, name: 'ts', required: false, type: 'timestamptz' },
    { id: 3, name: 'cat', required: false, type: 'string' },
  ],
});

t.test('a spec reads its fields and writes them back in Java key order', async (t) => {
  const text =
    '{"spec-id":1,"fields":[{"name":"ts_day","transform":"day","source-id":2,"field-id":1000},{"name":"id_bucket","transform":"bucket[16]","source-id":1,"field-id":1001}]}';
  const spec = parsePartitionSpec(parseJson(text));
  t.same(spec, {
    specId: 1,
    fields: [
      { sourceId: 2, fieldId: 1000, name: 'ts_day', transform: 'day' },
      { sourceId: 1, fieldId: 1001, name: 'id_bucket', transform: 'bucket[16]' },
    ],
  });
  t.equal(stringifyJson(partitionSpecToJson(spec)), text);
});

t.test('v1 field lists without field ids get ids from 1000 in order', async (t) => {
  const fields = parsePartitionFields([
    { name: 'cat', transform: 'identity', 'source-id': 3 },
    { name: 'ts_hour', transform: 'hour', 'source-id': 2 },
  ]);
  t.same(
    fields.map((f) => f.fieldId),
    [1000, 1001],
  );
});

t.test('v3 multi-argument source-ids are kept and the first id is the source id', async (t) => {
  const spec = parsePartitionSpec({
    'spec-id': 0,
    fields: [{ name: 'z', transform: 'zorder', 'source-ids': [2, 3], 'field-id': 1000 }],
  });
  t.same(spec.fields[0], { sourceId: 2, sourceIds: [2, 3], fieldId: 1000, name: 'z', transform: 'zorder' });
  t.equal(
    stringifyJson(partitionSpecToJson(spec)),
    '{"spec-id":0,"fields":[{"name":"z","transform":"zorder","source-id":2,"source-ids":[2,3],"field-id":1000}]}',
  );
});

t.test('partition fields missing a name, transform or source are rejected naming the field', async (t) => {
  t.throws(() => parsePartitionSpec({ 'spec-id': 0, fields: [{ transform: 'day', 'source-id': 2 }] }, 'partition-specs[0]'), {
    code: 'INVALID_METADATA',
    message: /partition-specs\[0\]\.fields\[0\]\.name/,
  });
  t.throws(() => parsePartitionSpec({ 'spec-id': 0, fields: [{ name: 'a', 'source-id': 2 }] }), {
    code: 'INVALID_METADATA',
    message: /fields\[0\]\.transform/,
  });
  t.throws(() => parsePartitionSpec({ 'spec-id': 0, fields: [{ name: 'a', transform: 'day' }] }), {
    code: 'INVALID_METADATA',
    message: /fields\[0\]\.source-id/,
  });
  t.throws(() => parsePartitionSpec({ fields: [] }), { code: 'INVALID_METADATA', message: /spec-id/ });
});

t.test('partitionType names fields by partition name with partition field ids and result types', async (t) => {
  const spec = parsePartitionSpec({
    'spec-id': 0,
    fields: [
      { name: 'ts_day', transform: 'day', 'source-id': 2, 'field-id': 1000 },
      { name: 'id_bucket', transform: 'bucket[8]', 'source-id': 1, 'field-id': 1001 },
      { name: 'cat', transform: 'identity', 'source-id': 3, 'field-id': 1002 },
      { name: 'gone', transform: 'identity', 'source-id': 42, 'field-id': 1003 },
    ],
  });
  t.same(partitionType(spec, SCHEMA), {
    kind: 'struct',
    fields: [
      { id: 1000, name: 'ts_day', required: false, type: { kind: 'date' } },
      { id: 1001, name: 'id_bucket', required: false, type: { kind: 'int' } },
      { id: 1002, name: 'cat', required: false, type: { kind: 'string' } },
      { id: 1003, name: 'gone', required: false, type: { kind: 'unknown' } },
    ],
  });
});

t.test('a spec is unpartitioned when it has no fields or only void fields', async (t) => {
  t.ok(isUnpartitioned({ specId: 0, fields: [] }));
  t.ok(isUnpartitioned({ specId: 1, fields: [{ sourceId: 1, fieldId: 1000, name: 'x', transform: 'void' }] }));
  t.notOk(isUnpartitioned({ specId: 2, fields: [{ sourceId: 1, fieldId: 1000, name: 'x', transform: 'identity' }] }));
});
