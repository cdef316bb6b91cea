import t from 'tap';
import { parseType, typeToJson, type IcebergType } from '../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../src/json/index.js';

t.test('every primitive type string parses to its kind and writes back as Java writes it', async (t) => {
  const cases: Array<[string, IcebergType, string]> = [
    ['boolean', { kind: 'boolean' }, 'boolean'],
    ['int', { kind: 'int' }, 'int'],
    ['long', { kind: 'long' }, 'long'],
    ['float', { kind: 'float' }, 'float'],
    ['double', { kind: 'double' }, 'double'],
    ['date', { kind: 'date' }, 'date'],
    ['time', { kind: 'time' }, 'time'],
    ['timestamp', { kind: 'timestamp' }, 'timestamp'],
    ['timestamptz', { kind: 'timestamptz' }, 'timestamptz'],
    ['timestamp_ns', { kind: 'timestamp_ns' }, 'timestamp_ns'],
    ['timestamptz_ns', { kind: 'timestamptz_ns' }, 'timestamptz_ns'],
    ['string', { kind: 'string' }, 'string'],
    ['uuid', { kind: 'uuid' }, 'uuid'],
    ['binary', { kind: 'binary' }, 'binary'],
    ['variant', { kind: 'variant' }, 'variant'],
    ['unknown', { kind: 'unknown' }, 'unknown'],
    ['geometry', { kind: 'geometry' }, 'geometry'],
    ['geography', { kind: 'geography' }, 'geography'],
    ['geometry(srid:4326)', { kind: 'geometry', raw: 'geometry(srid:4326)' }, 'geometry(srid:4326)'],
    ['geography(srid:4269, karney)', { kind: 'geography', raw: 'geography(srid:4269, karney)' }, 'geography(srid:4269, karney)'],
    ['decimal(9,2)', { kind: 'decimal', precision: 9, scale: 2 }, 'decimal(9, 2)'],
    ['decimal(38, 0)', { kind: 'decimal', precision: 38, scale: 0 }, 'decimal(38, 0)'],
    ['fixed[16]', { kind: 'fixed', length: 16 }, 'fixed[16]'],
    ['Fixed[ 5 ]', { kind: 'fixed', length: 5 }, 'fixed[5]'],
    ['LONG', { kind: 'long' }, 'long'],
  ];
  for (const [text, type, written] of cases) {
    t.same(parseType(text), type, text);
    t.equal(typeToJson(parseType(text)), written, `${text} is written as ${written}`);
  }
});

t.test('unknown type names and impossible decimals are INVALID_METADATA naming the path', async (t) => {
  t.throws(() => parseType('varchar', 'schema.fields[0].type'), {
    code: 'INVALID_METADATA',
    message: /schema\.fields\[0\]\.type/,
  });
  t.throws(() => parseType('decimal(39, 2)'), { code: 'INVALID_METADATA' });
  t.throws(() => parseType('decimal(5, 6)'), { code: 'INVALID_METADATA' });
  t.throws(() => parseType({ type: 'tuple' }), { code: 'INVALID_METADATA', message: /type/ });
  t.throws(() => parseType(7), { code: 'INVALID_METADATA' });
});

const NESTED = `{
  "type": "struct",
  "fields": [
    {"id": 1, "name": "tags", "required": false, "type": {"type": "list", "element-id": 2, "element": "string", "element-required": true}},
    {"id": 3, "name": "props", "required": true, "doc": "free-form",
     "type": {"type": "map", "key-id": 4, "key": "string", "value-id": 5, "value-required": false,
              "value": {"type": "struct", "fields": [{"id": 6, "name": "v", "required": false, "type": "decimal(10, 2)"}]}}},
    {"id": 7, "name": "added", "required": false, "type": "double", "initial-default": 1.50, "write-default": 2.0},
    {"id": 8, "name": "big", "required": false, "type": "long", "initial-default": 9158179788527662767}
  ]
}`;

t.test('nested struct, list and map types keep their ids, requiredness, docs and defaults', async (t) => {
  const type = parseType(parseJson(NESTED));
  t.equal(type.kind, 'struct');
  if (type.kind !== 'struct') return;
  const [tags, props, added, big] = type.fields;
  t.same(tags!.type, { kind: 'list', elementId: 2, elementRequired: true, element: { kind: 'string' } });
  t.equal(props!.doc, 'free-form');
  t.equal(props!.required, true);
  t.match(props!.type, { kind: 'map', keyId: 4, valueId: 5, valueRequired: false, key: { kind: 'string' } });
  t.equal(stringifyJson(added!.initialDefault), '1.50', 'a float default keeps its source text');
  t.equal(stringifyJson(added!.writeDefault), '2.0');
  t.equal(big!.initialDefault, 9158179788527662767n);
});

t.test('a nested type round-trips through typeToJson in Java key order', async (t) => {
  const type = parseType(parseJson(NESTED));
  const written = stringifyJson(typeToJson(type));
  t.same(parseType(parseJson(written)), type);
  t.match(written, /^\{"type":"struct","fields":\[\{"id":1,"name":"tags","required":false,"type":\{"type":"list","element-id":2,"element":"string","element-required":true\}\}/);
  t.match(written, /"initial-default":1\.50,"write-default":2\.0/);
  t.match(written, /"initial-default":9158179788527662767/);
});

t.test('a field without a type, name or id is rejected naming that field', async (t) => {
  const noType = { type: 'struct', fields: [{ id: 1, name: 'a', required: true }] };
  t.throws(() => parseType(noType, 'schemas[0]'), { code: 'INVALID_METADATA', message: /schemas\[0\]\.fields\[0\]\.type/ });
  const noName = { type: 'struct', fields: [{ id: 1, required: true, type: 'int' }] };
  t.throws(() => parseType(noName), { code: 'INVALID_METADATA', message: /fields\[0\]\.name/ });
  const badId = { type: 'struct', fields: [{ id: 'one', name: 'a', required: true, type: 'int' }] };
  t.throws(() => parseType(badId), { code: 'INVALID_METADATA', message: /fields\[0\]\.id/ });
  const noElement = { type: 'list', 'element-id': 2, 'element-required': true };
  t.throws(() => parseType(noElement, 'x'), { code: 'INVALID_METADATA', message: /x\.element/ });
});

t.test('a JSON null default means no default', async (t) => {
  const type = parseType({ type: 'struct', fields: [{ id: 1, name: 'a', required: false, type: 'int', 'initial-default': null }] });
  if (type.kind !== 'struct') return t.fail('not a struct');
  t.notOk('initialDefault' in type.fields[0]!);
  t.equal(stringifyJson(typeToJson(type)), '{"type":"struct","fields":[{"id":1,"name":"a","required":false,"type":"int"}]}');
});

t.test('binary and fixed defaults are written as upper-case hex, as Java SingleValueParser writes them', async (t) => {
  // Java: SingleValueParser.toJson writes BaseEncoding.base16().encode(...) (upper case) and
  // fromJson upper-cases before decoding, so a lower-case default comes back upper-case.
  const json = {
    type: 'struct',
    fields: [
      { id: 1, name: 'f', required: false, type: 'fixed[5]', 'initial-default': '010203ff03', 'write-default': 'abCDef0102' },
      { id: 2, name: 'b', required: false, type: 'binary', 'initial-default': '0a0b', 'write-default': '' },
      { id: 3, name: 's', required: false, type: 'string', 'initial-default': 'abc' },
      { id: 4, name: 'u', required: false, type: 'uuid', 'initial-default': 'f79c3e09-677c-4bbd-a479-3f349cb785e7' },
      {
        id: 5,
        name: 'l',
        required: false,
        type: { type: 'list', 'element-id': 6, element: 'binary', 'element-required': false },
        'initial-default': ['ff', null],
      },
      {
        id: 7,
        name: 'm',
        required: false,
        type: { type: 'map', 'key-id': 8, key: 'string', 'value-id': 9, value: 'fixed[1]', 'value-required': false },
        'initial-default': { keys: ['k'], values: ['af'] },
      },
      {
        id: 10,
        name: 'st',
        required: false,
        type: { type: 'struct', fields: [{ id: 11, name: 'x', required: false, type: 'binary' }] },
        'initial-default': { '11': 'beef' },
      },
    ],
  };
  const written = stringifyJson(typeToJson(parseType(parseJson(JSON.stringify(json)))));
  t.match(written, /"name":"f","required":false,"type":"fixed\[5\]","initial-default":"010203FF03","write-default":"ABCDEF0102"/);
  t.match(written, /"name":"b","required":false,"type":"binary","initial-default":"0A0B","write-default":""/);
  t.match(written, /"initial-default":"abc"/, 'a string default keeps its case');
  t.match(written, /"initial-default":"f79c3e09-677c-4bbd-a479-3f349cb785e7"/, 'a uuid default stays lower-case (Java UUID.toString)');
  t.match(written, /"initial-default":\["FF",null\]/);
  t.match(written, /"initial-default":\{"keys":\["k"\],"values":\["AF"\]\}/);
  t.match(written, /"initial-default":\{"11":"BEEF"\}/);
  // a field built in code (not parsed) is written the same way
  const built: IcebergType = { kind: 'struct', fields: [{ id: 1, name: 'b', required: false, type: { kind: 'binary' }, initialDefault: 'c0ffee' }] };
  t.equal(stringifyJson(typeToJson(built)), '{"type":"struct","fields":[{"id":1,"name":"b","required":false,"type":"binary","initial-default":"C0FFEE"}]}');
  // the same schema given once in lower and once in upper case is one schema (Java compares the bytes)
  const lower = parseType({ type: 'struct', fields: [{ id: 1, name: 'b', required: false, type: 'binary', 'write-default': 'ab' }] });
  const upper = parseType({ type: 'struct', fields: [{ id: 1, name: 'b', required: false, type: 'binary', 'write-default': 'AB' }] });
  t.same(lower, upper);
});
