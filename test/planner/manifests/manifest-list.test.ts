import fs from 'node:fs';
import path from 'node:path';
import avro from 'avsc';
import t from 'tap';
import { readInlineManifests, readManifestList } from '../../../src/planner/manifests/index.js';
import { avroOptions } from '../../../src/planner/manifests/avro-types.js';
import { writeAvro } from './avro-file.js';
import { MemoryIO } from './memory-io.js';
import { entryRecord, field, manifestEntrySchema, manifestListSchema } from './manifest-schemas.js';

const VECTORS = path.resolve(import.meta.dirname, '../../../../shared/fixtures/vectors/standalone_manifest_lists/iceberg-rust');
const vectorsSkip = fs.existsSync(VECTORS) ? false : `standalone manifest lists not found at ${VECTORS} (../shared is absent)`;

/** Records as plain avsc reads them, by name: an independent reading to compare with. */
function plainAvsc(file: string): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const records: Array<Record<string, unknown>> = [];
    avro
      .createFileDecoder(file, { parseHook: (schema: avro.Schema) => avro.Type.forSchema(schema, avroOptions()) } as never)
      .on('data', (r: Record<string, unknown>) => records.push(r))
      .on('end', () => resolve(records))
      .on('error', reject);
  });
}

t.test('the Java-written iceberg-rust manifest lists decode, whichever name their count fields have', { skip: vectorsSkip }, async (t) => {
  const io = new MemoryIO();
  for (const name of ['manifest-list-v2-1.avro', 'manifest-list-v2-2.avro']) {
    const file = path.join(VECTORS, name);
    const list = await readManifestList(io, io.put(file, fs.readFileSync(file)), { formatVersion: 2 });
    const plain = await plainAvsc(file);
    t.equal(list.length, plain.length, `${name}: one entry per record`);
    for (const [i, m] of list.entries()) {
      const r = plain[i]!;
      t.same(
        [m.path, m.length, m.specId, m.content, m.sequenceNumber, m.minSequenceNumber, m.addedSnapshotId],
        [r['manifest_path'], r['manifest_length'], r['partition_spec_id'], r['content'], r['sequence_number'], r['min_sequence_number'], r['added_snapshot_id']],
        `${name}: entry ${i}`,
      );
      t.equal(m.addedFilesCount, r['added_files_count'] ?? r['added_data_files_count'], `${name}: added files count`);
      t.equal(m.existingFilesCount, r['existing_files_count'] ?? r['existing_data_files_count']);
      t.equal(m.addedRowsCount, r['added_rows_count']);
    }
  }
});

t.test('the encrypted iceberg-rust manifest list is refused with a clear error', { skip: vectorsSkip }, async (t) => {
  const io = new MemoryIO();
  const file = path.join(VECTORS, 'manifest-list-v3-encrypted.avro');
  await t.rejects(readManifestList(io, io.put(file, fs.readFileSync(file)), { formatVersion: 3 }), {
    code: 'UNSUPPORTED_OPERATION',
    message: /manifest-list-v3-encrypted\.avro.*encrypted/,
  });
});

// Java V1Metadata.MANIFEST_LIST_SCHEMA: no content or sequence numbers, optional counts
const v1ListSchema = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    field('manifest_path', 500, 'string'),
    field('manifest_length', 501, 'long'),
    field('partition_spec_id', 502, 'int'),
    field('added_snapshot_id', 503, 'long', true),
    field('added_data_files_count', 504, 'int', true),
    field('existing_data_files_count', 505, 'int', true),
    field('deleted_data_files_count', 506, 'int', true),
  ],
};

t.test('a v1 manifest list reads as data manifests with sequence number 0 and unknown counts', async (t) => {
  const io = new MemoryIO();
  const rows = [
    { manifest_path: 'm0.avro', manifest_length: 10n, partition_spec_id: 0, added_snapshot_id: 5n, added_data_files_count: 2, existing_data_files_count: null, deleted_data_files_count: null },
    { manifest_path: 'm1.avro', manifest_length: 11n, partition_spec_id: 0, added_snapshot_id: null, added_data_files_count: null, existing_data_files_count: null, deleted_data_files_count: null },
  ];
  const withHeader = io.put('mem://v1.avro', await writeAvro(v1ListSchema, rows, { metadata: { 'snapshot-id': '77', 'format-version': '1' } }));
  const list = await readManifestList(io, withHeader, { formatVersion: 1 });
  t.same(
    list.map((m) => [m.content, m.sequenceNumber, m.minSequenceNumber, m.addedSnapshotId, m.addedFilesCount, m.existingFilesCount, m.partitions]),
    [
      [0, 0n, 0n, 5n, 2, undefined, undefined],
      [0, 0n, 0n, 77n, undefined, undefined, undefined],
    ],
    'a null added_snapshot_id falls back to the list header snapshot-id',
  );

  const bare = io.put('mem://v1-bare.avro', await writeAvro(v1ListSchema, rows));
  t.equal((await readManifestList(io, bare, { formatVersion: 1, snapshotId: 88n }))[1]!.addedSnapshotId, 88n, '…or to the snapshot id the caller knows');
  await t.rejects(readManifestList(io, bare, { formatVersion: 1 }), { code: 'INVALID_METADATA', message: /added_snapshot_id is missing/ });
});

t.test('fields are found by id whatever their names and order, and by name when a writer wrote no ids', async (t) => {
  const io = new MemoryIO();
  // DuckDB re-serialisation: every field a nullable union, alphabetical order, different names
  const renamed = {
    type: 'record',
    name: 'whatever',
    fields: [
      field('a_count', 504, 'int', true),
      field('len', 501, 'long', true),
      field('path', 500, 'string', true),
      field('seq', 515, 'long', true),
      field('snap', 503, 'long', true),
      field('spec', 502, 'int', true),
      field('kind', 517, 'int', true),
    ],
  };
  const a = io.put('mem://renamed.avro', await writeAvro(renamed, [{ a_count: 3, len: 9n, path: 'p.avro', seq: 4n, snap: 6n, spec: 2, kind: 1 }]));
  const [m] = await readManifestList(io, a, { formatVersion: 2 });
  t.same([m!.path, m!.length, m!.specId, m!.content, m!.sequenceNumber, m!.addedSnapshotId, m!.addedFilesCount], ['p.avro', 9n, 2, 1, 4n, 6n, 3]);

  // iceberg-cxx meta_perf: no field ids at all, old and new count names side by side
  const noIds = {
    type: 'record',
    name: 'manifest_file',
    fields: ['manifest_path:string', 'manifest_length:long', 'partition_spec_id:int', 'added_snapshot_id:long', 'added_files_count:int?', 'added_data_files_count:int?'].map((s) => {
      const [name, type] = s.split(':') as [string, string];
      return type.endsWith('?') ? { name, type: ['null', type.slice(0, -1)], default: null } : { name, type };
    }),
  };
  const b = io.put(
    'mem://no-ids.avro',
    await writeAvro(noIds, [
      { manifest_path: 'x', manifest_length: 1n, partition_spec_id: 0, added_snapshot_id: 1n, added_files_count: null, added_data_files_count: 8 },
      { manifest_path: 'y', manifest_length: 1n, partition_spec_id: 0, added_snapshot_id: 1n, added_files_count: 9, added_data_files_count: null },
    ]),
  );
  t.same((await readManifestList(io, b, { formatVersion: 2 })).map((x) => x.addedFilesCount), [8, 9]);
});

t.test('partition summaries and v3 first_row_id are read', async (t) => {
  const io = new MemoryIO();
  const row = {
    manifest_path: 'm.avro',
    manifest_length: 1n,
    partition_spec_id: 0,
    content: 0,
    sequence_number: 3n,
    min_sequence_number: 2n,
    added_snapshot_id: 1n,
    added_files_count: 1,
    existing_files_count: 0,
    deleted_files_count: 0,
    added_rows_count: 5n,
    existing_rows_count: 0n,
    deleted_rows_count: 0n,
    partitions: [
      { contains_null: true, contains_nan: null, lower_bound: Buffer.from([1, 0, 0, 0]), upper_bound: Buffer.from([7, 0, 0, 0]) },
      { contains_null: false, contains_nan: false, lower_bound: null, upper_bound: null },
    ],
    key_metadata: null,
    first_row_id: 1234n,
  };
  const p = io.put('mem://v3.avro', await writeAvro(manifestListSchema(3), [row]));
  const [v3] = await readManifestList(io, p, { formatVersion: 3 });
  t.equal(v3!.firstRowId, 1234n);
  t.same(v3!.partitions, [
    { containsNull: true, containsNan: undefined, lowerBound: Buffer.from([1, 0, 0, 0]), upperBound: Buffer.from([7, 0, 0, 0]) },
    { containsNull: false, containsNan: false, lowerBound: undefined, upperBound: undefined },
  ]);
  const [v2] = await readManifestList(io, p, { formatVersion: 2 });
  t.equal(v2!.firstRowId, undefined, 'row lineage is a v3 feature');
});

t.test('v1 inline manifests get the header spec id, the file length and the snapshot id', async (t) => {
  const io = new MemoryIO();
  const entries = [entryRecord({}, 0)];
  const withSpec = io.put('mem://inline-a.avro', await writeAvro(manifestEntrySchema([]), entries, { metadata: { 'partition-spec-id': '3' } }));
  const withoutSpec = io.put('mem://inline-b.avro', await writeAvro(manifestEntrySchema([]), entries));
  const list = await readInlineManifests(io, [withSpec, withoutSpec], { snapshotId: 42n });
  t.same(
    list.map((m) => [m.path, m.specId, m.length, m.content, m.sequenceNumber, m.addedSnapshotId, m.addedFilesCount]),
    [
      [withSpec, 3, BigInt(io.files.get(withSpec)!.length), 0, 0n, 42n, undefined],
      [withoutSpec, 0, BigInt(io.files.get(withoutSpec)!.length), 0, 0n, 42n, undefined],
    ],
  );
  t.same([io.readFiles, io.rangeReads], [0, 2], 'one ranged read per manifest, for its header');
});
