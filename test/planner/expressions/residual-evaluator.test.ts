/**
 * Residuals per partition tuple, with the cases of Java's TestResiduals (the residual keeps the
 * caller's original unbound predicates, names as written included).
 */
import t from 'tap';
import { expressionToJson, isoTimestampToMicros, type Expression, type UnboundPredicate } from '../../../src/iceberg/index.js';
import { ResidualEvaluator } from '../../../src/planner/expressions/index.js';
import { timeTransform } from '../../../src/planner/transforms/index.js';
import { filter, p, schemaOf, specOf, T } from './projections-helpers.js';

const SCHEMA = schemaOf([50, 'dateint', T.int], [51, 'hour', T.int]);
const SPEC = specOf([50, 'identity', 'dateint']);

function kind(e: Expression): string {
  return (e as { kind: string }).kind;
}

const j = (type: string, term: string, value: unknown): unknown => ({ type, term, value });

t.test('identity partition: residuals are true, false or the remaining hour predicate (testIdentityTransformResiduals)', async (t) => {
  const expr = filter({
    type: 'or',
    left: {
      type: 'or',
      left: { type: 'and', left: j('lt', 'dateint', 20170815), right: j('gt', 'dateint', 20170801) },
      right: { type: 'and', left: j('eq', 'dateint', 20170815), right: j('lt', 'hour', 12) },
    },
    right: { type: 'and', left: j('eq', 'dateint', 20170801), right: j('gt', 'hour', 11) },
  });
  const ev = new ResidualEvaluator(SPEC, SCHEMA, expr);
  t.same(expressionToJson(ev.residualFor([20170815])), { type: 'lt', term: 'hour', value: 12 }, 'equal to the upper date bound');
  t.same(expressionToJson(ev.residualFor([20170801])), { type: 'gt', term: 'hour', value: 11 }, 'equal to the lower date bound');
  t.equal(kind(ev.residualFor([20170812])), 'true', 'inside the range');
  t.equal(kind(ev.residualFor([20170817])), 'false', 'outside the range');
});

t.test('case-insensitive binding keeps the names as written (testCaseInsensitiveIdentityTransformResiduals)', async (t) => {
  const expr = filter({
    type: 'or',
    left: {
      type: 'or',
      left: { type: 'and', left: j('lt', 'DATEINT', 20170815), right: j('gt', 'dateint', 20170801) },
      right: { type: 'and', left: j('eq', 'dateint', 20170815), right: j('lt', 'HOUR', 12) },
    },
    right: { type: 'and', left: j('eq', 'DateInt', 20170801), right: j('gt', 'hOUr', 11) },
  });
  const ev = new ResidualEvaluator(SPEC, SCHEMA, expr, false);
  t.same(expressionToJson(ev.residualFor([20170815])), { type: 'lt', term: 'HOUR', value: 12 });
  t.same(expressionToJson(ev.residualFor([20170801])), { type: 'gt', term: 'hOUr', value: 11 });
  t.equal(kind(ev.residualFor([20170812])), 'true');
  t.equal(kind(ev.residualFor([20170817])), 'false');
});

t.test('case-sensitive binding rejects a misspelled column (testCaseSensitiveIdentityTransformResiduals)', async (t) => {
  t.throws(() => new ResidualEvaluator(SPEC, SCHEMA, p('lt', 'DATEINT', 20170815), true), { code: 'INVALID_FILTER' });
});

t.test('an unpartitioned spec returns the filter itself (testUnpartitionedResiduals)', async (t) => {
  const exprs = [
    filter(true), filter(false), p('lt', 'a', 5), p('gt-eq', 'b', 16), p('not-null', 'c'), p('is-null', 'd'), p('in', 'e', [1, 2, 3]),
    p('not-in', 'f', [1, 2, 3]), p('not-nan', 'g'), p('is-nan', 'h'), p('starts-with', 'data', 'abcd'), p('not-starts-with', 'data', 'abcd'),
  ];
  for (const expr of exprs) {
    t.equal(new ResidualEvaluator(specOf(), schemaOf(), expr).residualFor([]), expr);
  }
});

t.test('in and not-in on an identity partition (testIn, testNotIn)', async (t) => {
  const inEv = new ResidualEvaluator(SPEC, SCHEMA, p('in', 'dateint', [20170815, 20170816, 20170817]));
  t.equal(kind(inEv.residualFor([20170815])), 'true');
  t.equal(kind(inEv.residualFor([20180815])), 'false');
  const notInEv = new ResidualEvaluator(SPEC, SCHEMA, p('not-in', 'dateint', [20170815, 20170816, 20170817]));
  t.equal(kind(notInEv.residualFor([20180815])), 'true');
  t.equal(kind(notInEv.residualFor([20170815])), 'false');
});

t.test('in and not-in on a day partition keep the original predicate for the matching day (testInTimestamp, testNotInTimestamp)', async (t) => {
  const schema = schemaOf([50, 'ts', T.timestamp], [51, 'dateint', T.int]);
  const spec = specOf([50, 'day', 'ts_day']);
  const tsDay = timeTransform('day', T.timestamp, isoTimestampToMicros('2019-12-01T00:00:00'));
  const inPred = p('in', 'ts', ['2019-12-01T00:00:00', '2019-12-02T00:00:00']);
  const inEv = new ResidualEvaluator(spec, schema, inPred);
  t.equal(inEv.residualFor([tsDay]), inPred, 'the original in predicate');
  t.equal(kind(inEv.residualFor([tsDay + 3])), 'false');
  const notInPred = p('not-in', 'ts', ['2019-12-01T00:00:00', '2019-12-02T00:00:00']);
  const notInEv = new ResidualEvaluator(spec, schema, notInPred);
  t.equal(notInEv.residualFor([tsDay]), notInPred, 'the original not-in predicate');
  t.equal(kind(notInEv.residualFor([tsDay + 3])), 'true');
});

t.test('is-nan and not-nan on float and double identity partitions (testIsNaN, testNotNaN)', async (t) => {
  const schema = schemaOf([50, 'double', T.double], [51, 'float', T.float]);
  for (const column of ['double', 'float']) {
    const spec = specOf([column === 'double' ? 50 : 51, 'identity', column]);
    const isNaN = new ResidualEvaluator(spec, schema, p('is-nan', column));
    t.equal(kind(isNaN.residualFor([NaN])), 'true', `${column} is-nan NaN`);
    t.equal(kind(isNaN.residualFor([2])), 'false');
    const notNaN = new ResidualEvaluator(spec, schema, p('not-nan', column));
    t.equal(kind(notNaN.residualFor([NaN])), 'false', `${column} not-nan NaN`);
    t.equal(kind(notNaN.residualFor([3])), 'true');
  }
});

t.test('truncate partitions: strict decides whole partitions, inclusive rules them out, the rest stays', async (t) => {
  const schema = schemaOf([1, 'value', T.int]);
  const spec = specOf([1, 'truncate[10]', 'value_trunc']);
  const pred = p('lt', 'value', 100);
  const ev = new ResidualEvaluator(spec, schema, pred);
  t.equal(kind(ev.residualFor([90])), 'true', 'all of 90..99 are < 100');
  t.equal(kind(ev.residualFor([100])), 'false', 'none of 100..109 is < 100');
  const mid = new ResidualEvaluator(spec, schema, p('lt', 'value', 95));
  t.equal((mid.residualFor([90]) as UnboundPredicate).op, 'lt', '90..99 straddles 95');
});

t.test('NOT is kept and folded; schema-decided predicates become constants', async (t) => {
  const schema = schemaOf([50, 'dateint', T.int], [51, 'hour', T.int, true]);
  const ev = new ResidualEvaluator(SPEC, schema, filter({ type: 'not', child: j('eq', 'dateint', 20170815) }));
  t.equal(kind(ev.residualFor([20170815])), 'false');
  t.equal(kind(ev.residualFor([20170816])), 'true');
  const required = new ResidualEvaluator(SPEC, schema, filter({ type: 'or', left: { type: 'is-null', term: 'hour' }, right: j('eq', 'dateint', 1) }));
  t.equal(kind(required.residualFor([1])), 'true');
  t.equal(kind(required.residualFor([2])), 'false', 'is-null on a required column is false');
});

t.test('null partition values', async (t) => {
  const ev = new ResidualEvaluator(SPEC, SCHEMA, p('eq', 'dateint', 5));
  t.equal(kind(ev.residualFor([null])), 'false', 'no row with a null dateint equals 5');
  t.equal(kind(new ResidualEvaluator(SPEC, SCHEMA, p('is-null', 'dateint')).residualFor([null])), 'true');
  t.equal(kind(new ResidualEvaluator(SPEC, SCHEMA, p('not-null', 'dateint')).residualFor([null])), 'false');
});

t.test('residuals are memoised per distinct partition tuple', async (t) => {
  const ev = new ResidualEvaluator(SPEC, SCHEMA, filter({ type: 'and', left: j('eq', 'dateint', 1), right: j('lt', 'hour', 3) }));
  const a = ev.residualFor([1]);
  t.equal(ev.residualFor([1]), a, 'same tuple, same object');
  t.not(ev.residualFor([2]), a);
});
