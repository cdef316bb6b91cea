import t from 'tap';
import { Schema, type ManifestEntry, type PartitionSpec } from '../../../src/iceberg/index.js';
import { readManifest, type EntryRange, type ManifestBlock, type ReadManifestOptions } from '../../../src/planner/manifests/index.js';
import { writeAvro } from './avro-file.js';
import { MemoryIO } from './memory-io.js';
import { entryRecord, field, manifestEntrySchema, manifestFile, type EntryInput } from './manifest-schemas.js';

const schema = new Schema([
  { id: 1, name: 'id', required: true, type: { kind: 'long' } },
  { id: 2, name: 'category', required: false, type: { kind: 'string' } },
]);
const unpartitioned: PartitionSpec = { specId: 0, fields: [] };
const byCategory: PartitionSpec = { specId: 1, fields: [{ sourceId: 2, fieldId: 1000, name: 'category', transform: 'identity' }] };
const specsById = new Map([
  [0, unpartitioned],
  [1, byCategory],
]);
const opts = (extra: Partial<ReadManifestOptions> = {}): ReadManifestOptions => ({ specsById, schema, ...extra });

async function manifestOf(io: MemoryIO, name: string, entries: EntryInput[], version: 2 | 3 = 2, blockSize?: number): Promise<string> {
  const bytes = await writeAvro(
    manifestEntrySchema([], version),
    entries.map((e, i) => entryRecord(e, i, version)),
    { metadata: { 'partition-spec-id': '0', 'format-version': String(version), content: 'data' }, ...(blockSize !== undefined && { blockSize }) },
  );
  return io.put(`mem://${name}.avro`, bytes);
}

const slim = (e: ManifestEntry) => ({
  position: e.position,
  status: e.status,
  snapshotId: e.snapshotId,
  dataSequenceNumber: e.dataSequenceNumber,
  fileSequenceNumber: e.fileSequenceNumber,
  firstRowId: e.file.firstRowId,
  path: e.file.filePath,
});

t.test('sequence numbers and snapshot ids are inherited exactly as the spec says', async (t) => {
  const io = new MemoryIO();
  const path = await manifestOf(io, 'seq', [
    { status: 1 }, // ADDED, everything null: inherits
    { status: 1, sequenceNumber: 3n, fileSequenceNumber: 4n, snapshotId: 33n }, // explicit values win
    { status: 0, sequenceNumber: 2n, fileSequenceNumber: null, snapshotId: 22n }, // EXISTING: file seq stays unknown
    { status: 2, sequenceNumber: 5n, fileSequenceNumber: 5n, snapshotId: 55n },
  ]);
  const { entries } = await readManifest(io, manifestFile(path, { sequenceNumber: 7n, addedSnapshotId: 700n }), opts());
  t.same(entries.map(slim), [
    { position: 0, status: 1, snapshotId: 700n, dataSequenceNumber: 7n, fileSequenceNumber: 7n, firstRowId: undefined, path: 's3://bucket/t/data/f-0.parquet' },
    { position: 1, status: 1, snapshotId: 33n, dataSequenceNumber: 3n, fileSequenceNumber: 4n, firstRowId: undefined, path: 's3://bucket/t/data/f-1.parquet' },
    { position: 2, status: 0, snapshotId: 22n, dataSequenceNumber: 2n, fileSequenceNumber: undefined, firstRowId: undefined, path: 's3://bucket/t/data/f-2.parquet' },
    { position: 3, status: 2, snapshotId: 55n, dataSequenceNumber: 5n, fileSequenceNumber: 5n, firstRowId: undefined, path: 's3://bucket/t/data/f-3.parquet' },
  ]);
  t.ok(entries.every((e) => e.manifestPath === path && e.file.specId === 0), 'entries name their manifest and its spec id');
});

t.test('in a manifest listed with sequence number 0 (v1 history) every entry inherits 0', async (t) => {
  const io = new MemoryIO();
  const path = await manifestOf(io, 'v1', [{ status: 0, snapshotId: 1n }, { status: 1 }]);
  const { entries } = await readManifest(io, manifestFile(path, { sequenceNumber: 0n }), opts());
  t.same(entries.map((e) => [e.dataSequenceNumber, e.fileSequenceNumber]), [
    [0n, 0n],
    [0n, 0n],
  ]);
});

t.test('an EXISTING entry without a data sequence number is invalid metadata naming the manifest', async (t) => {
  const io = new MemoryIO();
  const path = await manifestOf(io, 'bad-seq', [{ status: 0, snapshotId: 1n }]);
  await t.rejects(readManifest(io, manifestFile(path, { sequenceNumber: 9n }), opts()), { code: 'INVALID_METADATA', message: /mem:\/\/bad-seq\.avro/ });
});

t.test('first row ids are assigned in file order to live entries without one, from the manifest first_row_id', async (t) => {
  const io = new MemoryIO();
  const path = await manifestOf(
    io,
    'rows',
    [
      { status: 1, recordCount: 10n }, // 1000
      { status: 2, recordCount: 50n, sequenceNumber: 1n }, // DELETED: skipped, does not advance
      { status: 0, recordCount: 7n, sequenceNumber: 1n, firstRowId: 5n }, // explicit: kept, does not advance
      { status: 0, recordCount: 3n, sequenceNumber: 1n, snapshotId: 1n }, // 1010
      { status: 1, recordCount: 4n }, // 1013
    ],
    3,
  );
  const { entries } = await readManifest(io, manifestFile(path, { firstRowId: 1000n }), opts());
  t.same(entries.map((e) => e.file.firstRowId), [1000n, undefined, 5n, 1010n, 1013n]);

  t.test('without a manifest first_row_id every file reads none', async (t) => {
    const { entries: none } = await readManifest(io, manifestFile(path), opts());
    t.same(none.map((e) => e.file.firstRowId), [undefined, undefined, undefined, undefined, undefined]);
  });
  t.test('delete manifests never assign row ids', async (t) => {
    const { entries: deletes } = await readManifest(io, manifestFile(path, { content: 1, firstRowId: 1000n }), opts());
    t.same(deletes.map((e) => e.file.firstRowId), [undefined, undefined, undefined, undefined, undefined]);
  });
});

// many small blocks: avsc closes a block after ~blockSize bytes
async function blockyManifest(io: MemoryIO, count: number): Promise<string> {
  const entries: EntryInput[] = Array.from({ length: count }, (_, i) =>
    i % 7 === 3 ? { status: 2, sequenceNumber: 1n, snapshotId: 1n, recordCount: 100n } : { status: 1, recordCount: BigInt(1 + (i % 5)) },
  );
  return manifestOf(io, `blocky-${count}`, entries, 3, 600);
}

const RANGES = [
  { start: 0, end: 1 },
  { start: 137, end: 142 },
  { start: 1390, end: 1400 },
  { start: 250, end: 10_000 },
];

const overlapping = (blocks: readonly ManifestBlock[], range: EntryRange) =>
  blocks.filter((b) => b.firstEntry < range.end && b.firstEntry + b.entryCount > range.start);

t.test('a range read returns exactly the slice of the full read and decompresses only the blocks it overlaps', async (t) => {
  const io = new MemoryIO();
  const path = await blockyManifest(io, 1400);
  const full = await readManifest(io, manifestFile(path), opts());
  t.equal(full.entries.length, 1400);
  t.ok(full.index.blocks.length >= 100, `the test manifest has many blocks (${full.index.blocks.length})`);
  t.equal(full.stats.blocksDecoded, full.index.blocks.length, 'a full read decodes every block');

  for (const range of RANGES) {
    const part = await readManifest(io, manifestFile(path), opts({ range }));
    t.same(part.entries, full.entries.slice(range.start, range.end), `entries [${range.start}, ${range.end})`);
    t.equal(part.stats.blocksDecoded, overlapping(full.index.blocks, range).length, `[${range.start}, ${range.end}): ${part.stats.blocksDecoded} of ${full.stats.blocksDecoded} blocks decoded`);
  }
});

t.test('with row lineage, a range read also counts the rows of earlier entries, using only their record counts', async (t) => {
  const io = new MemoryIO();
  const path = await blockyManifest(io, 1400);
  const manifest = manifestFile(path, { firstRowId: 5000n });
  const full = await readManifest(io, manifest, opts());
  t.equal(full.entries.length, 1400);
  for (const range of RANGES) {
    const part = await readManifest(io, manifest, opts({ range }));
    t.same(part.entries, full.entries.slice(range.start, range.end), `entries [${range.start}, ${range.end}) with first row ids`);
    const before = full.index.blocks.filter((b) => b.firstEntry + b.entryCount <= range.start).length;
    t.equal(part.stats.blocksDecoded, before + overlapping(full.index.blocks, range).length, 'earlier blocks are decoded (row-id projection), later ones are not');
  }
});

t.test('with the index of an earlier read, a range read starts at its block and reads only header and needed bytes', async (t) => {
  const io = new MemoryIO();
  const path = await blockyManifest(io, 1400);
  const manifest = manifestFile(path, { firstRowId: 5000n });
  const full = await readManifest(io, manifest, opts());
  const range = { start: 1300, end: 1320 };
  const needed = overlapping(full.index.blocks, range);

  const cold = await readManifest(io, manifest, opts({ range }));
  const warm = await readManifest(io, manifest, opts({ range, index: full.index }));
  t.same(warm.entries, full.entries.slice(1300, 1320), 'same entries, first row ids included');
  t.same(cold.entries, warm.entries);
  t.equal(warm.stats.blocksDecoded, needed.length, 'only the overlapping blocks are decoded');
  t.equal(warm.stats.blocksWalked, needed.length, 'no earlier block header is read');
  t.ok(cold.stats.blocksDecoded > warm.stats.blocksDecoded, 'without the index, earlier blocks are decoded for row-id inheritance');
  t.ok(cold.stats.bytesRead > 2 * warm.stats.bytesRead, `without the index more bytes are read (${cold.stats.bytesRead} vs ${warm.stats.bytesRead})`);
  const neededBytes = needed.reduce((n, b) => n + b.byteLength, 0);
  t.ok(warm.stats.bytesRead <= 16 * 1024 + neededBytes, `bytes read (${warm.stats.bytesRead}) ≤ header window + ${neededBytes}`);
  t.equal(warm.stats.reads, 2, 'one read for the header, one for the blocks');
});

t.test('one span covering consecutive blocks is enough to read a range in one request after the header', async (t) => {
  const io = new MemoryIO();
  const path = await blockyManifest(io, 1400);
  const manifest = manifestFile(path, { firstRowId: 5000n });
  const full = await readManifest(io, manifest, opts());
  const range = { start: 700, end: 760 };
  const needed = overlapping(full.index.blocks, range);
  t.ok(needed.length > 2, `the range spans ${needed.length} blocks`);
  const span: ManifestBlock = {
    offset: needed[0]!.offset,
    firstEntry: needed[0]!.firstEntry,
    entryCount: needed.reduce((n, b) => n + b.entryCount, 0),
    byteLength: needed.reduce((n, b) => n + b.byteLength, 0),
    nextRowId: needed[0]!.nextRowId!,
  };
  const part = await readManifest(io, manifest, opts({ range, index: { blocks: [span] } }));
  t.same(part.entries, full.entries.slice(700, 760));
  t.same([part.stats.reads, part.stats.blocksDecoded], [2, needed.length], 'header read + one read for the span; only its blocks decoded');
});

t.test('statsFieldIds keeps metrics of the listed columns only; an empty set skips them', async (t) => {
  const io = new MemoryIO();
  const path = await manifestOf(io, 'stats', [{ valueCounts: [[1, 10n], [2, 20n], [3, 30n]] }, { valueCounts: null }]);
  const all = await readManifest(io, manifestFile(path), opts());
  t.same([...all.entries[0]!.file.valueCounts!], [[1, 10n], [2, 20n], [3, 30n]]);
  t.equal(all.entries[1]!.file.valueCounts, undefined, 'a null map stays absent');
  t.same([...all.entries[0]!.file.lowerBounds!.keys()], [1]);

  const some = await readManifest(io, manifestFile(path), opts({ statsFieldIds: new Set([2]) }));
  t.same([...some.entries[0]!.file.valueCounts!], [[2, 20n]]);
  t.equal(some.entries[0]!.file.lowerBounds!.size, 0, 'no bound of column 2');

  const none = await readManifest(io, manifestFile(path), opts({ statsFieldIds: new Set() }));
  for (const key of ['columnSizes', 'valueCounts', 'nullValueCounts', 'nanValueCounts', 'lowerBounds', 'upperBounds'] as const) {
    t.equal(none.entries[0]!.file[key], undefined, `${key} is not decoded`);
  }
  t.same(
    none.entries.map((e) => [e.file.filePath, e.file.recordCount, e.file.splitOffsets]),
    all.entries.map((e) => [e.file.filePath, e.file.recordCount, e.file.splitOffsets]),
    'everything else is the same',
  );
});

t.test('the partition spec comes from the table, or from the manifest header when the table lacks it', async (t) => {
  const io = new MemoryIO();
  const partitionFields = [field('category', 1000, 'string', true)];
  const bytes = await writeAvro(
    manifestEntrySchema(partitionFields),
    [entryRecord({ partition: { category: 'a' } }, 0), entryRecord({ partition: { category: null } }, 1)],
    { metadata: { 'partition-spec-id': '1', 'partition-spec': JSON.stringify([{ name: 'category', transform: 'identity', 'source-id': 2, 'field-id': 1000 }]) } },
  );
  const path = io.put('mem://partitioned.avro', bytes);
  const fromTable = await readManifest(io, manifestFile(path, { specId: 1 }), opts());
  t.same(fromTable.entries.map((e) => e.file.partition), [['a'], [null]]);
  t.equal(fromTable.spec, byCategory);
  const fromHeader = await readManifest(io, manifestFile(path, { specId: 1 }), opts({ specsById: new Map() }));
  t.same(fromHeader.entries.map((e) => e.file.partition), [['a'], [null]]);
  t.same(fromHeader.spec.fields.map((f) => f.fieldId), [1000]);

  const noSpec = io.put('mem://no-spec.avro', await writeAvro(manifestEntrySchema(partitionFields), [entryRecord({ partition: { category: 'a' } }, 0)]));
  await t.rejects(readManifest(io, manifestFile(noSpec, { specId: 4 }), opts()), { code: 'INVALID_METADATA', message: /no-spec\.avro/ });
});

t.test('a missing manifest is FILE_NOT_FOUND, not invalid metadata', async (t) => {
  await t.rejects(readManifest(new MemoryIO(), manifestFile('mem://nope.avro'), opts()), { code: 'FILE_NOT_FOUND' });
});

t.test('a manifest without entries (header only) reads as empty', async (t) => {
  const io = new MemoryIO();
  const path = await manifestOf(io, 'empty', []);
  const full = await readManifest(io, manifestFile(path), opts());
  t.same([full.entries, full.index.blocks], [[], []]);
  const ranged = await readManifest(io, manifestFile(path, { firstRowId: 1n }), opts({ range: { start: 0, end: 10 } }));
  t.same(ranged.entries, []);
});
