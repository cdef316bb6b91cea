import t from 'tap';
import { REAL, REAL_FIXTURES_SKIP, apply, realFixturesAvailable, realVersion, roundTrip, smallV2 } from '../helpers/commit-bases.js';

const skipReal = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;
const ID = '{"id": 1, "name": "id", "required": true, "type": "long"}';
const DATA = '{"id": 2, "name": "data", "required": false, "type": "string"}';
const TS = '{"id": 3, "name": "ts", "required": false, "type": "timestamptz"}';
const schema = (fields: string, extra = '') => `{"action": "add-schema", "schema": {"type": "struct"${extra}, "fields": [${fields}]}}`;
const spec = (fields: string, id = 0) => `{"action": "add-spec", "spec": {"spec-id": ${id}, "fields": [${fields}]}}`;
const order = (fields: string, id = 1) => `{"action": "add-sort-order", "sort-order": {"order-id": ${id}, "fields": [${fields}]}}`;

t.test('add-schema takes the next schema id and raises last-column-id to its highest field id', async (t) => {
  const { metadata } = apply(smallV2(), `[${schema(`${ID}, ${DATA}, ${TS}, {"id": 7, "name": "n", "required": false, "type": "int"}`, ', "schema-id": 42')}]`);
  t.same(metadata.schemas.map((s) => s.schemaId), [0, 1], "the client's schema id is replaced");
  t.equal(metadata.lastColumnId, 7);
  t.equal(metadata.currentSchemaId, 0, 'adding does not make it current');
});

t.test('last-column-id never decreases, and the deprecated last-column-id field is ignored', async (t) => {
  const u = `[{"action": "add-schema", "schema": {"type": "struct", "fields": [${ID}]}, "last-column-id": 1}]`;
  const { metadata } = apply(smallV2(), u);
  t.equal(metadata.lastColumnId, 3);
  t.same(metadata.schemas[1]!.fields.map((f) => f.id), [1]);
});

t.test('set-current-schema -1 picks the schema added last in this change', async (t) => {
  const { metadata } = apply(smallV2(), `[${schema(`${ID}, ${DATA}, ${TS}, {"id": 4, "name": "x", "required": false, "type": "int"}`)}, {"action": "set-current-schema", "schema-id": -1}]`);
  t.equal(metadata.currentSchemaId, 1);
  t.same(roundTrip(metadata), metadata);
});

t.test('set-current-schema -1 without a schema added in this change is a validation failure', async (t) => {
  t.throws(() => apply(smallV2(), '[{"action": "set-current-schema", "schema-id": -1}]'), { code: 'VALIDATION_FAILED' });
});

t.test('set-current-schema to an unknown schema is an illegal argument', async (t) => {
  t.throws(() => apply(smallV2(), '[{"action": "set-current-schema", "schema-id": 5}]'), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('an identical schema reuses its id: no new schema, nothing changes', async (t) => {
  const same = apply(smallV2(), `[${schema(`${ID}, ${DATA}, ${TS}`, ', "schema-id": 9, "identifier-field-ids": [1]')}]`);
  t.equal(same.changed, false);
  const otherIdentifiers = apply(smallV2(), `[${schema(`${ID}, ${DATA}, ${TS}`)}]`);
  t.equal(otherIdentifiers.changed, true, 'identifier fields are part of the schema');
  t.equal(otherIdentifiers.metadata.schemas.length, 2);
});

t.test('re-adding an existing schema makes -1 resolve to it only if this change added it', async (t) => {
  const added = `${schema(`${ID}, {"id": 4, "name": "y", "required": false, "type": "int"}`)}`;
  // the second add finds schema 0, which this change did not add: nothing is "last added" any more
  t.throws(
    () => apply(smallV2(), `[${added}, ${schema(`${ID}, ${DATA}, ${TS}`, ', "identifier-field-ids": [1]')}, {"action": "set-current-schema", "schema-id": -1}]`),
    { code: 'VALIDATION_FAILED' },
  );
  t.throws(
    () => apply(smallV2(), `[${schema(`${ID}, ${DATA}, ${TS}`, ', "identifier-field-ids": [1]')}, {"action": "set-current-schema", "schema-id": -1}]`),
    { code: 'VALIDATION_FAILED' },
  );
  const twice = apply(smallV2(), `[${added}, ${added}, {"action": "set-current-schema", "schema-id": -1}]`);
  t.equal(twice.metadata.currentSchemaId, 1, 'the same new schema twice is still the last added');
  t.equal(twice.metadata.schemas.length, 2);
});

t.test('types and defaults of v3 need a v3 table', async (t) => {
  t.throws(() => apply(smallV2(), `[${schema(`${ID}, {"id": 4, "name": "v", "required": false, "type": "variant"}`)}]`), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(smallV2(), `[${schema(`${ID}, {"id": 4, "name": "t", "required": false, "type": "timestamp_ns"}`)}]`), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(smallV2(), `[${schema(`${ID}, {"id": 4, "name": "d", "required": false, "type": "int", "initial-default": 1}`)}]`), { code: 'ILLEGAL_ARGUMENT' });
  const v3 = apply(
    smallV2(),
    `[{"action": "upgrade-format-version", "format-version": 3}, ${schema(`${ID}, {"id": 4, "name": "v", "required": false, "type": "variant"}, {"id": 5, "name": "d", "required": false, "type": "int", "initial-default": 1, "write-default": 2}`)}]`,
  );
  t.equal(v3.metadata.schemas.length, 2);
  t.same(roundTrip(v3.metadata), v3.metadata);
});

t.test('remove-schemas drops old schemas but never the current one', async (t) => {
  const two = apply(smallV2(), `[${schema(`${ID}, {"id": 4, "name": "x", "required": false, "type": "int"}`)}, {"action": "set-current-schema", "schema-id": -1}]`).metadata;
  const base = { metadata: two, metadataLocation: 's3://bucket/db/t/metadata/00003-d.metadata.json' };
  const { metadata } = apply(base, '[{"action": "remove-schemas", "schema-ids": [0]}]');
  t.same(metadata.schemas.map((s) => s.schemaId), [1]);
  t.throws(() => apply(base, '[{"action": "remove-schemas", "schema-ids": [0, 1]}]'), { code: 'ILLEGAL_ARGUMENT' });
  t.equal(apply(base, '[{"action": "remove-schemas", "schema-ids": [12]}]').changed, true, 'Java records any non-empty removal');
  t.equal(apply(base, '[{"action": "remove-schemas", "schema-ids": []}]').changed, false);
});

t.test('add-spec keeps the field ids, takes the next spec id and raises last-partition-id', async (t) => {
  const { metadata } = apply(smallV2(), `[${spec('{"name": "ts_day", "transform": "DAY", "source-id": 3, "field-id": 1005}', 4)}, {"action": "set-default-spec", "spec-id": -1}]`);
  t.same(metadata.partitionSpecs[1], { specId: 1, fields: [{ sourceId: 3, fieldId: 1005, name: 'ts_day', transform: 'day' }] }, 'transform written as Java writes it');
  t.equal(metadata.defaultSpecId, 1);
  t.equal(metadata.lastPartitionId, 1005);
  t.same(roundTrip(metadata), metadata);
});

t.test('a spec compatible with an existing one reuses its id', async (t) => {
  const base = apply(smallV2(), `[${spec('{"name": "b", "transform": "bucket[8]", "source-id": 1, "field-id": 1000}')}]`);
  const stored = { metadata: base.metadata, metadataLocation: 's3://bucket/db/t/metadata/00003-d.metadata.json' };
  const again = apply(stored, `[${spec('{"name": "b", "transform": "Bucket[8]", "source-id": 1, "field-id": 1007}', 3)}]`);
  t.equal(again.changed, false, 'same source, transform and name: the existing spec');
  t.throws(() => apply(stored, `[${spec('{"name": "b", "transform": "bucket[8]", "source-id": 1, "field-id": 1000}')}, {"action": "set-default-spec", "spec-id": -1}]`), {
    code: 'VALIDATION_FAILED',
  }, 'a reused spec this change did not add is not "last added"');
  const renamed = apply(stored, `[${spec('{"name": "b2", "transform": "bucket[8]", "source-id": 1, "field-id": 1000}')}]`);
  t.same(renamed.metadata.partitionSpecs.map((s) => s.specId), [0, 1, 2]);
});

t.test('a spec is bound to the current schema as Java binds it', async (t) => {
  const refuse = (fields: string, code: string, why: string) => t.throws(() => apply(smallV2(), `[${spec(fields)}]`), { code }, why);
  refuse('{"name": "d", "transform": "bucket[4]", "source-id": 9, "field-id": 1000}', 'VALIDATION_FAILED', 'unknown source column');
  refuse('{"name": "d", "transform": "hour", "source-id": 2, "field-id": 1000}', 'ILLEGAL_ARGUMENT', 'hour of a string');
  refuse('{"name": "d", "transform": "bucket[0]", "source-id": 1, "field-id": 1000}', 'ILLEGAL_ARGUMENT', 'zero buckets');
  refuse('{"name": "data", "transform": "bucket[4]", "source-id": 1, "field-id": 1000}', 'ILLEGAL_ARGUMENT', "another column's name");
  refuse('{"name": "", "transform": "identity", "source-id": 1, "field-id": 1000}', 'ILLEGAL_ARGUMENT', 'empty name');
  refuse(
    '{"name": "a", "transform": "identity", "source-id": 1, "field-id": 1000}, {"name": "a", "transform": "bucket[2]", "source-id": 2, "field-id": 1001}',
    'ILLEGAL_ARGUMENT',
    'a name twice',
  );
  t.doesNotThrow(() => apply(smallV2(), `[${spec('{"name": "id", "transform": "identity", "source-id": 1, "field-id": 1000}')}]`), 'identity may take its column\'s name');
  t.doesNotThrow(() => apply(smallV2(), `[${spec('{"name": "x", "transform": "zorder", "source-id": 2, "field-id": 1000}')}]`), 'an unknown transform is kept');
  t.doesNotThrow(() => apply(smallV2(), `[${spec('{"name": "gone", "transform": "void", "source-id": 99, "field-id": 1000}')}]`), 'a void field needs no source');
});

t.test('a spec on a nested or non-primitive column follows Java\'s checks', async (t) => {
  const nested = smallV2((j) => {
    j['schemas'] = [
      {
        type: 'struct',
        'schema-id': 0,
        fields: [
          { id: 1, name: 'id', required: true, type: 'long' },
          { id: 2, name: 's', required: false, type: { type: 'struct', fields: [{ id: 3, name: 'x', required: false, type: 'int' }] } },
          { id: 4, name: 'l', required: false, type: { type: 'list', 'element-id': 5, 'element-required': false, element: { type: 'struct', fields: [{ id: 6, name: 'y', required: false, type: 'int' }] } } },
        ],
      },
    ];
    j['last-column-id'] = 6;
  });
  t.doesNotThrow(() => apply(nested, `[${spec('{"name": "s_x", "transform": "identity", "source-id": 3, "field-id": 1000}')}]`), 'inside a struct');
  t.throws(() => apply(nested, `[${spec('{"name": "l_y", "transform": "identity", "source-id": 6, "field-id": 1000}')}]`), { code: 'VALIDATION_FAILED' }, 'inside a list');
  t.throws(() => apply(nested, `[${spec('{"name": "s_id", "transform": "identity", "source-id": 2, "field-id": 1000}')}]`), { code: 'VALIDATION_FAILED' }, 'a struct');
  t.throws(() => apply(nested, `[${spec('{"name": "s_b", "transform": "bucket[2]", "source-id": 2, "field-id": 1000}')}]`), { code: 'ILLEGAL_ARGUMENT' }, 'bucket of a struct');
});

t.test('a v1 table takes only specs with sequential field ids', { skip: skipReal }, async (t) => {
  const v1 = realVersion(REAL.v1);
  t.throws(() => apply(v1, `[${spec('{"name": "id_b", "transform": "bucket[4]", "source-id": 1, "field-id": 1001}')}]`), { code: 'VALIDATION_FAILED' });
  const { metadata } = apply(v1, `[${spec('{"name": "id_b", "transform": "bucket[4]", "source-id": 1, "field-id": 1000}')}, {"action": "set-default-spec", "spec-id": -1}]`);
  t.equal(metadata.defaultSpecId, 1);
  t.equal(metadata.lastPartitionId, 1000);
  t.same(roundTrip(metadata), metadata);
});

t.test('set-default-spec: -1 needs a spec added in this change, an unknown id is refused, the same id is no change', async (t) => {
  t.throws(() => apply(smallV2(), '[{"action": "set-default-spec", "spec-id": -1}]'), { code: 'VALIDATION_FAILED' });
  t.throws(() => apply(smallV2(), '[{"action": "set-default-spec", "spec-id": 3}]'), { code: 'ILLEGAL_ARGUMENT' });
  t.equal(apply(smallV2(), '[{"action": "set-default-spec", "spec-id": 0}]').changed, false);
});

t.test('remove-partition-specs drops specs but never the default one', { skip: skipReal }, async (t) => {
  const base = realVersion(REAL.v2Specs);
  const { metadata } = apply(base, '[{"action": "remove-partition-specs", "spec-ids": [0]}]');
  t.same(metadata.partitionSpecs.map((s) => s.specId), [1]);
  t.equal(metadata.lastPartitionId, 1002, 'last-partition-id stays');
  t.throws(() => apply(base, '[{"action": "remove-partition-specs", "spec-ids": [1]}]'), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('add-sort-order takes ids from 1, reuses an identical order, and keeps 0 for unsorted', async (t) => {
  const f = '{"transform": "identity", "source-id": 1, "direction": "asc", "null-order": "nulls-first"}';
  const { metadata } = apply(smallV2(), `[${order(f, 5)}, {"action": "set-default-sort-order", "sort-order-id": -1}]`);
  t.same(metadata.sortOrders.map((o) => o.orderId), [0, 1]);
  t.equal(metadata.defaultSortOrderId, 1);
  const stored = { metadata, metadataLocation: 's3://bucket/db/t/metadata/00003-d.metadata.json' };
  t.equal(apply(stored, `[${order(f, 3)}]`).changed, false, 'the same fields are the same order');
  const desc = apply(stored, `[${order('{"transform": "bucket[4]", "source-id": 1, "direction": "desc", "null-order": "nulls-last"}')}]`);
  t.same(desc.metadata.sortOrders.map((o) => o.orderId), [0, 1, 2]);
  const unsorted = apply(stored, `[${order('', 0)}, {"action": "set-default-sort-order", "sort-order-id": 0}]`).metadata;
  t.equal(unsorted.defaultSortOrderId, 0, 'unsorted is order 0');
  t.equal(unsorted.sortOrders.length, 2, 'and it already exists');
  t.throws(() => apply(stored, `[${order('', 0)}, {"action": "set-default-sort-order", "sort-order-id": -1}]`), { code: 'VALIDATION_FAILED' }, 'an existing order is not "last added"');
});

t.test('a sort order is bound as Java binds it', async (t) => {
  t.throws(() => apply(smallV2(), `[${order('{"transform": "identity", "source-id": 1, "direction": "asc", "null-order": "nulls-first"}', 0)}]`), { code: 'ILLEGAL_ARGUMENT' }, 'order id 0 is unsorted');
  t.throws(() => apply(smallV2(), `[${order('', 2)}]`), { code: 'ILLEGAL_ARGUMENT' }, 'unsorted must be 0');
  t.throws(() => apply(smallV2(), `[${order('{"transform": "identity", "source-id": 9, "direction": "asc", "null-order": "nulls-first"}')}]`), { code: 'VALIDATION_FAILED' }, 'unknown column');
  t.throws(() => apply(smallV2(), `[${order('{"transform": "truncate[3]", "source-id": 3, "direction": "asc", "null-order": "nulls-first"}')}]`), { code: 'UNSUPPORTED_OPERATION' }, 'truncate of a timestamp (Java: UnsupportedOperationException)');
});

t.test('set-default-sort-order: -1 needs an order added in this change, an unknown id is refused', async (t) => {
  t.throws(() => apply(smallV2(), '[{"action": "set-default-sort-order", "sort-order-id": -1}]'), { code: 'VALIDATION_FAILED' });
  t.throws(() => apply(smallV2(), '[{"action": "set-default-sort-order", "sort-order-id": 4}]'), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('a current schema that drops the default spec\'s or order\'s source column fails validation', async (t) => {
  const partitioned = apply(smallV2(), `[${spec('{"name": "data_b", "transform": "bucket[4]", "source-id": 2, "field-id": 1000}')}, {"action": "set-default-spec", "spec-id": -1}]`).metadata;
  const stored = { metadata: partitioned, metadataLocation: 's3://bucket/db/t/metadata/00003-d.metadata.json' };
  const dropData = `${schema(`${ID}, ${TS}`)}, {"action": "set-current-schema", "schema-id": -1}`;
  t.throws(() => apply(stored, `[${dropData}]`), { code: 'VALIDATION_FAILED' });
  t.doesNotThrow(() => apply(stored, `[${dropData}, {"action": "set-default-spec", "spec-id": 0}]`), 'fine once the spec is no longer the default');
  const sorted = apply(smallV2(), `[${order('{"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"}')}, {"action": "set-default-sort-order", "sort-order-id": -1}]`).metadata;
  t.throws(() => apply({ metadata: sorted, metadataLocation: 'x/00003-d.metadata.json' }, `[${dropData}]`), { code: 'VALIDATION_FAILED' });
});

t.test('a new current schema may not give a partition field\'s name to another column', async (t) => {
  const partitioned = apply(smallV2(), `[${spec('{"name": "data_b", "transform": "bucket[4]", "source-id": 2, "field-id": 1000}')}, {"action": "set-default-spec", "spec-id": -1}]`).metadata;
  const stored = { metadata: partitioned, metadataLocation: 's3://bucket/db/t/metadata/00003-d.metadata.json' };
  t.throws(
    () => apply(stored, `[${schema(`${ID}, ${DATA}, ${TS}, {"id": 4, "name": "data_b", "required": false, "type": "int"}`)}, {"action": "set-current-schema", "schema-id": -1}]`),
    { code: 'ILLEGAL_ARGUMENT' },
  );
});
