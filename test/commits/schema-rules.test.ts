import t from 'tap';
import { checkSchemaCompatibility, indexParents, sameSchema, validateSchema } from '../../src/commits/schema-rules.js';
import { parseSchema } from '../../src/iceberg/index.js';
import { parseJson } from '../../src/json/index.js';

t.test('schemas are the same when fields and identifier sets match, whatever their ids and order of identifiers', async (t) => {
  const s = (json: string) => parseSchema(parseJson(json));
  const a = s('{"type": "struct", "schema-id": 1, "identifier-field-ids": [1, 2], "fields": [{"id": 1, "name": "a", "required": true, "type": "int"}, {"id": 2, "name": "b", "required": true, "type": "int"}]}');
  const b = s('{"type": "struct", "schema-id": 5, "identifier-field-ids": [2, 1], "fields": [{"id": 1, "name": "a", "required": true, "type": "int"}, {"id": 2, "name": "b", "required": true, "type": "int"}]}');
  const doc = s('{"type": "struct", "identifier-field-ids": [1, 2], "fields": [{"id": 1, "name": "a", "required": true, "type": "int", "doc": "d"}, {"id": 2, "name": "b", "required": true, "type": "int"}]}');
  t.equal(sameSchema(a, b), true);
  t.equal(sameSchema(a, doc), false, 'docs count');
});

t.test('a field id sits in the field that holds it (Java TypeUtil.indexParents)', async (t) => {
  const schema = parseSchema(
    parseJson(`{"type": "struct", "fields": [
      {"id": 1, "name": "s", "required": true, "type": {"type": "struct", "fields": [{"id": 2, "name": "x", "required": true, "type": "int"}]}},
      {"id": 3, "name": "m", "required": false, "type": {"type": "map", "key-id": 4, "key": "string", "value-id": 5, "value-required": false, "value": "int"}}]}`),
  );
  t.same([...indexParents(schema)].sort((a, b) => a[0] - b[0]), [[2, 1], [4, 3], [5, 3]]);
});

t.test('v3 types and initial defaults are refused below v3', async (t) => {
  const schema = parseSchema(parseJson('{"type": "struct", "fields": [{"id": 1, "name": "g", "required": false, "type": "geometry"}]}'));
  t.throws(() => checkSchemaCompatibility(schema, 2), { code: 'ILLEGAL_ARGUMENT' });
  t.doesNotThrow(() => checkSchemaCompatibility(schema, 3));
});

t.test('full names are unique, as Java IndexByName requires', async (t) => {
  const dotted = parseSchema(
    parseJson(`{"type": "struct", "fields": [{"id": 1, "name": "a.b", "required": false, "type": "int"},
      {"id": 2, "name": "a", "required": false, "type": {"type": "struct", "fields": [{"id": 3, "name": "b", "required": false, "type": "int"}]}}]}`),
  );
  t.throws(() => validateSchema(dotted), { code: 'VALIDATION_FAILED' });
});
