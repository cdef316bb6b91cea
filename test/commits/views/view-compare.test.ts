import t from 'tap';
import { sameSchema, sameViewVersion, sqlDialects } from '../../../src/commits/views/view-compare.js';
import { parseSchema, parseViewVersion } from '../../../src/iceberg/index.js';
import { schemaJson, versionJson } from '../../helpers/views.js';

t.test('schemas are the same regardless of schema id and of identifier field id order', async (t) => {
  const a = parseSchema(schemaJson(['a', 'b'], { 'schema-id': 0, 'identifier-field-ids': [1, 2] }));
  t.ok(sameSchema(a, parseSchema(schemaJson(['a', 'b'], { 'schema-id': 5, 'identifier-field-ids': [2, 1] }))));
  t.notOk(sameSchema(a, parseSchema(schemaJson(['a', 'b'], { 'identifier-field-ids': [1] }))), 'other identifier fields');
  t.notOk(sameSchema(a, parseSchema(schemaJson(['a', 'c'], { 'identifier-field-ids': [1, 2] }))), 'another name');
  const doc = schemaJson(['a', 'b'], { 'identifier-field-ids': [1, 2] });
  (doc['fields'] as Array<Record<string, unknown>>)[0]!['doc'] = 'first';
  t.notOk(sameSchema(a, parseSchema(doc)), 'another doc');
});

t.test('view versions are the same regardless of id, timestamp and summary order', async (t) => {
  const a = parseViewVersion(versionJson({ spark: 'x', trino: 'y' }, { summary: { a: '1', b: '2' } }));
  t.ok(sameViewVersion(a, parseViewVersion(versionJson({ spark: 'x', trino: 'y' }, { 'version-id': 9, 'timestamp-ms': 1, summary: { b: '2', a: '1' } }))));
  const differ: Array<[string, Record<string, unknown>, Record<string, string>?]> = [
    ['schema id', { 'schema-id': 1 }],
    ['summary', { summary: { a: '1' } }],
    ['default catalog', { 'default-catalog': 'c' }],
    ['default namespace', { 'default-namespace': ['other'] }],
  ];
  for (const [name, over] of differ) {
    t.notOk(sameViewVersion(a, parseViewVersion(versionJson({ spark: 'x', trino: 'y' }, { summary: { a: '1', b: '2' }, ...over }))), name);
  }
  t.notOk(sameViewVersion(a, parseViewVersion(versionJson({ trino: 'y', spark: 'x' }, { summary: { a: '1', b: '2' } }))), 'representation order');
  t.notOk(sameViewVersion(a, parseViewVersion(versionJson({ spark: 'X', trino: 'y' }, { summary: { a: '1', b: '2' } }))), 'SQL text case');
});

t.test('the SQL dialects of a version are lower-cased', async (t) => {
  t.same([...sqlDialects(parseViewVersion(versionJson({ Spark: 'x', TRINO: 'y' })))], ['spark', 'trino']);
});
