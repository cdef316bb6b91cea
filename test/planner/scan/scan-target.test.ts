import t from 'tap';
import { parseTableMetadata } from '../../../src/iceberg/index.js';
import { parseJson } from '../../../src/json/index.js';
import { parseScanRequest, resolveScanTarget } from '../../../src/planner/index.js';
import { V2 } from '../../iceberg/metadata-samples.js';

// V2's first snapshot recorded schema 0; the current schema is 1. Here schema 0 names field 1
// `old_x` (renamed to `x` since), as a table looks after ALTER TABLE … RENAME COLUMN.
const json = parseJson(V2) as { schemas: Array<{ fields: Array<{ name: string }> }> };
json.schemas[0]!.fields[0]!.name = 'old_x';
const meta = parseTableMetadata(json);
const FIRST = 3051729675574597004n;

function schemaIdOf(body: Record<string, unknown>): number {
  const target = resolveScanTarget(meta, parseScanRequest(body));
  return target.schema.schemaId;
}

t.test('a pinned scan binds to the snapshot schema when asked, and to the current one when its names resolve there', async (t) => {
  t.equal(schemaIdOf({ 'snapshot-id': FIRST, 'use-snapshot-schema': true, select: ['old_x'] }), 0, 'use-snapshot-schema: true');
  t.equal(schemaIdOf({ 'snapshot-id': FIRST, 'use-snapshot-schema': false, select: ['x'] }), 1, 'false, and the names are current columns (a branch scan)');
  t.equal(schemaIdOf({ 'snapshot-id': FIRST, select: ['x'], filter: { type: 'gt', term: 'y', value: 1 } }), 1);
  t.equal(schemaIdOf({ select: ['x'] }), 1, 'no snapshot id: the current schema');
});

t.test('pyiceberg time travel (use-snapshot-schema: false, the snapshot’s own column names) binds to the snapshot schema', async (t) => {
  t.equal(schemaIdOf({ 'snapshot-id': FIRST, 'use-snapshot-schema': false, select: ['old_x'] }), 0, 'a select naming a column renamed since');
  t.equal(schemaIdOf({ 'snapshot-id': FIRST, 'use-snapshot-schema': false, filter: { type: 'eq', term: 'old_x', value: 1 } }), 0, 'a filter naming it');
  t.equal(schemaIdOf({ 'snapshot-id': FIRST, select: ['old_x', '_file'] }), 0, 'metadata columns resolve in every schema');
  t.equal(schemaIdOf({ 'snapshot-id': FIRST, select: ['old_x', 'z'] }), 1, 'names neither schema has all of: the current schema (its error names the column)');
  t.equal(schemaIdOf({ select: ['old_x'] }), 1, 'without a snapshot id there is no older schema to fall back to');
});

t.test('a plan body that is a number, even one the lossless parser boxes (1e999999), is a 400, not an empty scan', async (t) => {
  for (const text of ['1e999999', '42', '[1]', '"x"', 'null']) {
    t.throws(() => parseScanRequest(parseJson(text)), { code: 'BAD_REQUEST' }, text);
  }
});
