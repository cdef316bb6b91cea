/**
 * Manifest pruning on partition summaries, with the schema, summaries and expectations of Java's
 * TestInclusiveManifestEvaluator (plus the newer unique-value, 200-literal and UUID-order rules of
 * ManifestEvaluator).
 */
import t from 'tap';
import { isoDateToDays, toBinary, type IcebergType, type ManifestFile, type PartitionFieldSummary } from '../../../src/iceberg/index.js';
import { ManifestEvaluator } from '../../../src/planner/expressions/index.js';
import { bucketOf } from '../../../src/planner/transforms/index.js';
import { filter, p, schemaOf, specOf, T } from './projections-helpers.js';

const SCHEMA = schemaOf(
  [1, 'id', T.int, true],
  [4, 'all_nulls_missing_nan', T.string],
  [5, 'some_nulls', T.string],
  [6, 'no_nulls', T.string],
  [7, 'float', T.float],
  [8, 'all_nulls_double', T.double],
  [9, 'all_nulls_no_nans', T.float],
  [10, 'all_nans', T.double],
  [11, 'both_nan_and_null', T.float],
  [12, 'no_nan_or_null', T.double],
  [13, 'all_nulls_missing_nan_float', T.float],
  [14, 'all_same_value_or_null', T.string],
  [15, 'no_nulls_same_value_a', T.string],
);
const SPEC = specOf(
  ...[1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((id) => [id, 'identity', SCHEMA.findField(id)!.name] as const),
);

const INT_MIN = 30;
const INT_MAX = 79;

function bytes(type: IcebergType, value: unknown): Uint8Array {
  return toBinary(type, value);
}

function summary(containsNull: boolean, containsNan: boolean | undefined, lower?: Uint8Array, upper?: Uint8Array): PartitionFieldSummary {
  return {
    containsNull,
    ...(containsNan !== undefined && { containsNan }),
    ...(lower !== undefined && { lowerBound: lower }),
    ...(upper !== undefined && { upperBound: upper }),
  };
}

function manifest(partitions?: PartitionFieldSummary[]): ManifestFile {
  return {
    path: 'manifest.avro',
    length: 1024n,
    specId: 0,
    content: 0,
    sequenceNumber: 1n,
    minSequenceNumber: 1n,
    addedSnapshotId: 1n,
    addedFilesCount: 5,
    existingFilesCount: 10,
    deletedFilesCount: 0,
    ...(partitions !== undefined && { partitions }),
  };
}

const FILE = manifest([
  summary(false, undefined, bytes(T.int, INT_MIN), bytes(T.int, INT_MAX)),
  summary(true, undefined),
  summary(true, undefined, bytes(T.string, 'a'), bytes(T.string, 'z')),
  summary(false, undefined, bytes(T.string, 'a'), bytes(T.string, 'z')),
  summary(false, undefined, bytes(T.float, 0), bytes(T.float, 20)),
  summary(true, undefined),
  summary(true, false),
  summary(false, true),
  summary(true, true),
  // a double field whose bounds were written as floats before a float → double promotion
  summary(false, false, bytes(T.float, 0), bytes(T.float, 20)),
  summary(true, undefined),
  summary(true, undefined, bytes(T.string, 'a'), bytes(T.string, 'a')),
  summary(false, undefined, bytes(T.string, 'a'), bytes(T.string, 'a')),
]);
const NO_STATS = manifest();

function read(expr: ReturnType<typeof filter>, caseSensitive = true, file: ManifestFile = FILE): boolean {
  return new ManifestEvaluator(SPEC, SCHEMA, expr, caseSensitive).mightMatch(file);
}

t.test('all-null columns (testAllNulls)', async (t) => {
  t.equal(read(p('not-null', 'all_nulls_missing_nan')), false, 'all nulls in a non-float column');
  t.equal(read(p('not-null', 'all_nulls_missing_nan_float')), true, 'no NaN information may hide a NaN');
  t.equal(read(p('not-null', 'some_nulls')), true);
  t.equal(read(p('not-null', 'no_nulls')), true);
  t.equal(read(p('starts-with', 'all_nulls_missing_nan', 'asad')), false);
  t.equal(read(p('not-starts-with', 'all_nulls_missing_nan', 'asad')), true);
});

t.test('null checks (testNoNulls)', async (t) => {
  t.equal(read(p('is-null', 'all_nulls_missing_nan')), true);
  t.equal(read(p('is-null', 'some_nulls')), true);
  t.equal(read(p('is-null', 'no_nulls')), false);
  t.equal(read(p('is-null', 'both_nan_and_null')), true);
});

t.test('is-nan (testIsNaN)', async (t) => {
  t.equal(read(p('is-nan', 'float')), true, 'NaN unknown');
  t.equal(read(p('is-nan', 'all_nulls_double')), true);
  t.equal(read(p('is-nan', 'all_nulls_missing_nan_float')), true);
  t.equal(read(p('is-nan', 'all_nulls_no_nans')), false);
  t.equal(read(p('is-nan', 'all_nans')), true);
  t.equal(read(p('is-nan', 'both_nan_and_null')), true);
  t.equal(read(p('is-nan', 'no_nan_or_null')), false);
});

t.test('not-nan (testNotNaN)', async (t) => {
  t.equal(read(p('not-nan', 'float')), true);
  t.equal(read(p('not-nan', 'all_nulls_double')), true);
  t.equal(read(p('not-nan', 'all_nulls_no_nans')), true);
  t.equal(read(p('not-nan', 'all_nans')), false);
  t.equal(read(p('not-nan', 'both_nan_and_null')), true);
  t.equal(read(p('not-nan', 'no_nan_or_null')), true);
});

t.test('a filter on an unknown column fails to bind (testMissingColumn)', async (t) => {
  t.throws(() => read(p('lt', 'missing', 5)), { code: 'INVALID_FILTER' });
  t.throws(() => read(filter({ type: 'not', child: { type: 'eq', term: 'ID', value: 5 } })), { code: 'INVALID_FILTER' });
});

t.test('a manifest without partition summaries is always read (testMissingStats)', async (t) => {
  const exprs = [
    p('lt', 'id', 5), p('lt-eq', 'id', 30), p('eq', 'id', 70), p('gt', 'id', 78), p('gt-eq', 'id', 90), p('not-eq', 'id', 101),
    p('is-null', 'id'), p('not-null', 'id'), p('starts-with', 'all_nulls_missing_nan', 'a'), p('is-nan', 'float'),
    p('not-nan', 'float'), p('not-starts-with', 'all_nulls_missing_nan', 'a'),
  ];
  for (const expr of exprs) t.equal(read(expr, true, NO_STATS), true);
});

t.test('not, and, or (testNot, testAnd, testOr)', async (t) => {
  t.equal(read(filter({ type: 'not', child: { type: 'lt', term: 'id', value: INT_MIN - 25 } })), true);
  t.equal(read(filter({ type: 'not', child: { type: 'gt', term: 'id', value: INT_MIN - 25 } })), false);
  const and = (l: unknown, r: unknown): ReturnType<typeof filter> => filter({ type: 'and', left: l, right: r });
  const or = (l: unknown, r: unknown): ReturnType<typeof filter> => filter({ type: 'or', left: l, right: r });
  const j = (type: string, value: number): unknown => ({ type, term: 'id', value });
  t.equal(read(and(j('lt', INT_MIN - 25), j('gt-eq', INT_MIN - 30))), false);
  t.equal(read(and(j('lt', INT_MIN - 25), j('gt-eq', INT_MAX + 1))), false);
  t.equal(read(and(j('gt', INT_MIN - 25), j('lt-eq', INT_MIN))), true);
  t.equal(read(or(j('lt', INT_MIN - 25), j('gt-eq', INT_MAX + 1))), false);
  t.equal(read(or(j('lt', INT_MIN - 25), j('gt-eq', INT_MAX - 19))), true);
});

t.test('integer comparisons against [30, 79] (testIntegerLt … testIntegerNotEqRewritten)', async (t) => {
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
    t.equal(read(filter({ type: 'not', child: { type: 'eq', term: 'id', value } })), true, `not(eq ${value})`);
    t.equal(read(filter({ type: 'not', child: { type: 'eq', term: 'ID', value } }), false), true, `case-insensitive not(eq ${value})`);
  }
});

t.test('starts-with and not-starts-with on string summaries (testStringStartsWith, testStringNotStartsWith)', async (t) => {
  const starts: Array<[string, string, boolean]> = [
    ['some_nulls', 'a', true], ['some_nulls', 'aa', true], ['some_nulls', 'dddd', true], ['some_nulls', 'z', true],
    ['no_nulls', 'a', true], ['some_nulls', 'zzzz', false], ['some_nulls', '1', false],
  ];
  for (const [column, prefix, expected] of starts) t.equal(read(p('starts-with', column, prefix), false), expected, `${column} starts-with ${prefix}`);
  const notStarts: Array<[string, string, boolean]> = [
    ['some_nulls', 'a', true], ['some_nulls', 'aa', true], ['some_nulls', 'dddd', true], ['some_nulls', 'z', true],
    ['no_nulls', 'a', true], ['some_nulls', 'zzzz', true], ['some_nulls', '1', true],
    ['all_same_value_or_null', 'a', true], ['all_same_value_or_null', 'aa', true], ['all_same_value_or_null', 'A', true],
    ['all_nulls_missing_nan', 'A', true], ['no_nulls_same_value_a', 'a', false],
  ];
  for (const [column, prefix, expected] of notStarts) t.equal(read(p('not-starts-with', column, prefix), false), expected, `${column} not-starts-with ${prefix}`);
});

t.test('in and not-in (testIntegerIn, testIntegerNotIn)', async (t) => {
  const inCases: Array<[string, unknown[], boolean]> = [
    ['id', [INT_MIN - 25, INT_MIN - 24], false], ['id', [INT_MIN - 2, INT_MIN - 1], false], ['id', [INT_MIN - 1, INT_MIN], true],
    ['id', [INT_MAX - 4, INT_MAX - 3], true], ['id', [INT_MAX, INT_MAX + 1], true], ['id', [INT_MAX + 1, INT_MAX + 2], false],
    ['id', [INT_MAX + 6, INT_MAX + 7], false], ['all_nulls_missing_nan', ['abc', 'def'], false],
    ['some_nulls', ['abc', 'def'], true], ['no_nulls', ['abc', 'def'], true],
  ];
  for (const [column, values, expected] of inCases) {
    t.equal(read(p('in', column, values)), expected, `${column} in ${values.join(',')}`);
    t.equal(read(p('not-in', column, values)), true, `${column} not-in ${values.join(',')}`);
  }
});

t.test('more than 200 in-values are not checked against bounds', async (t) => {
  const below = Array.from({ length: 201 }, (_, i) => -i);
  t.equal(read(p('in', 'id', below)), true);
  t.equal(read(p('in', 'id', below.slice(0, 200))), false);
  t.equal(read(p('in', 'all_nulls_missing_nan', Array.from({ length: 300 }, (_, i) => `v${i}`))), false, 'all null still prunes');
});

t.test('not-eq and not-in prune when the manifest holds a single value (ManifestEvaluator.uniqueValue)', async (t) => {
  t.equal(read(p('not-eq', 'no_nulls_same_value_a', 'a')), false);
  t.equal(read(p('not-eq', 'no_nulls_same_value_a', 'b')), true);
  t.equal(read(p('not-in', 'no_nulls_same_value_a', ['a', 'b'])), false);
  t.equal(read(p('not-eq', 'all_same_value_or_null', 'a')), true, 'a null value satisfies not-eq');
  const schema = schemaOf([1, 'd', T.double]);
  const spec = specOf([1, 'identity', 'd']);
  const one = (containsNan: boolean | undefined): ManifestFile =>
    manifest([summary(false, containsNan, bytes(T.double, 2), bytes(T.double, 2))]);
  const eval2 = (m: ManifestFile): boolean => new ManifestEvaluator(spec, schema, p('not-eq', 'd', 2)).mightMatch(m);
  t.equal(eval2(one(false)), false, 'no NaN: the only value is 2');
  t.equal(eval2(one(undefined)), true, 'NaN unknown');
  t.equal(eval2(one(true)), true, 'a NaN satisfies not-eq');
});

t.test('bounds of transformed partition fields are compared in the result type', async (t) => {
  const schema = schemaOf([1, 'ts', T.timestamp], [2, 'id', T.long]);
  const spec = specOf([1, 'day', 'ts_day'], [2, 'bucket[16]', 'id_bucket']);
  const b7 = bucketOf(16, T.long, 7n);
  const other = [8n, 9n, 10n, 11n, 12n].find((v) => bucketOf(16, T.long, v) !== b7)!;
  const m = manifest([
    summary(false, undefined, bytes(T.date, isoDateToDays('2024-01-01')), bytes(T.date, isoDateToDays('2024-01-03'))),
    summary(false, undefined, bytes(T.int, b7), bytes(T.int, b7)),
  ]);
  const ev = (expr: ReturnType<typeof filter>): boolean => new ManifestEvaluator(spec, schema, expr).mightMatch(m);
  t.equal(ev(p('gt', 'ts', '2024-01-03T23:59:59')), true);
  t.equal(ev(p('gt-eq', 'ts', '2024-01-04T00:00:00')), false);
  t.equal(ev(p('lt', 'ts', '2024-01-01T00:00:00')), false);
  t.equal(ev(p('eq', 'id', 7)), true, 'the literal hashes into the only bucket');
  t.equal(ev(p('eq', 'id', Number(other))), false, 'the literal hashes elsewhere');
});

t.test('UUID bounds: pruned only when both the RFC and the legacy signed order rule the value out', async (t) => {
  const schema = schemaOf([1, 'u', T.uuid]);
  const spec = specOf([1, 'identity', 'u']);
  // bounds ordered by Java's signed compareTo: 0x80… (negative) < 0x7f… (positive)
  const signed = manifest([summary(false, undefined, bytes(T.uuid, '80000000-0000-0000-0000-000000000000'), bytes(T.uuid, '7fffffff-0000-0000-0000-000000000000'))]);
  const rfc = manifest([summary(false, undefined, bytes(T.uuid, '10000000-0000-0000-0000-000000000000'), bytes(T.uuid, '20000000-0000-0000-0000-000000000000'))]);
  const ev = (m: ManifestFile, op: string, v: unknown): boolean => new ManifestEvaluator(spec, schema, p(op, 'u', v)).mightMatch(m);
  t.equal(ev(signed, 'eq', '00000000-0000-0000-0000-000000000001'), true, 'inside the signed range');
  t.equal(ev(signed, 'in', ['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002']), true);
  t.equal(ev(rfc, 'eq', '15000000-0000-0000-0000-000000000000'), true);
  t.equal(ev(rfc, 'eq', '30000000-0000-0000-0000-000000000000'), false, 'outside in both orders');
  t.equal(ev(rfc, 'lt', '05000000-0000-0000-0000-000000000000'), false);
});
