/**
 * The partition evaluator: the exact evaluator on a file's partition tuple with the inclusive
 * projection of the row filter (Java ManifestGroup's partition filter).
 */
import t from 'tap';
import { isoDateToDays } from '../../../src/iceberg/index.js';
import { PartitionEvaluator } from '../../../src/planner/expressions/index.js';
import { bucketOf } from '../../../src/planner/transforms/index.js';
import { filter, p, schemaOf, specOf, T } from './projections-helpers.js';

const SCHEMA = schemaOf([1, 'ts', T.timestamp], [2, 'id', T.long], [3, 'data', T.string]);
const SPEC = specOf([1, 'day', 'ts_day'], [2, 'bucket[8]', 'id_bucket']);

t.test('a day partition matches a timestamp range through the inclusive projection', async (t) => {
  const ev = new PartitionEvaluator(SPEC, SCHEMA, p('gt-eq', 'ts', '2024-01-02T12:00:00'));
  t.equal(ev.matches([isoDateToDays('2024-01-01'), 0]), false);
  t.equal(ev.matches([isoDateToDays('2024-01-02'), 0]), true, 'the day of the bound may hold later rows');
  t.equal(ev.matches([isoDateToDays('2024-01-03'), 0]), true);
});

t.test('a bucket partition matches equality on its bucket only', async (t) => {
  const ev = new PartitionEvaluator(SPEC, SCHEMA, p('eq', 'id', 42));
  const bucket = bucketOf(8, T.long, 42n);
  t.equal(ev.matches([isoDateToDays('2024-01-01'), bucket]), true);
  t.equal(ev.matches([isoDateToDays('2024-01-01'), (bucket + 1) % 8]), false);
  t.equal(new PartitionEvaluator(SPEC, SCHEMA, p('lt', 'id', 42)).matches([0, (bucket + 1) % 8]), true, 'ranges do not project through buckets');
});

t.test('predicates on columns without a partition field do not restrict partitions', async (t) => {
  const ev = new PartitionEvaluator(SPEC, SCHEMA, filter({ type: 'and', left: { type: 'eq', term: 'data', value: 'x' }, right: { type: 'lt', term: 'ts', value: '2024-01-01T00:00:00' } }));
  t.equal(ev.matches([isoDateToDays('2023-12-31'), 3]), true);
  t.equal(ev.matches([isoDateToDays('2024-01-01'), 3]), false);
});

t.test('null partition values follow the exact evaluator', async (t) => {
  t.equal(new PartitionEvaluator(SPEC, SCHEMA, p('is-null', 'ts')).matches([null, 1]), true);
  t.equal(new PartitionEvaluator(SPEC, SCHEMA, p('is-null', 'ts')).matches([isoDateToDays('2024-01-01'), 1]), false);
  t.equal(new PartitionEvaluator(SPEC, SCHEMA, p('eq', 'id', 1)).matches([0, null]), false);
});

t.test('an unknown column fails to bind', async (t) => {
  t.throws(() => new PartitionEvaluator(SPEC, SCHEMA, p('eq', 'nope', 1)), { code: 'INVALID_FILTER' });
});
