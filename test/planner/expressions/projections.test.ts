/**
 * Identity, bucket and truncate projections and the projection walk itself, with cases from
 * Java's TestProjection, TestBucketingProjection, TestTruncatesProjection, TestStartsWith and
 * TestNotStartsWith (expected values copied from those tests).
 */
import t from 'tap';
import { hexUpper, partitionType, type Expression, type UnboundPredicate } from '../../../src/iceberg/index.js';
import { jsonFloat } from '../../../src/json/index.js';
import { bind, inclusiveProjection, strictProjection } from '../../../src/planner/expressions/index.js';
import { describeProjection, filter, p, schemaOf, specOf, T, transformTerm, type Column } from './projections-helpers.js';

t.test('identity projects every operation unchanged, inclusive and strict (TestProjection)', async (t) => {
  const schema = schemaOf([16, 'id', T.long]);
  const spec = specOf([16, 'identity', 'id']);
  const cases: Array<[string, number | undefined]> = [
    ['not-null', undefined], ['is-null', undefined], ['lt', 100], ['lt-eq', 101], ['gt', 102], ['gt-eq', 103], ['eq', 104], ['not-eq', 105],
  ];
  for (const project of [inclusiveProjection, strictProjection]) {
    for (const [op, value] of cases) {
      const projected = project(p(op, 'id', value), spec, schema) as UnboundPredicate;
      t.equal(projected.term.kind === 'ref' && projected.term.name, 'id', `${op}: named after the partition field`);
      t.same(describeProjection(projected, 'identity'), [op, value === undefined ? '' : String(value)], `${project.name} ${op}`);
    }
    t.same(describeProjection(project(p('in', 'id', [1, 2]), spec, schema), 'identity'), ['in', '[1, 2]']);
    t.same(describeProjection(project(p('not-in', 'id', [1, 2]), spec, schema), 'identity'), ['not-in', '[1, 2]']);
  }
});

t.test('column names resolve case-insensitively only when asked (TestProjection)', async (t) => {
  const schema = schemaOf([16, 'id', T.long]);
  const spec = specOf([16, 'identity', 'id']);
  t.same(describeProjection(inclusiveProjection(p('lt', 'ID', 100), spec, schema, false), 'identity'), ['lt', '100']);
  t.same(describeProjection(strictProjection(p('not-null', 'ID'), spec, schema, false), 'identity'), ['not-null', '']);
  for (const project of [inclusiveProjection, strictProjection]) {
    t.throws(() => project(p('not-null', 'ID'), spec, schema, true), { code: 'INVALID_FILTER' });
  }
});

t.test('a filter mixing partition and data columns keeps only the partition parts (testBadSparkPartitionFilter)', async (t) => {
  const schema = schemaOf([1, 'id', T.long, true], [2, 'data', T.string], [3, 'hour', T.int, true], [4, 'dateint', T.int, true]);
  const spec = specOf([4, 'identity', 'dateint']);
  const expr = filter({
    type: 'or',
    left: { type: 'eq', term: 'dateint', value: 20180416 },
    right: {
      type: 'or',
      left: { type: 'and', left: { type: 'eq', term: 'dateint', value: 20180415 }, right: { type: 'gt-eq', term: 'hour', value: 20 } },
      right: { type: 'and', left: { type: 'eq', term: 'dateint', value: 20180417 }, right: { type: 'lt-eq', term: 'hour', value: 4 } },
    },
  });
  const projected = inclusiveProjection(expr, spec, schema) as { kind: string; left: Expression; right: { kind: string; left: Expression; right: Expression } };
  t.equal(projected.kind, 'or');
  t.same(describeProjection(projected.left, 'identity'), ['eq', '20180416']);
  t.equal(projected.right.kind, 'or');
  t.same(describeProjection(projected.right.left, 'identity'), ['eq', '20180415']);
  t.same(describeProjection(projected.right.right, 'identity'), ['eq', '20180417']);
});

interface BucketCase {
  readonly type: Column[2];
  readonly value: unknown;
  readonly bucket: string;
  readonly set: readonly unknown[];
  readonly buckets: string;
}

// TestBucketingProjection: bucket[10] of each value, as the Java test states it
const bucketCases: Record<string, BucketCase> = {
  int: { type: T.int, value: 100, bucket: '6', set: [99, 100, 101], buckets: '[6, 7, 8]' },
  long: { type: T.long, value: 100, bucket: '6', set: [99, 100, 101], buckets: '[6, 7, 8]' },
  decimal: { type: T.decimal(9, 2), value: '100.00', bucket: '2', set: ['101.00', '100.00', '99.00'], buckets: '[2, 2, 6]' },
  string: { type: T.string, value: 'abcdefg', bucket: '4', set: ['abcdefg', 'abcdefgabc'], buckets: '[4, 9]' },
  binary: { type: T.binary, value: hex('abcdefg'), bucket: '4', set: [hex('abcdefg'), hex('abcdehij')], buckets: '[4, 6]' },
  uuid: {
    type: T.uuid,
    value: '00000000-0000-007b-0000-0000000001c8', // new UUID(123L, 456L)
    bucket: '4',
    set: ['00000000-0000-007b-0000-0000000001c8', '00000000-0000-01c8-0000-00000000007b'],
    buckets: '[4, 6]',
  },
};

function hex(s: string): string {
  return hexUpper(new TextEncoder().encode(s));
}

for (const [name, c] of Object.entries(bucketCases)) {
  t.test(`bucket[10] of a ${name} column: only equality projects inclusively, only inequality strictly`, async (t) => {
    const schema = schemaOf([1, 'value', c.type]);
    const spec = specOf([1, 'bucket[10]', 'value_bucket']);
    const inc = (op: string, v: unknown): [string, string] => describeProjection(inclusiveProjection(p(op, 'value', v), spec, schema), 'bucket');
    const str = (op: string, v: unknown): [string, string] => describeProjection(strictProjection(p(op, 'value', v), spec, schema), 'bucket');
    t.same(inc('eq', c.value), ['eq', c.bucket]);
    for (const op of ['not-eq', 'lt', 'lt-eq', 'gt', 'gt-eq']) t.same(inc(op, c.value), ['true', ''], `inclusive ${op}`);
    t.same(inc('in', c.set), ['in', c.buckets]);
    t.same(inc('not-in', c.set), ['true', '']);
    t.same(str('not-eq', c.value), ['not-eq', c.bucket]);
    for (const op of ['eq', 'lt', 'lt-eq', 'gt', 'gt-eq']) t.same(str(op, c.value), ['false', ''], `strict ${op}`);
    t.same(str('not-in', c.set), ['not-in', c.buckets]);
    t.same(str('in', c.set), ['false', '']);
  });
}

interface TruncateCase {
  readonly type: Column[2];
  readonly width: number;
  readonly value: unknown;
  readonly set: readonly unknown[];
  readonly inclusive: Record<string, readonly [string, string]>;
  readonly strict: Record<string, readonly [string, string]>;
}

// TestTruncatesProjection, lower-bound and upper-bound values
const truncateCases: Record<string, TruncateCase> = {
  'int 100': {
    type: T.int, width: 10, value: 100, set: [99, 100, 101],
    inclusive: { lt: ['lt-eq', '90'], 'lt-eq': ['lt-eq', '100'], gt: ['gt-eq', '100'], 'gt-eq': ['gt-eq', '100'], eq: ['eq', '100'], 'not-eq': ['true', ''], in: ['in', '[90, 100, 100]'], 'not-in': ['true', ''] },
    strict: { lt: ['lt', '100'], 'lt-eq': ['lt', '100'], gt: ['gt', '100'], 'gt-eq': ['gt', '90'], 'not-eq': ['not-eq', '100'], eq: ['false', ''], 'not-in': ['not-in', '[90, 100, 100]'], in: ['false', ''] },
  },
  'int 99': {
    type: T.int, width: 10, value: 99, set: [98, 99, 100],
    inclusive: { lt: ['lt-eq', '90'], 'lt-eq': ['lt-eq', '90'], gt: ['gt-eq', '100'], 'gt-eq': ['gt-eq', '90'], eq: ['eq', '90'], in: ['in', '[90, 90, 100]'] },
    strict: { lt: ['lt', '90'], 'lt-eq': ['lt', '100'], gt: ['gt', '90'], 'gt-eq': ['gt', '90'], 'not-eq': ['not-eq', '90'], 'not-in': ['not-in', '[90, 90, 100]'] },
  },
  'long 100': {
    type: T.long, width: 10, value: 100, set: [99, 100, 101],
    inclusive: { lt: ['lt-eq', '90'], 'lt-eq': ['lt-eq', '100'], gt: ['gt-eq', '100'], 'gt-eq': ['gt-eq', '100'], eq: ['eq', '100'], in: ['in', '[90, 100, 100]'] },
    strict: { lt: ['lt', '100'], 'lt-eq': ['lt', '100'], gt: ['gt', '100'], 'gt-eq': ['gt', '90'], 'not-eq': ['not-eq', '100'], 'not-in': ['not-in', '[90, 100, 100]'] },
  },
  'long 99': {
    type: T.long, width: 10, value: 99, set: [98, 99, 100],
    inclusive: { lt: ['lt-eq', '90'], 'lt-eq': ['lt-eq', '90'], gt: ['gt-eq', '100'], 'gt-eq': ['gt-eq', '90'], eq: ['eq', '90'], in: ['in', '[90, 90, 100]'] },
    strict: { lt: ['lt', '90'], 'lt-eq': ['lt', '100'], gt: ['gt', '90'], 'gt-eq': ['gt', '90'], 'not-eq': ['not-eq', '90'], 'not-in': ['not-in', '[90, 90, 100]'] },
  },
  'decimal 100.00': {
    type: T.decimal(9, 2), width: 10, value: '100.00', set: ['101.00', '100.00', '99.00'],
    inclusive: { lt: ['lt-eq', '99.90'], 'lt-eq': ['lt-eq', '100.00'], gt: ['gt-eq', '100.00'], 'gt-eq': ['gt-eq', '100.00'], eq: ['eq', '100.00'], 'not-eq': ['true', ''], in: ['in', '[99.00, 100.00, 101.00]'] },
    strict: { lt: ['lt', '100.00'], 'lt-eq': ['lt', '100.00'], gt: ['gt', '100.00'], 'gt-eq': ['gt', '99.90'], 'not-eq': ['not-eq', '100.00'], eq: ['false', ''], 'not-in': ['not-in', '[99.00, 100.00, 101.00]'] },
  },
  'decimal 99.99': {
    type: T.decimal(9, 2), width: 10, value: '99.99', set: ['100.99', '99.99', '98.99'],
    inclusive: { lt: ['lt-eq', '99.90'], 'lt-eq': ['lt-eq', '99.90'], gt: ['gt-eq', '100.00'], 'gt-eq': ['gt-eq', '99.90'], eq: ['eq', '99.90'], in: ['in', '[98.90, 99.90, 100.90]'] },
    strict: { lt: ['lt', '99.90'], 'lt-eq': ['lt', '100.00'], gt: ['gt', '99.90'], 'gt-eq': ['gt', '99.90'], 'not-eq': ['not-eq', '99.90'], 'not-in': ['not-in', '[98.90, 99.90, 100.90]'] },
  },
  string: {
    type: T.string, width: 5, value: 'abcdefg', set: ['abcdefg', 'abcdefgabc'],
    inclusive: { lt: ['lt-eq', 'abcde'], 'lt-eq': ['lt-eq', 'abcde'], gt: ['gt-eq', 'abcde'], 'gt-eq': ['gt-eq', 'abcde'], eq: ['eq', 'abcde'], 'not-eq': ['true', ''], in: ['in', '[abcde, abcde]'], 'not-in': ['true', ''] },
    strict: { lt: ['lt', 'abcde'], 'lt-eq': ['lt', 'abcde'], gt: ['gt', 'abcde'], 'gt-eq': ['gt', 'abcde'], 'not-eq': ['not-eq', 'abcde'], eq: ['false', ''], 'not-in': ['not-in', '[abcde, abcde]'], in: ['false', ''] },
  },
  binary: {
    type: T.binary, width: 5, value: hex('abcdefg'), set: [hex('abcdefg'), hex('abcdehij')],
    inclusive: { lt: ['lt-eq', hex('abcde')], 'lt-eq': ['lt-eq', hex('abcde')], gt: ['gt-eq', hex('abcde')], 'gt-eq': ['gt-eq', hex('abcde')], eq: ['eq', hex('abcde')], 'not-eq': ['true', ''], in: ['in', `[${hex('abcde')}, ${hex('abcde')}]`] },
    strict: { lt: ['lt', hex('abcde')], 'lt-eq': ['lt', hex('abcde')], gt: ['gt', hex('abcde')], 'gt-eq': ['gt', hex('abcde')], 'not-eq': ['not-eq', hex('abcde')], eq: ['false', ''], 'not-in': ['not-in', `[${hex('abcde')}, ${hex('abcde')}]`] },
  },
};

for (const [name, c] of Object.entries(truncateCases)) {
  t.test(`truncate[${c.width}] of ${name}`, async (t) => {
    const schema = schemaOf([1, 'value', c.type]);
    const spec = specOf([1, `truncate[${c.width}]`, 'value_trunc']);
    for (const [mode, project] of [['inclusive', inclusiveProjection], ['strict', strictProjection]] as const) {
      for (const [op, expected] of Object.entries(c[mode])) {
        const value = op === 'in' || op === 'not-in' ? c.set : c.value;
        t.same(describeProjection(project(p(op, 'value', value), spec, schema), 'truncate'), expected, `${mode} ${op}`);
      }
    }
  });
}

t.test('truncate on strings: prefixes shorter than, equal to and longer than the width (TestStartsWith, TestNotStartsWith)', async (t) => {
  const schema = schemaOf([1, 's', T.string]);
  const spec = specOf([1, 'truncate[4]', 's_trunc']);
  const inc = (op: string, v: string): [string, string] => describeProjection(inclusiveProjection(p(op, 's', v), spec, schema), 'truncate');
  const str = (op: string, v: string): [string, string] => describeProjection(strictProjection(p(op, 's', v), spec, schema), 'truncate');
  t.same(inc('starts-with', 'ab'), ['starts-with', 'ab']);
  t.same(inc('starts-with', 'abcd'), ['eq', 'abcd']);
  t.same(inc('starts-with', 'abcde'), ['starts-with', 'abcd']);
  t.same(str('starts-with', 'ab'), ['starts-with', 'ab']);
  t.same(str('starts-with', 'abcd'), ['eq', 'abcd']);
  t.same(str('starts-with', 'abcde'), ['false', '']);
  t.same(inc('not-starts-with', 'ab'), ['not-starts-with', 'ab']);
  t.same(inc('not-starts-with', 'abcd'), ['not-eq', 'abcd']);
  t.same(inc('not-starts-with', 'abcde'), ['true', '']);
  t.same(str('not-starts-with', 'ab'), ['not-starts-with', 'ab']);
  t.same(str('not-starts-with', 'abcd'), ['not-eq', 'abcd']);
  t.same(str('not-starts-with', 'abcde'), ['not-starts-with', 'abcd']);
  // truncation counts code points: a 4-code-point prefix with a surrogate pair is still "= width"
  t.same(inc('starts-with', 'ab😀d'), ['eq', 'ab😀d']);
  t.same(inc('starts-with', 'a😀'), ['starts-with', 'a😀']);
});

t.test('transform terms project only onto a partition field with the same transform (testProjectionNames)', async (t) => {
  const schema = schemaOf(
    [1, 'timestamp1', T.timestamp, true], [2, 'timestamp2', T.timestamp], [3, 'timestamp3', T.timestamp], [4, 'timestamp4', T.timestamp],
    [5, 'date1', T.date], [6, 'date2', T.date], [7, 'date3', T.date], [8, 'long', T.long], [9, 'string', T.string],
  );
  const spec = specOf(
    [1, 'hour', 'timestamp1_hour'], [2, 'day', 'timestamp2_day'], [3, 'month', 'timestamp3_month'], [4, 'year', 'timestamp4_year'],
    [5, 'day', 'date1_day'], [6, 'month', 'date2_month'], [7, 'year', 'date3_year'], [8, 'bucket[10]', 'long_bucket'], [9, 'truncate[10]', 'string_trunc'],
  );
  const cases: Array<[string, string, unknown, string]> = [
    ['hour', 'timestamp1', 20, 'timestamp1_hour'], ['day', 'timestamp2', 20, 'timestamp2_day'], ['month', 'timestamp3', 20, 'timestamp3_month'],
    ['year', 'timestamp4', 20, 'timestamp4_year'], ['day', 'date1', 20, 'date1_day'], ['month', 'date2', 20, 'date2_month'],
    ['year', 'date3', 20, 'date3_year'], ['bucket[10]', 'long', 20, 'long_bucket'], ['truncate[10]', 'string', 'abc', 'string_trunc'],
  ];
  for (const [transform, column, value, expected] of cases) {
    for (const project of [inclusiveProjection, strictProjection]) {
      const projected = project(p('eq', transformTerm(transform, column), value), spec, schema) as UnboundPredicate;
      t.equal(projected.term.kind === 'ref' ? projected.term.name : undefined, expected, `${project.name} ${transform}(${column})`);
    }
  }
  // a different transform on the same column: no projection
  t.same(describeProjection(inclusiveProjection(p('eq', transformTerm('day', 'timestamp1'), '2017-12-01'), spec, schema), 'day'), ['true', '']);
  t.same(describeProjection(strictProjection(p('eq', transformTerm('day', 'timestamp1'), '2017-12-01'), spec, schema), 'day'), ['false', '']);
  t.same(describeProjection(inclusiveProjection(p('eq', transformTerm('bucket[16]', 'long'), 3), spec, schema), 'bucket'), ['true', '']);
});

t.test('a bucket predicate never projects onto an identity field of the same column', async (t) => {
  const schema = schemaOf([1, 'id', T.long]);
  const spec = specOf([1, 'identity', 'id']);
  t.same(describeProjection(inclusiveProjection(p('eq', transformTerm('bucket[16]', 'id'), 3), spec, schema), 'identity'), ['true', '']);
  t.same(describeProjection(inclusiveProjection(p('eq', transformTerm('identity', 'id'), 3), spec, schema), 'identity'), ['eq', '3']);
});

t.test('several fields on one column: inclusive ANDs, strict ORs', async (t) => {
  const schema = schemaOf([1, 'ts', T.timestamp]);
  const spec = specOf([1, 'day', 'd'], [1, 'hour', 'h']);
  const inc = inclusiveProjection(p('gt', 'ts', '2019-01-01T01:00:00'), spec, schema) as { kind: string; left: Expression; right: Expression };
  t.equal(inc.kind, 'and');
  t.same(describeProjection(inc.left, 'day'), ['gt-eq', '2019-01-01']);
  t.same(describeProjection(inc.right, 'hour'), ['gt-eq', '2019-01-01-01']);
  const str = strictProjection(p('gt', 'ts', '2019-01-01T01:00:00'), spec, schema) as { kind: string; left: Expression; right: Expression };
  t.equal(str.kind, 'or');
  t.same(describeProjection(str.left, 'day'), ['gt', '2019-01-01']);
  t.same(describeProjection(str.right, 'hour'), ['gt', '2019-01-01-01']);
});

t.test('void and unknown transforms and unpartitioned columns give true (inclusive) and false (strict)', async (t) => {
  const schema = schemaOf([1, 'a', T.int], [2, 'b', T.int]);
  const spec = specOf([1, 'void', 'a_null'], [1, 'zorder', 'a_z']);
  for (const expr of [p('eq', 'a', 1), p('eq', 'b', 1)]) {
    t.same(describeProjection(inclusiveProjection(expr, spec, schema), 'identity'), ['true', '']);
    t.same(describeProjection(strictProjection(expr, spec, schema), 'identity'), ['false', '']);
  }
});

t.test('NOT is rewritten before projecting, and constants fold', async (t) => {
  const schema = schemaOf([1, 'a', T.int], [2, 'b', T.int, true]);
  const spec = specOf([1, 'identity', 'a']);
  t.same(describeProjection(inclusiveProjection(filter({ type: 'not', child: { type: 'lt', term: 'a', value: 5 } }), spec, schema), 'identity'), ['gt-eq', '5']);
  // is-null on a required column binds to false; false AND anything is false
  const expr = filter({ type: 'and', left: { type: 'is-null', term: 'b' }, right: { type: 'eq', term: 'a', value: 1 } });
  t.same(describeProjection(inclusiveProjection(expr, spec, schema), 'identity'), ['false', '']);
});

t.test('an unbound projection binds to the partition type and gives the projected values back', async (t) => {
  const schema = schemaOf([1, 'ts', T.timestamp], [2, 'price', T.decimal(9, 2)], [3, 'f', T.float]);
  const spec = specOf([1, 'day', 'ts_day'], [2, 'truncate[10]', 'price_trunc'], [3, 'identity', 'f']);
  const expr = filter({
    type: 'and',
    left: { type: 'eq', term: 'ts', value: '2024-01-01T10:00:00' },
    right: { type: 'and', left: { type: 'lt', term: 'price', value: '99.99' }, right: { type: 'gt', term: 'f', value: jsonFloat(1.5) } },
  });
  const bound = bind(inclusiveProjection(expr, spec, schema), partitionType(spec, schema)) as unknown as {
    left: { literal: unknown };
    right: { left: { literal: unknown }; right: { literal: unknown } };
  };
  t.equal(bound.left.literal, 19723, 'day 2024-01-01');
  t.equal(bound.right.left.literal, 9990n, 'truncate(9998) = 99.90');
  t.equal(bound.right.right.literal, 1.5);
});
