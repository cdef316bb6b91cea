import t, { type Test } from 'tap';
import { isIcefrontError } from '../../../src/errors/index.js';
import { Schema } from '../../../src/iceberg/index.js';
import { readManifest, readManifestList } from '../../../src/planner/manifests/index.js';
import { writeAvro, type Codec } from './avro-file.js';
import { MemoryIO } from './memory-io.js';
import { entryRecord, manifestEntrySchema, manifestFile, manifestListSchema } from './manifest-schemas.js';

function listRecords(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    manifest_path: `s3://b/t/metadata/m${i}.avro`,
    manifest_length: 4096n + BigInt(i),
    partition_spec_id: 0,
    content: i % 2,
    sequence_number: BigInt(i),
    min_sequence_number: 0n,
    added_snapshot_id: 9158179788527662767n,
    added_files_count: i,
    existing_files_count: 0,
    deleted_files_count: 0,
    added_rows_count: 2n ** 60n + BigInt(i),
    existing_rows_count: 0n,
    deleted_rows_count: 0n,
    partitions: null,
    key_metadata: null,
  }));
}

const specsById = new Map([[0, { specId: 0, fields: [] }]]);
const schema = new Schema([{ id: 1, name: 'id', required: true, type: { kind: 'long' } }]);

for (const codec of ['null', 'deflate', 'snappy', 'zstandard'] as Codec[]) {
  t.test(`a ${codec} manifest list and manifest decode with every block`, async (t) => {
    const io = new MemoryIO();
    const list = io.put(`mem://list-${codec}.avro`, await writeAvro(manifestListSchema(), listRecords(300), { codec, blockSize: 2000 }));
    const manifests = await readManifestList(io, list, { formatVersion: 2 });
    t.equal(manifests.length, 300);
    t.same(
      manifests.map((m) => [m.path, m.content, m.sequenceNumber, m.addedSnapshotId, m.addedFilesCount, m.addedRowsCount]),
      listRecords(300).map((r) => [r.manifest_path, r.content, r.sequence_number, r.added_snapshot_id, r.added_files_count, r.added_rows_count]),
      'values, 63-bit longs included, survive',
    );

    const entries = Array.from({ length: 200 }, (_, i) => entryRecord({}, i));
    const path = io.put(`mem://manifest-${codec}.avro`, await writeAvro(manifestEntrySchema([]), entries, { codec, blockSize: 1500 }));
    const read = await readManifest(io, manifestFile(path), { specsById, schema });
    t.equal(read.entries.length, 200);
    t.ok(read.index.blocks.length > 5, `several blocks (${read.index.blocks.length})`);
    t.same(
      read.entries.map((e) => e.file.filePath),
      entries.map((e) => (e['data_file'] as { file_path: string }).file_path),
    );
  });
}

async function rejectsInvalid(t: Test, io: MemoryIO, location: string, message: RegExp): Promise<void> {
  const err = await readManifestList(io, location, { formatVersion: 2 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(isIcefrontError(err, 'INVALID_METADATA'), `INVALID_METADATA (${String(err)})`);
  t.match((err as Error).message, location, 'the message names the file');
  t.match((err as Error).message, message);
}

t.test('corrupt files are INVALID_METADATA naming the file, never a crash', async (t) => {
  const io = new MemoryIO();
  const good = await writeAvro(manifestListSchema(), listRecords(20), { codec: 'deflate' });

  await rejectsInvalid(t, io, io.put('mem://magic.avro', Buffer.concat([Buffer.from('PAR1'), good.subarray(4)])), /bad magic/);
  await rejectsInvalid(t, io, io.put('mem://empty.avro', Buffer.alloc(0)), /truncated/);
  await rejectsInvalid(t, io, io.put('mem://short-header.avro', good.subarray(0, 40)), /truncated/);
  await rejectsInvalid(t, io, io.put('mem://short-block.avro', good.subarray(0, good.length - 30)), /truncated|needs/);

  const badSync = Buffer.from(good);
  badSync[badSync.length - 1] ^= 0xff;
  await rejectsInvalid(t, io, io.put('mem://sync.avro', badSync), /sync marker/);

  const snappy = await writeAvro(manifestListSchema(), listRecords(20), { codec: 'snappy' });
  const badCrc = Buffer.from(snappy);
  badCrc[badCrc.length - 17] ^= 0x01; // last byte of the block's CRC, just before the sync marker
  await rejectsInvalid(t, io, io.put('mem://crc.avro', badCrc), /CRC/);

  const badDeflate = Buffer.from(good);
  badDeflate.fill(0xff, badDeflate.length - 60, badDeflate.length - 17);
  await rejectsInvalid(t, io, io.put('mem://inflate.avro', badDeflate), /deflate|record|bytes after|truncated/);

  // same length as "deflate", so the header stays well-formed
  const otherCodec = Buffer.from(good.toString('latin1').replace('deflate', 'bzip2xx'), 'latin1');
  await rejectsInvalid(t, io, io.put('mem://codec.avro', otherCodec), /unsupported Avro codec "bzip2xx"/);
});

t.test('a record that does not match the schema is invalid metadata', async (t) => {
  const io = new MemoryIO();
  const other = { type: 'record', name: 'manifest_file', fields: [{ name: 'manifest_path', type: 'string', 'field-id': 500 }] };
  const path = io.put('mem://missing-fields.avro', await writeAvro(other, [{ manifest_path: 'x' }]));
  await t.rejects(readManifestList(io, path, { formatVersion: 2 }), { code: 'INVALID_METADATA', message: /manifest_length is missing/ });
});
