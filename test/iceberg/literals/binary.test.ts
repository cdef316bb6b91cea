import t from 'tap';
import { fromBinary, fromHex, hexUpper, toBinary } from '../../../src/iceberg/literals/index.js';
import type { IcebergType } from '../../../src/iceberg/types.js';
import { hex, loadVectors, SKIP_NO_SHARED, vectorTypes, vectorValue } from './vectors.js';

interface BinaryVector {
  type: string;
  value: unknown;
  bytes_hex: string;
  from: string;
  verified_by_extractor: boolean | string;
}

const file = loadVectors<{ vectors: BinaryVector[] }>('binary_single_value_vectors.json');

/** Values compare as hex when they are bytes, exactly otherwise. */
function comparable(v: unknown): unknown {
  return v instanceof Uint8Array ? `bytes:${hex(v)}` : v;
}

t.test('every binary single-value vector decodes to its value and encodes back to its bytes', { skip: !file && SKIP_NO_SHARED }, async (t) => {
  for (const [i, v] of file!.vectors.entries()) {
    const decodeOnly = typeof v.verified_by_extractor === 'string' && v.verified_by_extractor.startsWith('decode-only');
    for (const type of vectorTypes(v.type, { text: String(v.value) })) {
      const name = `#${i} ${v.type} ${JSON.stringify(v.value)} ⇄ ${v.bytes_hex} (${v.from})`;
      const value = vectorValue(type, v.value);
      t.same(comparable(fromBinary(type, Buffer.from(v.bytes_hex, 'hex'))), comparable(value), `decode ${name}`);
      if (!decodeOnly) t.equal(hex(toBinary(type, value)), v.bytes_hex, `encode ${name}`);
    }
  }
});

t.test('decimals encode as minimal two’s-complement big-endian unscaled values', async (t) => {
  const d2: IcebergType = { kind: 'decimal', precision: 9, scale: 2 };
  t.equal(hexUpper(toBinary(d2, 1234n)), '04D2', '12.34');
  t.equal(hexUpper(toBinary(d2, -100n)), '9C', '-1.00');
  t.equal(hexUpper(toBinary(d2, 0n)), '00', 'zero is one byte');
  t.equal(hexUpper(toBinary(d2, 128n)), '0080', 'a sign byte is kept when the top bit is set');
  t.equal(hexUpper(toBinary(d2, -128n)), '80');
  t.equal(hexUpper(toBinary(d2, -129n)), 'FF7F');
  t.equal(fromBinary(d2, fromHex('FFFFFF9C')), -100n, 'non-minimal sign extension still decodes');
  t.equal(fromBinary(d2, fromHex('00000080')), 128n);
});

t.test('bounds written before a type promotion decode with their original width', async (t) => {
  const int4 = Buffer.from('d2040000', 'hex'); // 1234 as an int
  t.equal(fromBinary({ kind: 'long' }, int4), 1234n, 'int bound of a column promoted to long');
  t.equal(fromBinary({ kind: 'long' }, Buffer.from('feffffff', 'hex')), -2n, 'negative int bound sign-extends');
  t.equal(fromBinary({ kind: 'double' }, Buffer.from('000090c0', 'hex')), -4.5, 'float bound of a column promoted to double');
  // spec "Schema Evolution": a 4-byte timestamp bound was written as a date before date → timestamp promotion
  const day = Buffer.from('d94b0000', 'hex'); // 2023-03-01 = day 19417
  t.equal(fromBinary({ kind: 'timestamp' }, day), 19417n * 86_400_000_000n, 'date bound read as µs at midnight');
  t.equal(fromBinary({ kind: 'timestamp_ns' }, day), 19417n * 86_400_000_000_000n, 'date bound read as ns at midnight');
});

t.test('64-bit values beyond 2^53 round-trip exactly as bigint', async (t) => {
  const big = 9158179788527662767n;
  const bytes = toBinary({ kind: 'long' }, big);
  t.equal(fromBinary({ kind: 'long' }, bytes), big);
  t.equal(fromBinary({ kind: 'timestamp_ns' }, toBinary({ kind: 'timestamp_ns' }, -big)), -big);
});

t.test('floats keep -0.0, NaN and infinities', async (t) => {
  t.ok(Object.is(fromBinary({ kind: 'float' }, toBinary({ kind: 'float' }, -0)), -0));
  t.ok(Number.isNaN(fromBinary({ kind: 'double' }, toBinary({ kind: 'double' }, NaN))));
  t.equal(fromBinary({ kind: 'double' }, toBinary({ kind: 'double' }, -Infinity)), -Infinity);
  t.equal(toBinary({ kind: 'float' }, 1.1).length, 4, 'a float is 4 bytes even for a value not exact in binary32');
});

t.test('strings are UTF-8 without a length; uuids are 16 big-endian bytes', async (t) => {
  t.equal(hex(toBinary({ kind: 'string' }, 'é😀')), 'c3a9f09f9880');
  t.equal(fromBinary({ kind: 'string' }, Buffer.from('c3a9f09f9880', 'hex')), 'é😀');
  t.equal(fromBinary({ kind: 'uuid' }, fromHex('F79C3E09677C4BBDA4793F349CB785E7')), 'f79c3e09-677c-4bbd-a479-3f349cb785e7');
  t.equal(hexUpper(toBinary({ kind: 'uuid' }, 'F79C3E09-677C-4BBD-A479-3F349CB785E7')), 'F79C3E09677C4BBDA4793F349CB785E7');
});

t.test('malformed bytes and unsupported types fail with INVALID_VALUE', async (t) => {
  const bad = (fn: () => unknown, what: string): void => {
    t.throws(fn, { name: 'IcefrontError', code: 'INVALID_VALUE' }, what);
  };
  bad(() => fromBinary({ kind: 'int' }, Buffer.from('0102', 'hex')), 'int needs 4 bytes');
  bad(() => fromBinary({ kind: 'long' }, Buffer.from('010203', 'hex')), 'long needs 4 or 8 bytes');
  bad(() => fromBinary({ kind: 'uuid' }, Buffer.from('01', 'hex')), 'uuid needs 16 bytes');
  bad(() => fromBinary({ kind: 'string' }, Buffer.from('ff', 'hex')), 'string must be UTF-8');
  bad(() => fromBinary({ kind: 'decimal', precision: 9, scale: 2 }, new Uint8Array()), 'decimal needs a byte');
  bad(() => toBinary({ kind: 'struct', fields: [] }, []), 'struct has no binary single value');
  bad(() => toBinary({ kind: 'int' }, 2 ** 31), 'int out of range');
  bad(() => toBinary({ kind: 'long' }, 1.5), 'long must be an integer');
  bad(() => fromHex('abc'), 'odd-length hex');
  bad(() => fromHex('zz'), 'non-hex characters');
});

t.test('hex helpers write upper case and read either case', async (t) => {
  t.equal(hexUpper(Uint8Array.of(0, 1, 0xab, 0xff)), '0001ABFF');
  t.same([...fromHex('0001abFF')], [0, 1, 0xab, 0xff]);
  t.equal(hexUpper(new Uint8Array()), '');
});
