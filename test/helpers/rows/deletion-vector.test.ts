import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { decodeDeletionVector, decodeRoaring64, readPuffinFooter } from './index.js';

const VECTORS = path.resolve(import.meta.dirname, '../../../../shared/fixtures/vectors/puffin_and_dv');
const skip = fs.existsSync(VECTORS) ? false : `DV vectors not found at ${VECTORS} (../shared is absent)`;
const read = (rel: string): Buffer => fs.readFileSync(path.join(VECTORS, rel));

const range = (from: bigint, to: bigint): bigint[] => {
  const out: bigint[] = [];
  for (let v = from; v < to; v++) out.push(v);
  return out;
};

t.test('Java DV blobs decode to the positions the Java tests wrote', { skip }, async (t) => {
  t.same(decodeDeletionVector(read('iceberg-java_deletes/empty-position-index.bin')), []);
  t.same(decodeDeletionVector(read('iceberg-java_deletes/small-alternating-values-position-index.bin')), [1n, 3n, 5n, 7n, 9n]);
  t.same(decodeDeletionVector(read('iceberg-java_deletes/small-and-large-values-position-index.bin')), [
    100n,
    101n,
    2147483647n + 100n,
    2147483647n + 101n,
  ]);
  // TestBitmapPositionDeleteIndex.testAllContainerTypes: array, run and bitset containers under two keys
  const key1 = 1n << 32n;
  const expected = [
    5n,
    7n,
    ...range(65536n + 1n, 65536n + 1000n),
    ...range(131072n + 1n, 131072n + 65535n),
    key1 + 10n,
    key1 + 20n,
    ...range(key1 + 65536n + 10n, key1 + 65536n + 500n),
    ...range(key1 + 131072n + 1n, key1 + 131072n + 65535n),
  ];
  const all = decodeDeletionVector(read('iceberg-java_deletes/all-container-types-position-index.bin'));
  t.equal(all.length, 132561);
  t.ok(
    all.length === expected.length && all.every((v, i) => v === expected[i]),
    'every position matches, in ascending order',
  );
});

t.test('CRoaring portable 64-bit examples decode; keys beyond Java range are refused', { skip }, async (t) => {
  t.same(decodeRoaring64(read('iceberg-java_deletes/64mapempty.bin')), []);
  t.same(decodeRoaring64(read('iceberg-java_deletes/64map32bitvals.bin')), range(0n, 10n));
  const spread: bigint[] = [];
  for (let k = 0n; k < 10n; k++) spread.push(...range(k << 32n, (k << 32n) + 10n));
  t.same(decodeRoaring64(read('iceberg-java_deletes/64mapspreadvals.bin')), spread);
  t.throws(() => decodeRoaring64(read('iceberg-java_deletes/64maphighvals.bin')), /above 2147483647/);
});

t.test('a corrupted DV blob fails its CRC check', { skip }, async (t) => {
  const bytes = Buffer.from(read('iceberg-java_deletes/small-alternating-values-position-index.bin'));
  bytes[bytes.length - 1]! ^= 1;
  t.throws(() => decodeDeletionVector(bytes), /CRC/);
  const badMagic = Buffer.from(read('iceberg-java_deletes/small-alternating-values-position-index.bin'));
  badMagic[4] = 0;
  t.throws(() => decodeDeletionVector(badMagic), /magic/);
});

t.test('every DV blob in the Puffin vectors has as many positions as its declared cardinality', { skip }, async (t) => {
  const files = ['iceberg-go_dv_testdata/single-blob-dv.puffin', 'iceberg-go_dv_testdata/multi-blob-dv.puffin', 'iceberg-go_puffin_testdata/deletion-vector-v1.puffin'];
  let blobs = 0;
  for (const f of files) {
    const bytes = read(f);
    for (const blob of readPuffinFooter(bytes)) {
      t.equal(blob.type, 'deletion-vector-v1', `${f}: blob type`);
      const positions = decodeDeletionVector(bytes.subarray(blob.offset, blob.offset + blob.length));
      t.equal(String(positions.length), blob.properties?.['cardinality'], `${f} → ${blob.properties?.['referenced-data-file']}`);
      blobs++;
    }
  }
  t.equal(blobs, 4);
  t.same(decodeDeletionVector(read('iceberg-go_puffin_testdata/deletion-vector-v1-payload.bin')), [1n, 3n, 5n, 7n, 9n]);
});
