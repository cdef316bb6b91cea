import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { deletionVectorBlob, serializePositions, writeDeletionVectorFile } from '../../../tools/iceberg-writer/index.js';
import { decodeDvBlob, decodeRoaring64, readPuffinFooter } from '../helpers/read-back.js';

const VECTORS = path.resolve(import.meta.dirname, '../../../../shared/fixtures/vectors/puffin_and_dv');
const noVectors = !fs.existsSync(VECTORS) && `shared test vectors not found at ${VECTORS}`;

const sets: Record<string, bigint[]> = {
  'a few scattered positions': [1n, 3n, 5n, 7n, 9n],
  'one long run': Array.from({ length: 500 }, (_, i) => BigInt(1000 + i)),
  'a dense container (more than 4096 values)': Array.from({ length: 5000 }, (_, i) => BigInt(i * 3)),
  'positions beyond 2^32, leaving empty keys between': [0n, 5n, (1n << 32n) + 7n, (3n << 32n) + 1n],
  'many containers with runs': Array.from({ length: 40 }, (_, i) => BigInt(i * 70_000)).flatMap((p) => [p, p + 1n, p + 2n]),
  'nothing deleted': [],
};

for (const [name, positions] of Object.entries(sets)) {
  t.test(`a deletion-vector blob decodes back to its positions: ${name}`, async (tt) => {
    const blob = deletionVectorBlob(positions);
    const back = decodeDvBlob(blob);
    tt.ok(back.crcOk, 'CRC-32 of magic + bitmap matches');
    tt.ok(back.lengthOk, 'length prefix covers magic + bitmap');
    tt.same(back.positions, [...positions].sort((a, b) => (a < b ? -1 : 1)));
  });
}

t.test('positions may come unsorted and repeated', async (tt) => {
  tt.same(decodeRoaring64(serializePositions([9n, 2n, 9n, 4n])), [2n, 4n, 9n]);
});

t.test('Java-written deletion vectors are reproduced byte for byte', { skip: noVectors }, async (tt) => {
  const dir = path.join(VECTORS, 'iceberg-java_deletes');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('-position-index.bin'));
  tt.ok(files.length >= 4);
  for (const f of files) {
    const javaBytes = fs.readFileSync(path.join(dir, f));
    const { positions, crcOk } = decodeDvBlob(javaBytes);
    tt.ok(crcOk, `${f} CRC`);
    tt.same(deletionVectorBlob(positions), javaBytes, f);
  }
});

t.test('portable 64-bit bitmaps from the Roaring test suite round-trip by value', { skip: noVectors }, async (tt) => {
  const dir = path.join(VECTORS, 'iceberg-java_deletes');
  // 64maphighvals.bin in the shared copy is damaged (UTF-8 replacement bytes), so it is left out
  for (const f of ['64mapempty.bin', '64map32bitvals.bin', '64mapspreadvals.bin']) {
    const positions = decodeRoaring64(fs.readFileSync(path.join(dir, f)));
    tt.same(decodeRoaring64(serializePositions(positions)), positions, f);
  }
});

t.test('the blob matches the one inside a Java-written Puffin file', { skip: noVectors }, async (tt) => {
  const puffin = fs.readFileSync(path.join(VECTORS, 'iceberg-go_dv_testdata/single-blob-dv.puffin'));
  const blob = readPuffinFooter(puffin).blobs[0];
  tt.same(deletionVectorBlob([1n, 3n, 5n, 7n, 9n]), puffin.subarray(blob.offset, blob.offset + blob.length));
});

t.test('a Puffin file lists one deletion-vector blob per data file', async (tt) => {
  const dvs = [
    { referencedDataFile: 's3://b/t/data/a.parquet', positions: [0n, 4n, 4n], specId: 0, partition: [19800] },
    { referencedDataFile: 's3://b/t/data/b.parquet', positions: [2n, 3n, 4n, 5n], specId: 0, partition: [19801] },
  ];
  const { bytes, files } = writeDeletionVectorFile('s3://b/t/data/dv.puffin', dvs, 'test');
  const footer = readPuffinFooter(bytes);
  tt.equal(footer.properties['created-by'], 'test');
  tt.equal(footer.blobs.length, 2);
  footer.blobs.forEach((b: any, i: number) => {
    const dv = dvs[i]!;
    tt.equal(b.type, 'deletion-vector-v1');
    tt.same(b.fields, [2147483645], 'the _pos metadata column');
    tt.equal(b['snapshot-id'], -1);
    tt.equal(b['sequence-number'], -1);
    tt.equal(b.properties['referenced-data-file'], dv.referencedDataFile);
    tt.equal(b.properties.cardinality, String(new Set(dv.positions).size));
    const decoded = decodeDvBlob(bytes.subarray(b.offset, b.offset + b.length));
    tt.same(decoded.positions, [...new Set(dv.positions)]);
    const f = files[i]!;
    tt.equal(f.fileFormat, 'PUFFIN');
    tt.equal(f.content, 1);
    tt.equal(f.filePath, 's3://b/t/data/dv.puffin');
    tt.equal(f.referencedDataFile, dv.referencedDataFile);
    tt.equal(f.contentOffset, BigInt(b.offset));
    tt.equal(f.contentSizeInBytes, BigInt(b.length));
    tt.equal(f.recordCount, BigInt(new Set(dv.positions).size));
    tt.equal(f.fileSizeInBytes, BigInt(bytes.length));
    tt.same(f.partition, dv.partition);
  });
});
