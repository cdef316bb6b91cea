import t from 'tap';
import { isIcefrontError } from '../../src/errors/index.js';
import { decodeNamespacePath, decodeSegment, parseParentParam, rawPath, rawPathParams } from '../../src/http/request-params.js';

t.test('rawPath keeps percent-encoding and drops query, fragment and origin', async (t) => {
  t.equal(rawPath('/v1/a%2Fb/namespaces?x=%2F'), '/v1/a%2Fb/namespaces');
  t.equal(rawPath('/v1/x#frag'), '/v1/x');
  t.equal(rawPath('http://host:1/v1/x%25?q'), '/v1/x%25');
});

t.test('rawPathParams reads placeholders segment by segment', async (t) => {
  t.same(rawPathParams('/v1/{prefix}/namespaces/{namespace}/tables/{table}', '/v1/p/namespaces/a%1Fb/tables/c%2Fd?x=1'), {
    prefix: 'p',
    namespace: 'a%1Fb',
    table: 'c%2Fd',
  });
});

t.test('namespaces split on the encoded separator before decoding, as RESTUtil.decodeNamespace', async (t) => {
  t.same(decodeNamespacePath('we%2Fird%1Fa.b%1F%C3%BC%20%25'), ['we/ird', 'a.b', 'ü %']);
  t.same(decodeNamespacePath('a%251F'), ['a%1F'], 'an encoded % before 1F is not a separator');
  t.same(decodeNamespacePath('a+b%2Bc'), ['a b+c']);
  t.same(decodeNamespacePath('a%1f%1Fb'), ['a', '', 'b'], 'empty levels are kept for the service to reject');
});

t.test('malformed percent-encoding is a 400 with the given code', async (t) => {
  for (const raw of ['%zz', '%E0%A4', 'a%', '%C0%AF']) {
    try {
      decodeSegment(raw, 'INVALID_IDENTIFIER', 'table');
      t.fail(raw);
    } catch (err) {
      t.ok(isIcefrontError(err, 'INVALID_IDENTIFIER'), raw);
    }
  }
});

t.test('parent accepts 0x1F and the literal %1F of older Java clients; empty is top level', async (t) => {
  t.same(parseParentParam(undefined), []);
  t.same(parseParentParam(''), []);
  t.same(parseParentParam('a\x1fb'), ['a', 'b']);
  t.same(parseParentParam('a%1Fb%1fc'), ['a', 'b', 'c']);
  t.same(parseParentParam('a.b'), ['a.b']);
});
