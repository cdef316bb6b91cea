import t from 'tap';
import { parseCreateTableRequest } from '../../src/commits/index.js';
import { parseJson } from '../../src/json/index.js';

const parse = (json: string) => parseCreateTableRequest(parseJson(json));
const SCHEMA = '{"type": "struct", "fields": [{"id": 1, "name": "a", "required": false, "type": "int"}]}';

t.test('a create request keeps its parts as sent, with defaults for what is missing', async (t) => {
  const r = parse(`{"name": "t", "schema": ${SCHEMA}}`);
  t.same(r, { name: 't', schema: parseJson(SCHEMA), stageCreate: false, properties: {} });
  const full = parse(`{"name": "t", "location": "s3://b/t", "schema": ${SCHEMA}, "stage-create": true,
    "partition-spec": {"spec-id": 0, "fields": [{"name": "a", "transform": "identity", "source-id": 1, "field-id": 1000}]},
    "write-order": {"order-id": 1, "fields": [{"transform": "identity", "source-id": 1, "direction": "asc", "null-order": "nulls-first"}]},
    "properties": {"k": "v", "n": 3, "b": true, "f": 1.5}}`);
  t.equal(full.location, 's3://b/t');
  t.equal(full.stageCreate, true);
  t.ok(full.partitionSpec);
  t.ok(full.writeOrder);
  t.same(full.properties, { k: 'v', n: '3', b: 'true', f: '1.5' }, 'scalars read as their text, as Jackson does');
  t.same(parse(`{"name": "t", "schema": ${SCHEMA}, "partition-spec": null, "write-order": null, "properties": null}`).properties, {});
});

t.test('a malformed create request is a bad request naming the field', async (t) => {
  const cases: Array<[string, RegExp]> = [
    [`{"schema": ${SCHEMA}}`, /'name'/],
    [`{"name": "", "schema": ${SCHEMA}}`, /'name'/],
    [`{"name": 5, "schema": ${SCHEMA}}`, /'name'/],
    ['{"name": "t"}', /'schema'/],
    ['{"name": "t", "schema": {"type": "struct", "fields": [{"id": 1, "name": "a", "type": "int"}]}}', /schema\.fields\[0\]\.required/],
    [`{"name": "t", "schema": ${SCHEMA}, "location": 1}`, /'location'/],
    [`{"name": "t", "schema": ${SCHEMA}, "stage-create": "yes"}`, /'stage-create'/],
    [`{"name": "t", "schema": ${SCHEMA}, "stage-create": null}`, /'stage-create'/],
    [`{"name": "t", "schema": ${SCHEMA}, "properties": {"a": null}}`, /properties\.a/],
    [`{"name": "t", "schema": ${SCHEMA}, "properties": {"a": {}}}`, /properties\.a/],
    [`{"name": "t", "schema": ${SCHEMA}, "partition-spec": {"fields": []}}`, /partition-spec\.spec-id/],
    [`{"name": "t", "schema": ${SCHEMA}, "write-order": {"order-id": 1, "fields": [{"source-id": 1}]}}`, /write-order\.fields\[0\]/],
    ['[]', /\(body\)/],
  ];
  for (const [json, path] of cases) t.throws(() => parse(json), { code: 'BAD_REQUEST', message: path }, json);
});

t.test('a schema Java would not construct is refused with Java\'s exception type', async (t) => {
  t.throws(() => parse('{"name": "t", "schema": {"type": "struct", "identifier-field-ids": [1], "fields": [{"id": 1, "name": "a", "required": false, "type": "int"}]}}'), {
    code: 'ILLEGAL_ARGUMENT',
  });
});
