import t from 'tap';
import { expressionToJson, expressionToString, isoTimestampToMicros, parseExpression, type Expr, type Expression } from '../../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../../src/json/index.js';
import { bind, evaluate, rewriteNot, type BoundPredicate } from '../../../src/planner/expressions/index.js';
import { row, STRUCT } from './schema.js';

function parse(text: string): Expression {
  return parseExpression(parseJson(text));
}

function hasNot<P>(e: Expr<P>): boolean {
  const n = e as { kind: string; left?: Expr<P>; right?: Expr<P> };
  if (n.kind === 'not') return true;
  if (n.kind === 'and' || n.kind === 'or') return hasNot(n.left!) || hasNot(n.right!);
  return false;
}

t.test('not over each predicate becomes the negated operation', async (t) => {
  const pairs: Array<[string, string]> = [
    ['lt', 'gt-eq'], ['lt-eq', 'gt'], ['gt', 'lt-eq'], ['gt-eq', 'lt'], ['eq', 'not-eq'], ['not-eq', 'eq'],
    ['starts-with', 'not-starts-with'], ['not-starts-with', 'starts-with'],
  ];
  for (const [op, negated] of pairs) {
    const e = rewriteNot(parse(`{"type":"not","child":{"type":"${op}","term":"a","value":"x"}}`));
    t.equal(stringifyJson(expressionToJson(e)), `{"type":"${negated}","term":"a","value":"x"}`, `not ${op}`);
  }
  for (const [op, negated] of [['is-null', 'not-null'], ['not-null', 'is-null'], ['is-nan', 'not-nan'], ['not-nan', 'is-nan']]) {
    const e = rewriteNot(parse(`{"type":"not","child":{"type":"${op}","term":"a"}}`));
    t.equal(stringifyJson(expressionToJson(e)), `{"type":"${negated}","term":"a"}`, `not ${op}`);
  }
  for (const [op, negated] of [['in', 'not-in'], ['not-in', 'in']]) {
    const e = rewriteNot(parse(`{"type":"not","child":{"type":"${op}","term":"a","values":[1,2]}}`));
    t.equal(stringifyJson(expressionToJson(e)), `{"type":"${negated}","term":"a","values":[1,2]}`, `not ${op}`);
  }
});

t.test('not is pushed through and/or by De Morgan and cancels in pairs', async (t) => {
  const e = rewriteNot(parse('{"type":"not","child":{"type":"and","left":{"type":"lt","term":"a","value":1},"right":{"type":"or","left":{"type":"is-null","term":"b"},"right":{"type":"not","child":{"type":"eq","term":"c","value":2}}}}}'));
  t.equal(expressionToString(e), '(a >= 1 or (not_null(b) and c == 2))');
  t.equal(hasNot(e), false);
  t.same(rewriteNot(parse('{"type":"not","child":true}')), { kind: 'false' });
  t.same(rewriteNot(parse('{"type":"and","left":{"type":"not","child":{"type":"eq","term":"a","value":1}},"right":true}')),
    parse('{"type":"not-eq","term":"a","value":1}'));
});

t.test('on bound expressions the rewrite keeps every row\'s result', async (t) => {
  const filters = [
    '{"type":"not","child":{"type":"and","left":{"type":"lt","term":"i","value":5},"right":{"type":"starts-with","term":"s","value":"a"}}}',
    '{"type":"not","child":{"type":"or","left":{"type":"in","term":"dbl","values":[1.0,2.0]},"right":{"type":"is-nan","term":"dbl"}}}',
    '{"type":"not","child":{"type":"not","child":{"type":"gt-eq","term":{"type":"transform","transform":"day","term":"ts"},"value":"2024-01-02"}}}',
    '{"type":"not","child":{"type":"or","left":{"type":"is-null","term":"i"},"right":{"type":"not","child":{"type":"not-eq","term":"dbl","value":0.0}}}}',
  ];
  const rows = [
    {}, { i: 4, s: 'ab' }, { i: 6, s: 'b' }, { i: null, s: null },
    { dbl: NaN }, { dbl: 1 }, { dbl: -0 }, { dbl: 0 }, { dbl: 3 },
    { ts: isoTimestampToMicros('2024-01-01T10:00:00') }, { ts: isoTimestampToMicros('2024-01-02T10:00:00') },
  ];
  for (const f of filters) {
    const b = bind(parse(f), STRUCT);
    const r = rewriteNot<BoundPredicate>(b);
    t.equal(hasNot(r), false, `no not left in ${f}`);
    for (const values of rows) t.equal(evaluate(r, row(values)), evaluate(b, row(values)), `${f} on ${stringifyJson(values)}`);
  }
});
