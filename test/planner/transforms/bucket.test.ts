import t from 'tap';
import { bucketHash, bucketHashInput, bucketOf, murmur3_32, applyTransform } from '../../../src/planner/transforms/index.js';
import { isoDateToDays, parseTransform } from '../../../src/iceberg/index.js';
import { hex, loadVectors, SKIP_NO_SHARED, vectorTypes, vectorValue } from '../../iceberg/literals/vectors.js';

interface HashVector {
  type: string;
  input: string;
  hashed_bytes_hex: string;
  murmur3_x86_32: number;
  bucketable: boolean;
}
interface BucketVector {
  N: number;
  type: string;
  value: unknown;
  bucket: number;
  hashed_bytes_hex: string;
}

const file = loadVectors<{ hash_vectors: HashVector[]; bucket_vectors: BucketVector[] }>('bucket_murmur3_vectors.json');

t.test('every hash vector: hashed bytes, murmur3 of those bytes, and the hash of the value', { skip: !file && SKIP_NO_SHARED }, async (t) => {
  for (const [i, v] of file!.hash_vectors.entries()) {
    for (const type of vectorTypes(v.type, { text: v.input })) {
      const name = `#${i} ${v.type} ${v.input}`;
      const value = vectorValue(type, v.input);
      t.equal(hex(bucketHashInput(type, value)), v.hashed_bytes_hex, `hash input ${name}`);
      t.equal(murmur3_32(Buffer.from(v.hashed_bytes_hex, 'hex')), v.murmur3_x86_32, `murmur3 of bytes ${name}`);
      t.equal(bucketHash(type, value), v.murmur3_x86_32, `bucket hash ${name}`);
    }
  }
});

t.test('every bucket vector lands in its bucket through bucket[N]', { skip: !file && SKIP_NO_SHARED }, async (t) => {
  for (const [i, v] of file!.bucket_vectors.entries()) {
    for (const type of vectorTypes(v.type, { text: String(v.value) })) {
      const name = `#${i} bucket[${v.N}] ${v.type} ${JSON.stringify(v.value)}`;
      const value = vectorValue(type, v.value);
      t.equal(hex(bucketHashInput(type, value)), v.hashed_bytes_hex, `hash input ${name}`);
      t.equal(applyTransform(parseTransform(`bucket[${v.N}]`), type, value), v.bucket, name);
    }
  }
});

t.test('wire-format §13 worked examples', async (t) => {
  t.equal(bucketOf(16, { kind: 'int' }, 34), 3, 'bucket[16](34)');
  t.equal(bucketOf(100, { kind: 'long' }, 34n), 79, 'bucket[100](34L)');
  t.equal(bucketOf(16, { kind: 'string' }, 'iceberg'), 9, 'bucket[16]("iceberg")');
  t.equal(bucketOf(16, { kind: 'date' }, isoDateToDays('2017-11-16')), 10, 'bucket[16](date 2017-11-16)');
});

t.test('an int and the same long hash alike, so int → long promotion keeps buckets', async (t) => {
  for (const n of [0, 1, -1, 2147483647, -2147483648]) {
    t.equal(bucketHash({ kind: 'int' }, n), bucketHash({ kind: 'long' }, BigInt(n)), String(n));
  }
  t.equal(bucketHash({ kind: 'timestamp_ns' }, -1n), bucketHash({ kind: 'timestamp' }, -1n), 'ns floor-divide to µs');
  t.equal(bucketHash({ kind: 'double' }, NaN), murmur3_32(Buffer.from('000000000000f87f', 'hex')), 'NaN is canonical');
});

t.test('murmur3 handles every tail length', async (t) => {
  // reference values from an independent Python murmur3_x86_32 that also reproduces the spec vectors
  t.equal(murmur3_32(new Uint8Array()), 0);
  t.equal(murmur3_32(Buffer.from('a')), 1009084850);
  t.equal(murmur3_32(Buffer.from('ab')), -1681926305);
  t.equal(murmur3_32(Buffer.from('abc')), -1277324294);
  t.equal(murmur3_32(Buffer.from('abcd')), 1139631978);
  t.equal(murmur3_32(Buffer.from('abcde')), -392455434);
});
