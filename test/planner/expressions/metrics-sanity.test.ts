/**
 * Column metrics that contradict themselves are not evidence: a file whose lower bound exceeds its
 * upper bound for a column, or whose null count exceeds its value count, keeps its rows in play
 * for predicates on that column (the placeholder bounds `min_val_N` / `max_val_N` of
 * duckdb-iceberg/moved_positional_delete_path are the real case; see filter-cases.ts).
 */
import t from 'tap';
import type { ContentFile } from '../../../src/iceberg/index.js';
import { InclusiveMetricsEvaluator } from '../../../src/planner/expressions/index.js';
import { dataFile, filter, p, schemaOf, T } from './projections-helpers.js';

const SCHEMA = schemaOf([1, 'id', T.int, true], [2, 's', T.string], [3, 'u', T.uuid], [4, 'd', T.double], [5, 'n', T.int]);

function evaluate(expr: ReturnType<typeof p>, file: ContentFile): { match: boolean; reported: number[][] } {
  const reported: number[][] = [];
  const match = new InclusiveMetricsEvaluator(SCHEMA, expr, true, { onContradiction: (_f, ids) => reported.push([...ids]) }).mightMatch(file);
  return { match, reported };
}

t.test('inverted bounds are ignored for that column only, and reported', async (t) => {
  const file = dataFile({
    records: 10,
    values: { 1: 10, 2: 10 },
    nulls: { 1: 0, 2: 0 },
    lower: { 1: [T.int, 5], 2: [T.string, 'min_val_1'] },
    upper: { 1: [T.int, 9], 2: [T.string, 'max_val_1'] },
  });
  t.same(evaluate(p('eq', 's', 'value_0'), file), { match: true, reported: [[2]] }, "'value_0' > both bounds, but the bounds prove nothing");
  t.same(evaluate(p('lt', 's', 'a'), file), { match: true, reported: [[2]] });
  t.same(evaluate(p('starts-with', 's', 'zz'), file), { match: true, reported: [[2]] });
  t.same(evaluate(p('eq', 'id', 20), file), { match: false, reported: [] }, "another column's sound bounds still prune");
  const both = filter({ type: 'and', left: { type: 'eq', term: 'id', value: 20 }, right: { type: 'eq', term: 's', value: 'x' } });
  t.same(evaluate(both, file).match, false, 'and: the sound column decides');
  t.same(evaluate(p('is-null', 's'), file), { match: true, reported: [[2]] }, "the column's counts go with its bounds: none of its metrics is evidence");
});

t.test('a null count above the value count is contradictory', async (t) => {
  const file = dataFile({ records: 10, values: { 5: 3 }, nulls: { 5: 7 }, lower: { 5: [T.int, 1] }, upper: { 5: [T.int, 2] } });
  t.same(evaluate(p('eq', 'n', 9), file), { match: true, reported: [[5]] });
  const sound = dataFile({ records: 10, values: { 5: 10 }, nulls: { 5: 7 }, lower: { 5: [T.int, 1] }, upper: { 5: [T.int, 2] } });
  t.same(evaluate(p('eq', 'n', 9), sound), { match: false, reported: [] }, 'nulls below values: the bounds prune');
});

t.test('equal bounds, NaN bounds, truncated strings and uuids in either order are not contradictions', async (t) => {
  const file = dataFile({
    records: 10,
    lower: { 1: [T.int, 4], 2: [T.string, 'abc'], 3: [T.uuid, '00000000-0000-0000-0000-000000000001'], 4: [T.double, NaN] },
    upper: { 1: [T.int, 4], 2: [T.string, 'abd'], 3: [T.uuid, 'f0000000-0000-0000-0000-000000000000'], 4: [T.double, 1] },
  });
  t.same(evaluate(p('eq', 'id', 5), file), { match: false, reported: [] });
  t.same(evaluate(p('eq', 's', 'zzz'), file), { match: false, reported: [] });
  t.same(evaluate(p('gt', 'd', 2), file).reported, [], 'a NaN bound is unknown, not contradictory');
  // f0… is below 00…01 in Java's signed order but above it in RFC byte order: a writer's order, not a contradiction
  t.same(evaluate(p('eq', 'u', '80000000-0000-0000-0000-000000000000'), file).reported, []);
  const inverted = dataFile({ records: 10, lower: { 3: [T.uuid, '70000000-0000-0000-0000-000000000000'] }, upper: { 3: [T.uuid, '10000000-0000-0000-0000-000000000000'] } });
  t.same(evaluate(p('eq', 'u', '20000000-0000-0000-0000-000000000000'), inverted), { match: true, reported: [[3]] }, 'inverted in both orders');
});
