import t from 'tap';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromBinary, parsePartitionSpec, parseSchema, toBinary } from '../../../src/iceberg/index.js';
import {
  ADDED,
  bindSpec,
  DELETED,
  EXISTING,
  writeManifest,
  writeManifestList,
  type AvroCodec,
  type ContentFile,
  type FormatVersion,
  type ManifestEntry,
  type ManifestFile,
} from '../../../tools/iceberg-writer/index.js';
import { avroMap, fieldIds, fieldsWithoutIds, readAvro } from '../helpers/read-back.js';

const schema = parseSchema({
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 1, name: 'id', required: true, type: 'long' },
    { id: 2, name: 'region', required: false, type: 'string' },
    { id: 3, name: 'ts', required: false, type: 'timestamptz' },
    { id: 4, name: 'session', required: false, type: 'uuid' },
  ],
});
const spec = parsePartitionSpec({
  'spec-id': 7,
  fields: [
    { name: 'region', transform: 'identity', 'source-id': 2, 'field-id': 1000 },
    { name: 'ts_day', transform: 'day', 'source-id': 3, 'field-id': 1001 },
    { name: 'id_bucket', transform: 'bucket[16]', 'source-id': 1, 'field-id': 1002 },
    { name: 'session', transform: 'identity', 'source-id': 4, 'field-id': 1003 },
  ],
});
const bound = bindSpec(spec, schema);
const BIG_SNAPSHOT = 9_158_179_788_527_662_767n; // > 2^53, as Java's random ids usually are

function dataFile(n: number, partition: ContentFile['partition'], extra: Partial<ContentFile> = {}): ContentFile {
  return {
    content: 0,
    filePath: `s3://b/t/data/f${n}.parquet`,
    fileFormat: 'PARQUET',
    specId: 7,
    partition,
    recordCount: BigInt(10 * n),
    fileSizeInBytes: BigInt(1000 + n),
    columnSizes: new Map([[1, 40n], [2, 50n]]),
    valueCounts: new Map([[1, BigInt(10 * n)]]),
    nullValueCounts: new Map([[1, 0n]]),
    nanValueCounts: new Map(),
    lowerBounds: new Map([[1, toBinary({ kind: 'long' }, BigInt(n))]]),
    upperBounds: new Map([[1, toBinary({ kind: 'long' }, BigInt(n * 100))]]),
    splitOffsets: [4n],
    sortOrderId: 0,
    ...extra,
  };
}

const entries: ManifestEntry[] = [
  { status: ADDED, snapshotId: BIG_SNAPSHOT, sequenceNumber: null, fileSequenceNumber: null, file: dataFile(1, ['EU', 19700, 3, '00000000-0000-4000-8000-000000000001']) },
  { status: EXISTING, snapshotId: 5n, sequenceNumber: 2n, fileSequenceNumber: 2n, file: dataFile(2, ['US', 19650, 15, null], { firstRowId: 100n }) },
  { status: DELETED, snapshotId: BIG_SNAPSHOT, sequenceNumber: 1n, fileSequenceNumber: 1n, file: dataFile(3, [null, 19800, 0, 'ffffffff-0000-4000-8000-000000000000']) },
];

function write(version: FormatVersion, codec: AvroCodec) {
  return writeManifest({
    version,
    schema,
    bound,
    content: 0,
    entries,
    path: 's3://b/t/metadata/m0.avro',
    snapshotId: BIG_SNAPSHOT,
    sequenceNumber: 4n,
    codec,
  });
}

for (const version of [1, 2, 3] as const) {
  for (const codec of ['null', 'deflate', 'snappy'] as const) {
    t.test(`a v${version} ${codec} manifest decodes with a plain avsc reader and keeps every field id`, async (tt) => {
      const { bytes, manifest } = write(version, codec);
      const back = await readAvro(bytes);
      tt.equal(back.codec, codec);
      tt.same(fieldsWithoutIds(back.rawSchema), [], 'every field and list carries an id');
      tt.equal(back.rawSchema.name, 'manifest_entry');
      const dataFileSchema = back.rawSchema.fields.find((f: any) => f['field-id'] === 2).type;
      tt.equal(dataFileSchema.name, 'r2');
      const ids = [...fieldIds(dataFileSchema).keys()];
      tt.equal(ids.includes(134), version >= 2, 'content (134) from v2');
      tt.equal(ids.includes(105), version === 1, 'block_size_in_bytes (105) in v1 only');
      tt.equal(ids.includes(143), version >= 2, 'referenced_data_file (143) from v2');
      tt.equal(ids.includes(142) && ids.includes(144) && ids.includes(145), version === 3, 'first_row_id, content_offset, content_size_in_bytes in v3');
      const partitionSchema = dataFileSchema.fields.find((f: any) => f['field-id'] === 102).type;
      tt.same(partitionSchema.fields.map((f: any) => f['field-id']), [1000, 1001, 1002, 1003]);

      const expectedKeys = ['schema', 'partition-spec', 'partition-spec-id', 'format-version', 'iceberg.schema', ...(version >= 2 ? ['content'] : [])];
      for (const k of expectedKeys) tt.ok(k in back.meta, `header key ${k}`);
      tt.notOk(version === 1 && 'content' in back.meta, 'no content key in v1');
      tt.equal(back.meta['format-version'], String(version));
      tt.equal(back.meta['partition-spec-id'], '7');
      tt.same(JSON.parse(back.meta['partition-spec']!).map((f: any) => f['field-id']), [1000, 1001, 1002, 1003]);
      tt.same(parseSchema(JSON.parse(back.meta['schema']!)).fields.map((f) => f.name), ['id', 'region', 'ts', 'session']);

      tt.same(back.rows.map((r) => r.status), entries.map((e) => e.status));
      tt.same(back.rows.map((r) => r.snapshot_id), entries.map((e) => e.snapshotId));
      if (version >= 2) tt.same(back.rows.map((r) => r.sequence_number), entries.map((e) => e.sequenceNumber));
      const first = back.rows[0].data_file;
      tt.same(first.partition, { region: 'EU', ts_day: 19700, id_bucket: 3, session: Buffer.from(toBinary({ kind: 'uuid' }, '00000000-0000-4000-8000-000000000001')) });
      tt.equal(first.record_count, 10n);
      tt.same(avroMap(first.column_sizes), entries[0]!.file.columnSizes);
      tt.same(fromBinary({ kind: 'long' }, avroMap<Buffer>(first.upper_bounds).get(1)!), 100n);
      if (version === 3) tt.equal(back.rows[1].data_file.first_row_id, 100n);

      tt.equal(manifest.length, BigInt(bytes.length));
      tt.equal(manifest.addedFilesCount, 1);
      tt.equal(manifest.existingFilesCount, 1);
      tt.equal(manifest.deletedFilesCount, 1);
      tt.same([manifest.addedRowsCount, manifest.existingRowsCount, manifest.deletedRowsCount], [10n, 20n, 30n]);
      tt.equal(manifest.minSequenceNumber, 1n, 'lowest explicit sequence number');
      tt.equal(manifest.sequenceNumber, 4n);
    });
  }
}

t.test('partition summaries hold null/NaN flags and the bounds of each partition field', async (tt) => {
  const { manifest } = write(2, 'null');
  const [region, day, bucket, session] = manifest.partitions;
  tt.equal(region!.containsNull, true);
  tt.equal(fromBinary({ kind: 'string' }, region!.lowerBound!), 'EU');
  tt.equal(fromBinary({ kind: 'string' }, region!.upperBound!), 'US');
  tt.equal(day!.containsNull, false);
  tt.same([fromBinary({ kind: 'date' }, day!.lowerBound!), fromBinary({ kind: 'date' }, day!.upperBound!)], [19650, 19800]);
  tt.same([fromBinary({ kind: 'int' }, bucket!.lowerBound!), fromBinary({ kind: 'int' }, bucket!.upperBound!)], [0, 15]);
  tt.equal(day!.containsNan, false);
  // Java orders uuids as signed longs: ffffffff-… is negative, so it is the lower bound
  tt.equal(fromBinary({ kind: 'uuid' }, session!.lowerBound!), 'ffffffff-0000-4000-8000-000000000000');
  tt.equal(session!.containsNull, true);
});

t.test('a v1 manifest refuses delete content', async (tt) => {
  tt.throws(() => writeManifest({ version: 1, schema, bound, content: 1, entries: [], path: 'x', snapshotId: 1n, sequenceNumber: 0n, codec: 'null' }));
});

const listed = (content: 0 | 1, added: bigint, existing: bigint, firstRowId?: bigint): ManifestFile => ({
  path: `s3://b/t/metadata/${content}-${added}.avro`,
  length: 1234n,
  specId: 7,
  content,
  sequenceNumber: 3n,
  minSequenceNumber: 1n,
  addedSnapshotId: BIG_SNAPSHOT,
  addedFilesCount: 2,
  existingFilesCount: 1,
  deletedFilesCount: 0,
  addedRowsCount: added,
  existingRowsCount: existing,
  deletedRowsCount: 0n,
  partitions: [{ containsNull: false, containsNan: false, lowerBound: Uint8Array.of(1, 0, 0, 0), upperBound: Uint8Array.of(9, 0, 0, 0) }],
  ...(firstRowId !== undefined && { firstRowId }),
});

for (const version of [1, 2, 3] as const) {
  t.test(`a v${version} manifest list carries Java's header keys and the manifest records`, async (tt) => {
    const manifests = version === 1 ? [listed(0, 5n, 1n)] : [listed(0, 5n, 1n), listed(1, 3n, 0n), listed(0, 7n, 2n, 50n), listed(0, 4n, 0n)];
    const result = writeManifestList({
      version,
      path: 's3://b/t/metadata/snap-1.avro',
      snapshotId: BIG_SNAPSHOT,
      parentSnapshotId: version === 1 ? null : 42n,
      sequenceNumber: 3n,
      firstRowId: version === 3 ? 1000n : undefined,
      manifests,
      codec: 'deflate',
    });
    const back = await readAvro(result.bytes);
    tt.same(fieldsWithoutIds(back.rawSchema), []);
    tt.equal(back.rawSchema.name, 'manifest_file');
    tt.equal(back.meta['snapshot-id'], String(BIG_SNAPSHOT), 'int64 id written exactly');
    tt.equal(back.meta['parent-snapshot-id'], version === 1 ? 'null' : '42');
    tt.equal(back.meta['format-version'], String(version));
    tt.equal('sequence-number' in back.meta, version >= 2);
    tt.equal(back.meta['first-row-id'], version === 3 ? '1000' : undefined);
    tt.ok('iceberg.schema' in back.meta);
    tt.same(back.rows.map((r) => r.manifest_path), manifests.map((m) => m.path));
    tt.same(back.rows.map((r) => r.added_snapshot_id), manifests.map(() => BIG_SNAPSHOT));
    tt.same(back.rows[0].partitions[0].lower_bound, Buffer.from([1, 0, 0, 0]));
    const ids = [...fieldIds(back.rawSchema).keys()];
    tt.equal(ids.includes(517), version >= 2, 'content (517) from v2');
    tt.equal(ids.includes(520), version === 3, 'first_row_id (520) in v3');
    if (version === 3) {
      // spec "Row Lineage": data manifests without a first_row_id get consecutive ranges; delete manifests get none
      tt.same(back.rows.map((r) => r.first_row_id), [1000n, null, 50n, 1006n]);
      tt.equal(result.nextRowId, 1010n);
    }
  });
}

const PYTHON = '/usr/bin/python3';
function pythonAvroMissing(): string | false {
  try {
    execFileSync(PYTHON, ['-c', 'import avro'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'python3-avro is not installed for /usr/bin/python3 (Debian package python3-avro); cross-check skipped';
  }
}

t.test('Apache Avro for Python reads a written manifest (optional cross-check)', { skip: pythonAvroMissing() }, async (tt) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-avro-'));
  tt.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'm.avro');
  fs.writeFileSync(file, write(2, 'deflate').bytes);
  const script = 'import sys, json, avro.datafile, avro.io\n'
    + 'r = avro.datafile.DataFileReader(open(sys.argv[1], "rb"), avro.io.DatumReader())\n'
    + 'print(json.dumps([[e["status"], str(e["snapshot_id"]), e["data_file"]["file_path"]] for e in r]))';
  const out = JSON.parse(execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8' }));
  tt.same(out, entries.map((e) => [e.status, String(e.snapshotId), e.file.filePath]));
});
