import t from 'tap';
import { compareUuidsRfc, compareValues } from '../../../src/iceberg/literals/index.js';
import type { IcebergType } from '../../../src/iceberg/types.js';

const sign = (n: number): number => Math.sign(n);
function sorted(type: IcebergType, values: unknown[]): unknown[] {
  return [...values].sort((a, b) => compareValues(type, a, b));
}

t.test('floats order -Infinity < negatives < -0.0 < 0.0 < positives < Infinity < NaN', async (t) => {
  const order = [-Infinity, -1.5, -0, 0, 2, Infinity, NaN];
  const got = sorted({ kind: 'double' }, [NaN, 0, Infinity, -1.5, 2, -0, -Infinity]);
  t.equal(got.map((v) => (Object.is(v, -0) ? '-0' : String(v))).join(' '), order.map((v) => (Object.is(v, -0) ? '-0' : String(v))).join(' '));
  t.equal(compareValues({ kind: 'float' }, NaN, NaN), 0, 'NaN equals NaN');
});

t.test('strings order by code point, which is UTF-8 byte order', async (t) => {
  const values = ['b', 'a', 'ab', '\uffff', '😀', 'é', ''];
  const byUtf8 = [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  t.same(sorted({ kind: 'string' }, values), byUtf8);
  t.equal(sign(compareValues({ kind: 'string' }, '😀', '\uffff')), 1, 'a supplementary char sorts after U+FFFF');
});

t.test('binary and fixed order unsigned, a prefix first', async (t) => {
  const b: IcebergType = { kind: 'binary' };
  t.equal(sign(compareValues(b, Uint8Array.of(0x7f), Uint8Array.of(0x80))), -1, '0x80 is above 0x7f');
  t.equal(sign(compareValues(b, Uint8Array.of(1), Uint8Array.of(1, 0))), -1);
  t.equal(compareValues({ kind: 'fixed', length: 2 }, Uint8Array.of(1, 2), Uint8Array.of(1, 2)), 0);
});

t.test('uuids order as Java UUID.compareTo (signed halves); RFC byte order is separate', async (t) => {
  const low = '7fffffff-ffff-ffff-0000-000000000000';
  const high = '80000000-0000-0000-0000-000000000000';
  t.equal(sign(compareValues({ kind: 'uuid' }, low, high)), 1, 'Java: a set top bit makes the msb negative');
  t.equal(sign(compareUuidsRfc(low, high)), -1, 'RFC: unsigned bytes');
  t.equal(sign(compareValues({ kind: 'uuid' }, '00000000-0000-0000-8000-000000000000', '00000000-0000-0000-7fff-ffffffffffff')), -1, 'lsb signed too');
  t.equal(compareValues({ kind: 'uuid' }, low.toUpperCase(), low), 0, 'case does not matter');
});

t.test('integers, decimals, timestamps and booleans compare by value', async (t) => {
  t.equal(sign(compareValues({ kind: 'long' }, 9158179788527662767n, 9158179788527662766n)), 1);
  t.equal(sign(compareValues({ kind: 'decimal', precision: 9, scale: 2 }, -5n, 3n)), -1);
  t.equal(sign(compareValues({ kind: 'date' }, -1, 0)), -1);
  t.equal(sign(compareValues({ kind: 'boolean' }, true, false)), 1);
  t.throws(() => compareValues({ kind: 'list', elementId: 1, elementRequired: true, element: { kind: 'int' } }, [], []), { code: 'INVALID_VALUE' });
});
