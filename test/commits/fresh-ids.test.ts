import t from 'tap';
import { assignFreshIds } from '../../src/commits/fresh-ids.js';
import { parseSchema } from '../../src/iceberg/index.js';
import { parseJson } from '../../src/json/index.js';

t.test('fresh ids go breadth-first per struct, then depth-first into each field, as Java AssignFreshIds', async (t) => {
  const schema = parseSchema(
    parseJson(`{"type": "struct", "schema-id": 3, "identifier-field-ids": [500, 100], "fields": [
      {"id": 900, "name": "s", "required": true, "type": {"type": "struct", "fields": [
        {"id": 500, "name": "k", "required": true, "type": "string"},
        {"id": 501, "name": "l", "required": false, "type": {"type": "list", "element-id": 502, "element-required": false, "element": "int"}}]}},
      {"id": 100, "name": "id", "required": true, "type": "long"},
      {"id": 200, "name": "m", "required": false, "type": {"type": "map", "key-id": 201, "key": "string", "value-id": 202, "value-required": true,
        "value": {"type": "struct", "fields": [{"id": 203, "name": "x", "required": false, "type": "int"}]}}}]}`),
  );
  let n = 0;
  const fresh = assignFreshIds(0, schema, () => ++n);
  t.equal(fresh.schemaId, 0);
  const ids = ['s', 'id', 'm', 's.k', 's.l', 's.l.element', 'm.key', 'm.value', 'm.value.x'].map((name) => fresh.findFieldByName(name)?.id);
  t.same(ids, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  t.same(fresh.identifierFieldIds, [2, 4], 'identifier fields follow their names, ascending');
  t.equal(fresh.findFieldByName('m')?.type.kind, 'map');
});
