import t from 'tap';
import { parseExpression, visit, type ExprVisitor, type UnboundPredicate } from '../../../src/iceberg/index.js';

/** Writes each node as it is folded: the order shows children come first, left before right. */
const trace: ExprVisitor<UnboundPredicate, string> = {
  alwaysTrue: () => 'T',
  alwaysFalse: () => 'F',
  not: (child) => `!${child}`,
  and: (left, right) => `(${left}&${right})`,
  or: (left, right) => `(${left}|${right})`,
  predicate: (p) => (p.term.kind === 'ref' ? p.term.name : p.term.ref.name),
};

t.test('a fold sees every node once, children folded before their parent, left before right', async (t) => {
  const expr = parseExpression({
    type: 'or',
    left: { type: 'and', left: { type: 'eq', term: 'a', value: 1 }, right: { type: 'not', child: { type: 'is-null', term: 'b' } } },
    right: { type: 'lt', term: 'c', value: 2 },
  });
  t.equal(visit(expr, trace), '((a&!b)|c)');
  const seen: string[] = [];
  visit(expr, { ...trace, predicate: (p) => (seen.push(trace.predicate(p)), '') });
  t.same(seen, ['a', 'b', 'c'], 'predicates in the order written');
  t.equal(visit(parseExpression(true), trace), 'T');
  t.equal(visit(parseExpression(false), trace), 'F');
});
