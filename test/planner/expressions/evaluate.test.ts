import t from 'tap';
import { fromHex, isoDateToDays, isoTimestampToMicros, parseExpression } from '../../../src/iceberg/index.js';
import { parseJson } from '../../../src/json/index.js';
import { bind, evaluate, testPredicate, type BoundExpression, type BoundPredicate } from '../../../src/planner/expressions/index.js';
import { row, STRUCT } from './schema.js';

function bound(text: string): BoundExpression {
  return bind(parseExpression(parseJson(text)), STRUCT);
}

function evalOn(filter: string, values: Record<string, unknown>): boolean {
  return evaluate(bound(filter), row(values));
}

function pred(op: string, column: string, value?: string): string {
  return value === undefined ? `{"type":"${op}","term":"${column}"}` : `{"type":"${op}","term":"${column}","value":${value}}`;
}

t.test('comparisons on a plain value', async (t) => {
  t.equal(evalOn(pred('lt', 'i', '5'), { i: 4 }), true);
  t.equal(evalOn(pred('lt', 'i', '5'), { i: 5 }), false);
  t.equal(evalOn(pred('lt-eq', 'i', '5'), { i: 5 }), true);
  t.equal(evalOn(pred('gt', 'l', '5'), { l: 6n }), true);
  t.equal(evalOn(pred('gt-eq', 'l', '5'), { l: 4n }), false);
  t.equal(evalOn(pred('eq', 's', '"a"'), { s: 'a' }), true);
  t.equal(evalOn(pred('not-eq', 's', '"a"'), { s: 'b' }), true);
  t.equal(evalOn(pred('eq', 'dt', '"2024-01-01"'), { dt: isoDateToDays('2024-01-01') }), true);
  t.equal(evalOn(pred('lt', 'ts', '"2024-01-01T00:00:00"'), { ts: isoTimestampToMicros('2023-12-31T23:59:59') }), true);
  t.equal(evalOn(pred('eq', 'dec', '"3.1"'), { dec: 310n }), true);
  t.equal(evalOn(pred('gt', 'dec', '"3.145"'), { dec: 315n }), true, 'a literal finer than the column compares numerically');
  t.equal(evalOn(pred('gt', 'dec', '"3.145"'), { dec: 314n }), false);
  t.equal(evalOn(pred('eq', 'fx', '"0102FF"'), { fx: fromHex('0102ff') }), true);
  t.equal(evalOn(pred('lt', 'bin', '"80"'), { bin: fromHex('7f') }), true, 'bytes compare unsigned');
  t.equal(evalOn(pred('eq', 'b', 'false'), { b: false }), true);
  t.equal(evalOn(pred('eq', 'u', '"F79C3E09-677C-4BBD-A479-3F349CB785E7"'), { u: 'f79c3e09-677c-4bbd-a479-3f349cb785e7' }), true);
});

t.test('null values follow Java\'s Evaluator: the literal comparator sorts null first', async (t) => {
  const expected: Record<string, boolean> = { lt: true, 'lt-eq': true, 'not-eq': true, gt: false, 'gt-eq': false, eq: false };
  for (const [op, want] of Object.entries(expected)) t.equal(evalOn(pred(op, 'i', '5'), { i: null }), want, `null ${op} 5`);
  t.equal(evalOn('{"type":"in","term":"i","values":[1,2]}', { i: null }), false, 'null in (…)');
  t.equal(evalOn('{"type":"not-in","term":"i","values":[1,2]}', { i: null }), true, 'null not in (…)');
  t.equal(evalOn(pred('is-null', 'i'), {}), true);
  t.equal(evalOn(pred('not-null', 'i'), {}), false);
  t.equal(evalOn(pred('starts-with', 's', '"a"'), {}), false, 'null starts-with');
  t.equal(evalOn(pred('not-starts-with', 's', '"a"'), {}), true, 'null not-starts-with');
  t.equal(evalOn(pred('is-nan', 'dbl'), {}), false, 'null is not NaN');
  t.equal(evalOn(pred('not-nan', 'dbl'), {}), true);
  t.equal(evalOn(pred('is-null', 'st.req'), { st: null }), true, 'a field under a null struct is null');
  t.equal(evalOn(pred('eq', 'st.inner.deep', '"x"'), { st: [1, ['x']] }), true, 'nested values are read by position');
});

t.test('NaN and signed zero follow Double.compare and Double.equals', async (t) => {
  t.equal(evalOn(pred('is-nan', 'dbl'), { dbl: NaN }), true);
  t.equal(evalOn(pred('not-nan', 'f'), { f: NaN }), false);
  t.equal(evalOn(pred('gt', 'dbl', '1.0'), { dbl: NaN }), true, 'NaN sorts above every number');
  t.equal(evalOn(pred('lt', 'dbl', '1.0'), { dbl: NaN }), false);
  t.equal(evalOn(pred('eq', 'dbl', '1.0'), { dbl: NaN }), false);
  t.equal(evalOn(pred('not-eq', 'dbl', '1.0'), { dbl: NaN }), true);
  t.equal(evalOn('{"type":"in","term":"dbl","values":[1.0,2.0]}', { dbl: NaN }), false);
  t.equal(evalOn(pred('eq', 'dbl', '0.0'), { dbl: -0 }), false, '-0.0 is not 0.0');
  t.equal(evalOn(pred('lt', 'dbl', '0.0'), { dbl: -0 }), true, '-0.0 < 0.0');
  t.equal(evalOn('{"type":"in","term":"dbl","values":[0.0,1.0]}', { dbl: -0 }), false);
  t.equal(evalOn('{"type":"in","term":"dbl","values":[-0.0,1.0]}', { dbl: -0 }), true);
});

t.test('set membership and starts-with', async (t) => {
  t.equal(evalOn('{"type":"in","term":"s","values":["a","b"]}', { s: 'b' }), true);
  t.equal(evalOn('{"type":"not-in","term":"s","values":["a","b"]}', { s: 'c' }), true);
  t.equal(evalOn('{"type":"in","term":"bin","values":["01","02"]}', { bin: Uint8Array.of(2) }), true, 'bytes by content');
  t.equal(evalOn('{"type":"in","term":"l","values":[1,9007199254740993]}', { l: 9007199254740993n }), true, 'longs beyond 2^53');
  t.equal(evalOn(pred('starts-with', 's', '"ab"'), { s: 'abc' }), true);
  t.equal(evalOn(pred('starts-with', 's', '"ab"'), { s: 'a' }), false);
  t.equal(evalOn(pred('not-starts-with', 's', '"😀"'), { s: '😀x' }), false, 'non-BMP prefixes');
});

t.test('transform terms evaluate the transform of the field', async (t) => {
  // wire-format §13: bucket[100](34L) = 79
  t.equal(evalOn('{"type":"eq","term":{"type":"transform","transform":"bucket[100]","term":"l"},"value":79}', { l: 34n }), true);
  t.equal(evalOn('{"type":"eq","term":{"type":"transform","transform":"bucket[100]","term":"l"},"value":78}', { l: 34n }), false);
  const ts = isoTimestampToMicros('2024-01-02T13:00:00');
  t.equal(evalOn('{"type":"eq","term":{"type":"transform","transform":"day","term":"ts"},"value":"2024-01-02"}', { ts }), true);
  t.equal(evalOn('{"type":"eq","term":{"type":"transform","transform":"truncate[2]","term":"s"},"value":"ab"}', { s: 'abc' }), true);
  t.equal(evalOn('{"type":"is-null","term":{"type":"transform","transform":"day","term":"ts"}}', { ts: null }), true);
});

t.test('boolean structure: and, or, not, constants', async (t) => {
  const f = '{"type":"or","left":{"type":"and","left":{"type":"gt","term":"i","value":1},"right":{"type":"lt","term":"i","value":5}},"right":{"type":"not","child":{"type":"not-null","term":"s"}}}';
  t.equal(evalOn(f, { i: 3, s: 'x' }), true);
  t.equal(evalOn(f, { i: 7, s: 'x' }), false);
  t.equal(evalOn(f, { i: 7 }), true);
  t.equal(evaluate({ kind: 'true' }, []), true);
  t.equal(evaluate({ kind: 'false' }, []), false);
});

t.test('testPredicate applies a bound predicate to a value directly', async (t) => {
  const p = bound(pred('lt', 'i', '5')) as BoundPredicate;
  t.equal(testPredicate(p, 4), true);
  t.equal(testPredicate(p, null), true);
  t.equal(testPredicate(p, 6), false);
});

t.test('a field inside a list cannot be read from a row', async (t) => {
  t.throws(() => evalOn('{"type":"eq","term":"tags.element","value":"a"}', { tags: ['a'] }), { code: 'INVALID_FILTER' });
});
