import t from 'tap';
import { asLong, fromRequest, stringMapOf } from '../../src/commits/request-json.js';
import { fail } from '../../src/errors/index.js';

t.test('longs are exact 64-bit values; anything else is a bad request', async (t) => {
  t.equal(asLong(9223372036854775807n, 'x'), 9223372036854775807n);
  t.equal(asLong(-3, 'x'), -3n);
  t.throws(() => asLong(9223372036854775808n, 'x'), { code: 'BAD_REQUEST' });
  t.throws(() => asLong('1', 'x'), { code: 'BAD_REQUEST' });
});

t.test('string maps take JSON strings only, as Java JsonUtil.getStringMap', async (t) => {
  t.same(stringMapOf({ a: 'b' }, 'p'), { a: 'b' });
  t.throws(() => stringMapOf({ a: 1 }, 'p'), { code: 'BAD_REQUEST', message: /p\.a/ });
  const proto = stringMapOf(JSON.parse('{"__proto__": "x"}'), 'p');
  t.equal(Object.getPrototypeOf(proto), Object.prototype, 'a __proto__ key is data');
  t.equal(Object.keys(proto)[0], '__proto__');
});

t.test('a stored-metadata error from an iceberg/ parser becomes a bad request, other errors pass', async (t) => {
  t.throws(() => fromRequest(() => { throw fail('INVALID_METADATA', "Invalid Iceberg metadata: 'updates[0].x' is missing"); }), { code: 'BAD_REQUEST', message: /updates\[0\]\.x/ });
  t.throws(() => fromRequest(() => { throw fail('NO_SUCH_TABLE', 'x'); }), { code: 'NO_SUCH_TABLE' });
});
