/**
 * File pruning on column metrics, with the schema, files and expectations of Java's
 * TestInclusiveMetricsEvaluator and TestMetricsEvaluatorsNaNHandling (plus the newer
 * unique-value and transform-term rules of InclusiveEvalVisitor).
 */
import t from 'tap';
import { type ContentFile } from '../../../src/iceberg/index.js';
import { jsonFloat } from '../../../src/json/index.js';
import { InclusiveMetricsEvaluator } from '../../../src/planner/expressions/index.js';
import { dataFile, filter, p, schemaOf, T, transformTerm } from './projections-helpers.js';

const SCHEMA = schemaOf(
  [1, 'id', T.int, true],
  [2, 'no_stats', T.int],
  [3, 'required', T.string, true],
  [4, 'all_nulls', T.string],
  [5, 'some_nulls', T.string],
  [6, 'no_nulls', T.string],
  [7, 'all_nans', T.double],
  [8, 'some_nans', T.float],
  [9, 'no_nans', T.float],
  [10, 'all_nulls_double', T.double],
  [11, 'all_nans_v1_stats', T.float],
  [12, 'nan_and_null_only', T.double],
  [13, 'no_nan_stats', T.double],
  [14, 'some_empty', T.string],
);

const INT_MIN = 30;
const INT_MAX = 79;

const FILE = dataFile({
  records: 50,
  values: { 4: 50, 5: 50, 6: 50, 7: 50, 8: 50, 9: 50, 10: 50, 11: 50, 12: 50, 13: 50, 14: 50 },
  nulls: { 4: 50, 5: 10, 6: 0, 10: 50, 11: 0, 12: 1, 14: 0 },
  nans: { 7: 50, 8: 10, 9: 0 },
  lower: { 1: [T.int, INT_MIN], 11: [T.float, NaN], 12: [T.double, NaN], 14: [T.string, ''] },
  upper: { 1: [T.int, INT_MAX], 11: [T.float, NaN], 12: [T.double, NaN], 14: [T.string, '房东整租霍营小区二层两居室'] },
});
const FILE_2 = dataFile({ records: 50, values: { 3: 20 }, nulls: { 3: 2 }, lower: { 3: [T.string, 'aa'] }, upper: { 3: [T.string, 'dC'] } });
const FILE_3 = dataFile({ records: 50, values: { 3: 20 }, nulls: { 3: 2 }, lower: { 3: [T.string, '1str1'] }, upper: { 3: [T.string, '3str3'] } });
const FILE_4 = dataFile({ records: 50, values: { 3: 20 }, nulls: { 3: 2 }, lower: { 3: [T.string, 'abc'] }, upper: { 3: [T.string, 'イロハニホヘト'] } });

function read(expr: ReturnType<typeof filter>, file: ContentFile = FILE, caseSensitive = true): boolean {
  return new InclusiveMetricsEvaluator(SCHEMA, expr, caseSensitive).mightMatch(file);
}

t.test('all-null columns (testAllNulls)', async (t) => {
  t.equal(read(p('not-null', 'all_nulls')), false);
  for (const op of ['lt', 'lt-eq', 'gt', 'gt-eq', 'eq', 'starts-with']) t.equal(read(p(op, 'all_nulls', 'a')), false, op);
  t.equal(read(p('not-starts-with', 'all_nulls', 'a')), true);
  t.equal(read(p('not-null', 'some_nulls')), true);
  t.equal(read(p('not-null', 'no_nulls')), true);
});

t.test('is-null (testNoNulls, testRequiredColumn)', async (t) => {
  t.equal(read(p('is-null', 'all_nulls')), true);
  t.equal(read(p('is-null', 'some_nulls')), true);
  t.equal(read(p('is-null', 'no_nulls')), false);
  t.equal(read(p('not-null', 'required')), true);
  t.equal(read(p('is-null', 'required')), false, 'a required column is never null');
});

t.test('is-nan and not-nan (testIsNaN, testNotNaN)', async (t) => {
  const isNaN: Array<[string, boolean]> = [
    ['all_nans', true], ['some_nans', true], ['no_nans', false], ['all_nulls_double', false],
    ['no_nan_stats', true], ['all_nans_v1_stats', true], ['nan_and_null_only', true],
  ];
  for (const [column, expected] of isNaN) t.equal(read(p('is-nan', column)), expected, `is-nan ${column}`);
  const notNaN: Array<[string, boolean]> = [
    ['all_nans', false], ['some_nans', true], ['no_nans', true], ['all_nulls_double', true],
    ['no_nan_stats', true], ['all_nans_v1_stats', true], ['nan_and_null_only', true],
  ];
  for (const [column, expected] of notNaN) t.equal(read(p('not-nan', column)), expected, `not-nan ${column}`);
});

t.test('unknown columns fail to bind; missing stats and empty files (testMissingColumn, testMissingStats, testZeroRecordFile)', async (t) => {
  t.throws(() => read(p('lt', 'missing', 5)), { code: 'INVALID_FILTER' });
  t.throws(() => read(filter({ type: 'not', child: { type: 'eq', term: 'ID', value: 5 } })), { code: 'INVALID_FILTER' });
  const missing = dataFile({ records: 50 });
  const noStats = [
    p('lt', 'no_stats', 5), p('lt-eq', 'no_stats', 30), p('eq', 'no_stats', 70), p('gt', 'no_stats', 78), p('gt-eq', 'no_stats', 90),
    p('not-eq', 'no_stats', 101), p('is-null', 'no_stats'), p('not-null', 'no_stats'), p('is-nan', 'some_nans'), p('not-nan', 'some_nans'),
  ];
  for (const expr of noStats) t.equal(read(expr, missing), true);
  const empty = dataFile({ records: 0 });
  const onEmpty = [
    p('lt', 'id', 5), p('lt-eq', 'id', 30), p('eq', 'id', 70), p('gt', 'id', 78), p('gt-eq', 'id', 90), p('not-eq', 'id', 101),
    p('is-null', 'some_nulls'), p('not-null', 'some_nulls'), p('is-nan', 'some_nans'), p('not-nan', 'some_nans'),
  ];
  for (const expr of onEmpty) t.equal(read(expr, empty), false, 'a 0-record file is never read');
  t.equal(read(p('eq', 'id', 5), dataFile({ records: -1, lower: { 1: [T.int, 30] } })), true, 'a negative record count says nothing');
});

t.test('not, and, or (testNot, testAnd, testOr)', async (t) => {
  const j = (type: string, value: number): unknown => ({ type, term: 'id', value });
  t.equal(read(filter({ type: 'not', child: j('lt', INT_MIN - 25) })), true);
  t.equal(read(filter({ type: 'not', child: j('gt', INT_MIN - 25) })), false);
  t.equal(read(filter({ type: 'and', left: j('lt', INT_MIN - 25), right: j('gt-eq', INT_MIN - 30) })), false);
  t.equal(read(filter({ type: 'and', left: j('lt', INT_MIN - 25), right: j('gt-eq', INT_MAX + 1) })), false);
  t.equal(read(filter({ type: 'and', left: j('gt', INT_MIN - 25), right: j('lt-eq', INT_MIN) })), true);
  t.equal(read(filter({ type: 'or', left: j('lt', INT_MIN - 25), right: j('gt-eq', INT_MAX + 1) })), false);
  t.equal(read(filter({ type: 'or', left: j('lt', INT_MIN - 25), right: j('gt-eq', INT_MAX - 19) })), true);
});

t.test('integer comparisons against [30, 79] (testIntegerLt … testCaseInsensitiveIntegerNotEqRewritten)', async (t) => {
  const cases: Array<[string, number, boolean]> = [
    ['lt', INT_MIN - 25, false], ['lt', INT_MIN, false], ['lt', INT_MIN + 1, true], ['lt', INT_MAX, true],
    ['lt-eq', INT_MIN - 25, false], ['lt-eq', INT_MIN - 1, false], ['lt-eq', INT_MIN, true], ['lt-eq', INT_MAX, true],
    ['gt', INT_MAX + 6, false], ['gt', INT_MAX, false], ['gt', INT_MAX - 1, true], ['gt', INT_MAX - 4, true],
    ['gt-eq', INT_MAX + 6, false], ['gt-eq', INT_MAX + 1, false], ['gt-eq', INT_MAX, true], ['gt-eq', INT_MAX - 4, true],
    ['eq', INT_MIN - 25, false], ['eq', INT_MIN - 1, false], ['eq', INT_MIN, true], ['eq', INT_MAX - 4, true],
    ['eq', INT_MAX, true], ['eq', INT_MAX + 1, false], ['eq', INT_MAX + 6, false],
  ];
  for (const [op, value, expected] of cases) t.equal(read(p(op, 'id', value)), expected, `${op} ${value}`);
  for (const value of [INT_MIN - 25, INT_MIN - 1, INT_MIN, INT_MAX - 4, INT_MAX, INT_MAX + 1, INT_MAX + 6]) {
    t.equal(read(p('not-eq', 'id', value)), true, `not-eq ${value}`);
    t.equal(read(filter({ type: 'not', child: { type: 'eq', term: 'id', value } })), true);
    t.equal(read(filter({ type: 'not', child: { type: 'eq', term: 'ID', value } }), FILE, false), true);
  }
});

t.test('starts-with against possibly truncated string bounds (testStringStartsWith)', async (t) => {
  // UnicodeUtil.truncateStringMax("イロハニホヘト", 4): the 4th code point incremented
  const aboveMax = 'イロハヌ';
  const cases: Array<[string, string, ContentFile, boolean]> = [
    ['required', 'a', FILE, true], ['required', 'a', FILE_2, true], ['required', 'aa', FILE_2, true], ['required', 'aaa', FILE_2, true],
    ['required', '1s', FILE_3, true], ['required', '1str1x', FILE_3, true], ['required', 'ff', FILE_4, true],
    ['required', 'aB', FILE_2, false], ['required', 'dWX', FILE_2, false], ['required', '5', FILE_3, false],
    ['required', '3str3x', FILE_3, false], ['some_empty', '房东整租霍', FILE, true], ['all_nulls', '', FILE, false],
    ['required', aboveMax, FILE_4, false],
  ];
  for (const [column, prefix, file, expected] of cases) t.equal(read(p('starts-with', column, prefix), file), expected, `${column} starts-with ${prefix}`);
});

t.test('not-starts-with (testStringNotStartsWith)', async (t) => {
  const cases: Array<[string, ContentFile]> = [
    ['a', FILE], ['a', FILE_2], ['aa', FILE_2], ['aaa', FILE_2], ['1s', FILE_3], ['1str1x', FILE_3], ['ff', FILE_4],
    ['aB', FILE_2], ['dWX', FILE_2], ['5', FILE_3], ['3str3x', FILE_3], ['イロハヌ', FILE_4],
  ];
  for (const [prefix, file] of cases) t.equal(read(p('not-starts-with', 'required', prefix), file), true, `not-starts-with ${prefix}`);
  const allPrefixed = dataFile({ records: 5, values: { 6: 5 }, nulls: { 6: 0 }, lower: { 6: [T.string, 'abc'] }, upper: { 6: [T.string, 'abd'] } });
  t.equal(read(p('not-starts-with', 'no_nulls', 'ab'), allPrefixed), false, 'both bounds start with the prefix, no nulls');
  t.equal(read(p('not-starts-with', 'no_nulls', 'abc'), allPrefixed), true);
});

t.test('in and not-in (testIntegerIn, testIntegerNotIn)', async (t) => {
  const cases: Array<[string, unknown[], boolean]> = [
    ['id', [INT_MIN - 25, INT_MIN - 24], false], ['id', [INT_MIN - 2, INT_MIN - 1], false], ['id', [INT_MIN - 1, INT_MIN], true],
    ['id', [INT_MAX - 4, INT_MAX - 3], true], ['id', [INT_MAX, INT_MAX + 1], true], ['id', [INT_MAX + 1, INT_MAX + 2], false],
    ['id', [INT_MAX + 6, INT_MAX + 7], false], ['all_nulls', ['abc', 'def'], false], ['some_nulls', ['abc', 'def'], true],
    ['no_nulls', ['abc', 'def'], true],
  ];
  for (const [column, values, expected] of cases) {
    t.equal(read(p('in', column, values)), expected, `${column} in ${values.join(',')}`);
    t.equal(read(p('not-in', column, values)), true, `${column} not-in ${values.join(',')}`);
  }
  const large = Array.from({ length: 401 }, (_, i) => i - 400);
  t.equal(read(p('in', 'id', large)), true, 'more than 200 values are not checked');
});

t.test('NaN bounds and NaN counts (TestMetricsEvaluatorsNaNHandling)', async (t) => {
  const schema = schemaOf(
    [1, 'all_nan', T.double, true], [2, 'max_nan', T.double, true], [3, 'min_max_nan', T.float],
    [4, 'all_nan_null_bounds', T.double, true], [5, 'some_nan_correct_bounds', T.float],
  );
  const file = dataFile({
    records: 50,
    values: { 1: 10, 2: 10, 3: 10, 4: 10, 5: 10 },
    nulls: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
    nans: { 1: 10, 4: 10, 5: 5 },
    lower: { 1: [T.double, NaN], 2: [T.double, 7], 3: [T.float, NaN], 5: [T.float, 7] },
    upper: { 1: [T.double, NaN], 2: [T.double, NaN], 3: [T.float, NaN], 5: [T.float, 22] },
  });
  const ev = (op: string, column: string, value: unknown): boolean => new InclusiveMetricsEvaluator(schema, p(op, column, value)).mightMatch(file);
  const f = jsonFloat;
  for (const op of ['lt', 'lt-eq']) {
    t.equal(ev(op, 'all_nan', f(1)), false, `${op}: all NaN`);
    t.equal(ev(op, 'max_nan', f(1)), false, `${op}: 1 below the lower bound`);
    t.equal(ev(op, 'max_nan', f(10)), true);
    t.equal(ev(op, 'min_max_nan', f(1)), true, `${op}: a NaN lower bound says nothing`);
    t.equal(ev(op, 'all_nan_null_bounds', f(1)), false);
    t.equal(ev(op, 'some_nan_correct_bounds', f(1)), false);
    t.equal(ev(op, 'some_nan_correct_bounds', f(10)), true);
  }
  for (const op of ['gt', 'gt-eq']) {
    t.equal(ev(op, 'all_nan', f(1)), false);
    t.equal(ev(op, 'max_nan', f(1)), true);
    t.equal(ev(op, 'max_nan', f(10)), true);
    t.equal(ev(op, 'min_max_nan', f(1)), true);
    t.equal(ev(op, 'all_nan_null_bounds', f(1)), false);
    t.equal(ev(op, 'some_nan_correct_bounds', f(1)), true);
    t.equal(ev(op, 'some_nan_correct_bounds', f(10)), true);
    t.equal(ev(op, 'some_nan_correct_bounds', 30), false);
  }
  t.equal(ev('eq', 'all_nan', f(1)), false);
  t.equal(ev('eq', 'max_nan', f(1)), false);
  t.equal(ev('eq', 'max_nan', f(10)), true);
  t.equal(ev('eq', 'min_max_nan', f(1)), true);
  t.equal(ev('eq', 'all_nan_null_bounds', f(1)), false);
  t.equal(ev('eq', 'some_nan_correct_bounds', f(1)), false);
  t.equal(ev('eq', 'some_nan_correct_bounds', f(10)), true);
  t.equal(ev('eq', 'some_nan_correct_bounds', 30), false);
  for (const [column, v] of [['all_nan', f(1)], ['max_nan', f(1)], ['max_nan', f(10)], ['min_max_nan', f(1)], ['all_nan_null_bounds', f(1)],
    ['some_nan_correct_bounds', f(1)], ['some_nan_correct_bounds', f(10)], ['some_nan_correct_bounds', 30]] as const) {
    t.equal(ev('not-eq', column, v), true, `not-eq ${column}`);
    t.equal(ev('not-in', column, [v]), true, `not-in ${column}`);
  }
  t.equal(ev('in', 'all_nan', [f(1), f(10), f(30)]), false);
  t.equal(ev('in', 'max_nan', [f(1), f(10), f(30)]), true);
  t.equal(ev('in', 'min_max_nan', [f(1), f(10), f(30)]), true);
  t.equal(ev('in', 'all_nan_null_bounds', [f(1), f(10), f(30)]), false);
  t.equal(ev('in', 'some_nan_correct_bounds', [f(1), f(10), f(30)]), true);
  t.equal(ev('in', 'some_nan_correct_bounds', [f(1), f(30)]), false);
});

t.test('not-eq and not-in prune a file that holds one value and no null or NaN (InclusiveEvalVisitor.uniqueValue)', async (t) => {
  const single = dataFile({ records: 5, values: { 1: 5, 6: 5 }, nulls: { 6: 0 }, lower: { 1: [T.int, 42], 6: [T.string, 'x'] }, upper: { 1: [T.int, 42], 6: [T.string, 'x'] } });
  t.equal(read(p('not-eq', 'id', 42), single), true, 'no null count for id: a null is possible');
  t.equal(read(p('not-eq', 'no_nulls', 'x'), single), false);
  t.equal(read(p('not-in', 'no_nulls', ['x', 'y']), single), false);
  t.equal(read(p('not-in', 'no_nulls', ['y', 'z']), single), true);
  const floats = (nans: number | undefined): ContentFile =>
    dataFile({ records: 5, nulls: { 9: 0 }, ...(nans !== undefined && { nans: { 9: nans } }), lower: { 9: [T.float, 1] }, upper: { 9: [T.float, 1] } });
  t.equal(read(p('not-eq', 'no_nans', jsonFloat(1)), floats(0)), false);
  t.equal(read(p('not-eq', 'no_nans', jsonFloat(1)), floats(undefined)), true, 'NaN count unknown');
});

t.test('bounds written before a type promotion are read at their old width', async (t) => {
  const schema = schemaOf([1, 'l', T.long], [2, 'd', T.double]);
  const file = dataFile({ records: 5, lower: { 1: [T.int, 10], 2: [T.float, 1.5] }, upper: { 1: [T.int, 20], 2: [T.float, 2.5] } });
  const ev = (op: string, column: string, v: unknown): boolean => new InclusiveMetricsEvaluator(schema, p(op, column, v)).mightMatch(file);
  t.equal(ev('gt', 'l', 20), false);
  t.equal(ev('gt', 'l', 19), true);
  t.equal(ev('lt', 'd', jsonFloat(1.5)), false);
  t.equal(ev('lt', 'd', jsonFloat(1.75)), true);
});

t.test('transform terms use f(lower) and f(upper) only for order-preserving transforms', async (t) => {
  const schema = schemaOf([1, 'ts', T.timestamp], [2, 's', T.string], [3, 'id', T.long]);
  const file = dataFile({
    records: 5,
    values: { 1: 5, 2: 5, 3: 5 },
    nulls: { 1: 0, 2: 0, 3: 0 },
    lower: { 1: [T.timestamp, 1704103200000000n], 2: [T.string, 'apple'], 3: [T.long, 1n] }, // 2024-01-01T10:00
    upper: { 1: [T.timestamp, 1704276000000000n], 2: [T.string, 'apricot'], 3: [T.long, 1000n] }, // 2024-01-03T10:00
  });
  const ev = (expr: ReturnType<typeof filter>): boolean => new InclusiveMetricsEvaluator(schema, expr).mightMatch(file);
  t.equal(ev(p('eq', transformTerm('day', 'ts'), '2024-01-02')), true);
  t.equal(ev(p('eq', transformTerm('day', 'ts'), '2024-01-04')), false, 'after day(upper)');
  t.equal(ev(p('lt', transformTerm('day', 'ts'), '2024-01-01')), false, 'before day(lower)');
  t.equal(ev(p('eq', transformTerm('truncate[2]', 's'), 'ap')), true);
  t.equal(ev(p('eq', transformTerm('truncate[2]', 's'), 'zz')), false);
  t.equal(ev(p('not-starts-with', transformTerm('truncate[3]', 's'), 'ap')), false, 'truncate(lower) and truncate(upper) both start with ap');
  t.equal(ev(p('starts-with', transformTerm('truncate[3]', 's'), 'zz')), true, 'starts-with on a transform is not checked');
  t.equal(ev(p('eq', transformTerm('bucket[16]', 'id'), 0)), true, 'bucket does not preserve order');
  t.equal(ev(p('is-null', transformTerm('bucket[16]', 'id'))), true, 'is-null through bucket is not checked');
  t.equal(ev(p('is-null', transformTerm('day', 'ts'))), false, 'day maps non-null to non-null');
});

t.test('UUID bounds: pruned only when both the RFC and the legacy signed order rule the value out', async (t) => {
  const schema = schemaOf([1, 'u', T.uuid]);
  const signedBounds = dataFile({
    records: 5,
    lower: { 1: [T.uuid, '80000000-0000-0000-0000-000000000000'] },
    upper: { 1: [T.uuid, '7fffffff-0000-0000-0000-000000000000'] },
  });
  const ev = (op: string, v: unknown): boolean => new InclusiveMetricsEvaluator(schema, p(op, 'u', v)).mightMatch(signedBounds);
  t.equal(ev('eq', '00000000-0000-0000-0000-000000000001'), true);
  t.equal(ev('gt', 'ffffffff-0000-0000-0000-000000000000'), true, 'below the upper bound in the signed order');
  const rfcBounds = dataFile({
    records: 5,
    lower: { 1: [T.uuid, '10000000-0000-0000-0000-000000000000'] },
    upper: { 1: [T.uuid, '20000000-0000-0000-0000-000000000000'] },
  });
  t.equal(new InclusiveMetricsEvaluator(schema, p('eq', 'u', '30000000-0000-0000-0000-000000000000')).mightMatch(rfcBounds), false);
});
