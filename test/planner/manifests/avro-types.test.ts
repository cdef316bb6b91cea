/**
 * Avro `long`s decoded by the manifest decoders (avro-types.ts reads them in place, without
 * avsc's Buffer per value): every 64-bit value, written here by the spec's own rule (Avro spec
 * "Binary Encoding": zig-zag, then 7 bits a byte, low bits first), comes back exactly, through a
 * plain writer decoder and through a projecting one, and bytes that end inside a long are a
 * truncated record, not a value.
 */
import fc from 'fast-check';
import t from 'tap';
import { AvroCursor, MalformedInput, TruncatedInput } from '../../../src/planner/manifests/avro-binary.js';
import { projectedDecoder, writerDecoder } from '../../../src/planner/manifests/avro-types.js';

/** The spec's encoding of a long, written independently of any decoder. */
function zigzagVarint(value: bigint): number[] {
  let z = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
  const out: number[] = [];
  for (;;) {
    const low = Number(z & 0x7fn);
    z >>= 7n;
    if (z === 0n) return [...out, low];
    out.push(low | 0x80);
  }
}

const schema = {
  type: 'record',
  name: 'r',
  fields: [
    { name: 'a', type: 'long' },
    { name: 'b', type: ['null', 'long'] },
    { name: 'c', type: 'long' },
  ],
};
const schemaText = JSON.stringify(schema);
const plain = writerDecoder(schemaText, schema);
// the same record read into a schema without `c`, so the longs go through avsc's resolver
const projected = projectedDecoder(schemaText, schema, 'test-without-c', { ...schema, fields: schema.fields.slice(0, 2) });

const int64 = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  // around every byte boundary of the varint, and the double-precision edges
  fc
    .integer({ min: 0, max: 63 })
    .chain((bits) => fc.constantFrom(2n ** BigInt(bits), 2n ** BigInt(bits) - 1n, -(2n ** BigInt(bits)), -(2n ** BigInt(bits)) + 1n))
    .filter((n) => n === BigInt.asIntN(64, n)),
);

const encode = (a: bigint, b: bigint | null, c: bigint): Buffer =>
  Buffer.from([...zigzagVarint(a), ...(b === null ? [0] : [2, ...zigzagVarint(b)]), ...zigzagVarint(c)]);

t.test('every 64-bit long decodes to the value the spec encoding wrote', async (t) => {
  fc.assert(
    fc.property(int64, fc.option(int64), int64, (a, b, c) => {
      const buf = encode(a, b, c);
      const whole = plain.decode(buf, 0);
      t.same(whole, { value: { a, b, c }, offset: buf.length });
      const part = projected.decode(buf, 0);
      t.same(part, { value: { a, b }, offset: buf.length });
      return true;
    }),
    { numRuns: 3000 },
  );
  // the same wide value twice in a row (the reader remembers the last one) and then another
  const id = 6921834380589695305n;
  for (const [a, c] of [[id, id], [id, -id], [-id, id + 1n]] as const) t.same(plain.decode(encode(a, null, c), 0).value, { a, b: null, c });
});

t.test('bytes that end inside a long are a truncated record', async (t) => {
  fc.assert(
    fc.property(int64, int64, int64, (a, b, c) => {
      const buf = encode(a, b, c);
      for (let cut = 0; cut < buf.length; cut++) {
        t.equal(plain.decode(buf.subarray(0, cut), 0).offset, -1, `cut at ${cut} of ${buf.length}`);
      }
      return true;
    }),
    { numRuns: 300 },
  );
});

t.test('a varint longer than ten bytes wraps to 64 bits as avsc reads it, and its end is found', async (t) => {
  // eleven bytes: 0xff × 10 then 0x01; the bits above 64 are dropped
  const wide = [...new Array<number>(10).fill(0xff), 0x01];
  const buf = Buffer.from([...wide, 0, ...zigzagVarint(5n)]);
  const { value, offset } = plain.decode(buf, 0) as { value: { a: bigint; c: bigint }; offset: number };
  t.equal(offset, buf.length);
  t.equal(value.c, 5n);
  t.equal(typeof value.a, 'bigint');
  t.ok(value.a >= -(2n ** 63n) && value.a < 2n ** 63n, 'within 64 bits');
});

t.test('the container reader (AvroCursor) reads the same longs, and refuses cut or overlong ones', async (t) => {
  fc.assert(
    fc.property(fc.array(int64, { minLength: 1, maxLength: 4 }), (values) => {
      const buf = Buffer.from(values.flatMap(zigzagVarint));
      const cursor = new AvroCursor(buf);
      t.same(values.map(() => cursor.bigLong('v')), values);
      t.equal(cursor.pos, buf.length);
      t.throws(() => new AvroCursor(buf.subarray(0, zigzagVarint(values[0]!).length - 1)).bigLong('v'), TruncatedInput);
      return true;
    }),
    { numRuns: 1000 },
  );
  t.throws(() => new AvroCursor(Buffer.from([...new Array<number>(10).fill(0xff), 0x01])).bigLong('v'), MalformedInput);
});
