import t from 'tap';
import { childrenPattern, compareNamespaces, namespaceFromKey, namespaceKey } from '../../../src/catalogs/sql/namespace-keys.js';
import { isIcefrontError } from '../../../src/errors/index.js';

t.test('namespaces are stored as levels joined by a dot, as JdbcUtil.namespaceToString', async (t) => {
  t.equal(namespaceKey(['a']), 'a');
  t.equal(namespaceKey(['a', 'b', 'c']), 'a.b.c');
  t.same(namespaceFromKey('a.b.c'), ['a', 'b', 'c']);
  t.same(namespaceFromKey(''), [], 'the empty string is the empty namespace (stringToNamespace)');
});

t.test('levels that would not read back are refused', async (t) => {
  for (const ns of [[], ['a.b'], ['a', ''], ['x'.repeat(200), 'y'.repeat(55)]]) {
    try {
      namespaceKey(ns);
      t.fail(JSON.stringify(ns));
    } catch (err) {
      t.ok(isIcefrontError(err, 'INVALID_NAMESPACE'), JSON.stringify(ns).slice(0, 40));
    }
  }
  t.equal(namespaceKey(['x'.repeat(200), 'y'.repeat(54)]).length, 255, '255 characters fit');
  t.equal(namespaceKey(['é'.repeat(255)]).length, 255, 'characters, not bytes, as VARCHAR(255) counts them');
});

t.test('the children pattern escapes LIKE wildcards with ! as JdbcUtil.namespaceExists does', async (t) => {
  t.equal(childrenPattern('a'), 'a.%');
  t.equal(childrenPattern('a_b'), 'a!_b.%');
  t.equal(childrenPattern('100%'), '100!%.%');
  t.equal(childrenPattern('wow!'), 'wow!!.%');
});

t.test('namespaces sort level by level, parents first', async (t) => {
  const sorted = [['b'], ['a', 'z'], ['a'], ['a', 'b', 'c'], ['a', 'b']].sort(compareNamespaces);
  t.same(sorted, [['a'], ['a', 'b'], ['a', 'b', 'c'], ['a', 'z'], ['b']]);
});
