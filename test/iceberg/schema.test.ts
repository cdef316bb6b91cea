import t from 'tap';
import { parseSchema, schemaToJson } from '../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../src/json/index.js';

// locations: list<struct<lat, long>>, scores: list<int>, attrs: map<string, struct<value_a>>,
// counts: map<string, long>, nested: list<list<struct<deep>>>, Name: mixed case
const SCHEMA = parseSchema(
  parseJson(`{
  "type": "struct", "schema-id": 4, "identifier-field-ids": [1],
  "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "locations", "required": false, "type": {"type": "list", "element-id": 3, "element-required": false,
      "element": {"type": "struct", "fields": [
        {"id": 4, "name": "lat", "required": true, "type": "double"},
        {"id": 5, "name": "long", "required": true, "type": "double"}]}}},
    {"id": 6, "name": "scores", "required": false, "type": {"type": "list", "element-id": 7, "element-required": true, "element": "int"}},
    {"id": 8, "name": "attrs", "required": false, "type": {"type": "map", "key-id": 9, "key": "string", "value-id": 10, "value-required": false,
      "value": {"type": "struct", "fields": [{"id": 11, "name": "value_a", "required": false, "type": "string"}]}}},
    {"id": 12, "name": "counts", "required": false, "type": {"type": "map", "key-id": 13, "key": "string", "value-id": 14, "value-required": true, "value": "long"}},
    {"id": 15, "name": "nested", "required": false, "type": {"type": "list", "element-id": 16, "element-required": false,
      "element": {"type": "list", "element-id": 17, "element-required": false,
        "element": {"type": "struct", "fields": [{"id": 18, "name": "deep", "required": false, "type": "int"}]}}}},
    {"id": 19, "name": "Name", "required": false, "type": "string"}
  ]
}`),
);

t.test('a schema keeps its id, identifier field ids and top-level fields', async (t) => {
  t.equal(SCHEMA.schemaId, 4);
  t.same(SCHEMA.identifierFieldIds, [1]);
  t.same(
    SCHEMA.fields.map((f) => f.name),
    ['id', 'locations', 'scores', 'attrs', 'counts', 'nested', 'Name'],
  );
  t.same(SCHEMA.asStruct(), { kind: 'struct', fields: SCHEMA.fields });
  t.equal(SCHEMA.highestFieldId(), 19);
});

t.test('findField finds fields at any depth, including list elements and map keys and values', async (t) => {
  t.equal(SCHEMA.findField(4)?.name, 'lat');
  t.match(SCHEMA.findField(3), { id: 3, name: 'element', required: false, type: { kind: 'struct' } });
  t.match(SCHEMA.findField(7), { id: 7, name: 'element', required: true, type: { kind: 'int' } });
  t.match(SCHEMA.findField(9), { id: 9, name: 'key', required: true, type: { kind: 'string' } });
  t.match(SCHEMA.findField(14), { id: 14, name: 'value', required: true, type: { kind: 'long' } });
  t.equal(SCHEMA.findField(18)?.name, 'deep');
  t.equal(SCHEMA.findField(99), undefined);
});

t.test('findFieldByName resolves full dotted names through lists and maps', async (t) => {
  const id = (name: string) => SCHEMA.findFieldByName(name)?.id;
  t.equal(id('id'), 1);
  t.equal(id('locations.element'), 3);
  t.equal(id('locations.element.lat'), 4);
  t.equal(id('scores.element'), 7);
  t.equal(id('attrs.key'), 9);
  t.equal(id('attrs.value'), 10);
  t.equal(id('attrs.value.value_a'), 11);
  t.equal(id('counts.value'), 14);
  t.equal(id('nested.element.element.deep'), 18);
  t.equal(id('missing'), undefined);
  t.equal(id('locations.lat.x'), undefined);
});

t.test('findFieldByName accepts Java short names that skip element/value above a struct', async (t) => {
  const id = (name: string) => SCHEMA.findFieldByName(name)?.id;
  t.equal(id('locations.lat'), 4);
  t.equal(id('locations.long'), 5);
  t.equal(id('attrs.value_a'), 11);
  t.equal(id('nested.element.deep'), 18, 'only the element directly above the struct is skipped');
  t.equal(id('scores'), 6, 'a list of primitives keeps its own name');
});

t.test('findFieldByName is case-sensitive by default and can ignore case', async (t) => {
  t.equal(SCHEMA.findFieldByName('name'), undefined);
  t.equal(SCHEMA.findFieldByName('Name')?.id, 19);
  t.equal(SCHEMA.findFieldByName('name', false)?.id, 19);
  t.equal(SCHEMA.findFieldByName('LOCATIONS.ELEMENT.LAT', false)?.id, 4);
  t.equal(SCHEMA.findFieldByName('Attrs.Value_A', false)?.id, 11);
});

t.test('columnName gives the canonical full name of a field id', async (t) => {
  t.equal(SCHEMA.columnName(1), 'id');
  t.equal(SCHEMA.columnName(4), 'locations.element.lat');
  t.equal(SCHEMA.columnName(7), 'scores.element');
  t.equal(SCHEMA.columnName(9), 'attrs.key');
  t.equal(SCHEMA.columnName(11), 'attrs.value.value_a');
  t.equal(SCHEMA.columnName(18), 'nested.element.element.deep');
  t.equal(SCHEMA.columnName(100), undefined);
});

t.test('schemaToJson writes type, schema-id, identifier-field-ids, fields and round-trips', async (t) => {
  const json = schemaToJson(SCHEMA) as Record<string, unknown>;
  t.same(Object.keys(json), ['type', 'schema-id', 'identifier-field-ids', 'fields']);
  t.same(parseSchema(parseJson(stringifyJson(json))), SCHEMA);
});

t.test('a v1 schema without schema-id or identifier ids gets id 0 and no identifier fields', async (t) => {
  const schema = parseSchema({ type: 'struct', fields: [{ id: 1, name: 'a', required: false, type: 'int' }] });
  t.equal(schema.schemaId, 0);
  t.same(schema.identifierFieldIds, []);
  t.same(Object.keys(schemaToJson(schema) as object), ['type', 'schema-id', 'fields'], 'no empty identifier-field-ids');
});

t.test('a schema that is not a struct is rejected', async (t) => {
  t.throws(() => parseSchema({ type: 'list', fields: [] }, 'schemas[2]'), { code: 'INVALID_METADATA', message: /schemas\[2\]\.type/ });
  t.throws(() => parseSchema({ type: 'struct' }, 'schema'), { code: 'INVALID_METADATA', message: /schema\.fields/ });
});
