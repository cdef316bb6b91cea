import t from 'tap';
import { MICROS_PER_DAY, Schema, decimalToBytes, uuidToBytes, type PartitionSpec, type PrimitiveType } from '../../../src/iceberg/index.js';
import { readManifest } from '../../../src/planner/manifests/index.js';
import { writeAvro } from './avro-file.js';
import { MemoryIO } from './memory-io.js';
import { entryRecord, field, manifestEntrySchema, manifestFile } from './manifest-schemas.js';

const columns: Array<[string, PrimitiveType]> = [
  ['b', { kind: 'boolean' }],
  ['i', { kind: 'int' }],
  ['l', { kind: 'long' }],
  ['f', { kind: 'float' }],
  ['d', { kind: 'double' }],
  ['dec', { kind: 'decimal', precision: 20, scale: 2 }],
  ['day', { kind: 'date' }],
  ['ts', { kind: 'timestamp' }],
  ['s', { kind: 'string' }],
  ['u', { kind: 'uuid' }],
  ['fx', { kind: 'fixed', length: 3 }],
  ['bin', { kind: 'binary' }],
  ['tstz', { kind: 'timestamptz' }],
];
const schema = new Schema(columns.map(([name, type], i) => ({ id: i + 1, name, required: false, type })));
const identity: PartitionSpec = {
  specId: 0,
  fields: columns.map(([name], i) => ({ sourceId: i + 1, fieldId: 1000 + i, name: `${name}_p`, transform: 'identity' })),
};

const UUID = 'f79c3e09-677c-4bbd-a479-3f349cb785e7';
const dec = decimalToBytes(-123456789012345678n);

async function read(partitionFields: unknown[], partition: Record<string, unknown>, spec = identity) {
  const io = new MemoryIO();
  const path = io.put('mem://p.avro', await writeAvro(manifestEntrySchema(partitionFields), [entryRecord({ partition }, 0)]));
  const { entries } = await readManifest(io, manifestFile(path, { specId: spec.specId }), { specsById: new Map([[spec.specId, spec]]), schema });
  return entries[0]!.file.partition;
}

t.test('partition values take the literal representation of each result type', async (t) => {
  const fields = [
    field('b_p', 1000, 'boolean', true),
    field('i_p', 1001, 'int', true),
    field('l_p', 1002, 'long', true),
    field('f_p', 1003, 'float', true),
    field('d_p', 1004, 'double', true),
    field('dec_p', 1005, { type: 'fixed', name: 'fixed_9', size: 9, logicalType: 'decimal', precision: 20, scale: 2 }, true),
    field('day_p', 1006, { type: 'int', logicalType: 'date' }, true),
    field('ts_p', 1007, { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': false }, true),
    field('s_p', 1008, 'string', true),
    field('u_p', 1009, { type: 'fixed', name: 'uuid_fixed', size: 16, logicalType: 'uuid' }, true),
    field('fx_p', 1010, { type: 'fixed', name: 'fixed_3', size: 3 }, true),
    field('bin_p', 1011, 'bytes', true),
    field('tstz_p', 1012, { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': true }, true),
  ];
  const nineBytes = Buffer.concat([Buffer.alloc(9 - dec.length, 0xff), Buffer.from(dec)]);
  const values = await read(fields, {
    b_p: true,
    i_p: -7,
    l_p: 2n ** 62n,
    f_p: 1.5,
    d_p: -2.25,
    dec_p: nineBytes,
    day_p: 19000,
    ts_p: 1_700_000_000_123_456n,
    s_p: 'é',
    u_p: Buffer.from(uuidToBytes(UUID)),
    fx_p: Buffer.from([1, 2, 3]),
    bin_p: Buffer.from([]),
    tstz_p: -1n,
  });
  t.same(values, [true, -7, 2n ** 62n, 1.5, -2.25, -123456789012345678n, 19000, 1_700_000_000_123_456n, 'é', UUID, Buffer.from([1, 2, 3]), Buffer.from([]), -1n]);
  t.same(
    await read(fields, Object.fromEntries(fields.map((f) => [f['name'], null]))),
    columns.map(() => null),
    'nulls stay null',
  );
});

t.test('fields are matched by partition field id, not by name or position', async (t) => {
  const spec: PartitionSpec = {
    specId: 0,
    fields: [
      { sourceId: 2, fieldId: 1000, name: 'i_bucket', transform: 'bucket[4]' },
      { sourceId: 7, fieldId: 1001, name: 'day_day', transform: 'day' },
      { sourceId: 9, fieldId: 1002, name: 's', transform: 'identity' },
    ],
  };
  const fields = [field('renamed_s', 1002, 'string', true), field('other', 1000, 'int', true)];
  t.same(await read(fields, { renamed_s: 'x', other: 3 }, spec), [3, null, 'x'], 'a spec field the old manifest lacks reads as null');
});

t.test('without field ids, partition fields are matched by position', async (t) => {
  const spec: PartitionSpec = { specId: 0, fields: identity.fields.slice(1, 3) };
  const fields = [
    { name: 'x', type: ['null', 'int'], default: null },
    { name: 'y', type: ['null', 'long'], default: null },
  ];
  t.same(await read(fields, { x: 5, y: 6n }, spec), [5, 6n]);
});

t.test('values written before a type promotion are widened', async (t) => {
  const promoted = new Schema([
    { id: 1, name: 'l', required: false, type: { kind: 'long' } },
    { id: 2, name: 'd', required: false, type: { kind: 'double' } },
    { id: 3, name: 'ts', required: false, type: { kind: 'timestamp' } },
    { id: 4, name: 'dec', required: false, type: { kind: 'decimal', precision: 12, scale: 2 } },
  ]);
  const spec: PartitionSpec = { specId: 0, fields: [1, 2, 3, 4].map((id) => ({ sourceId: id, fieldId: 999 + id, name: `p${id}`, transform: 'identity' })) };
  const io = new MemoryIO();
  const fields = [
    field('p1', 1000, 'int', true),
    field('p2', 1001, 'float', true),
    field('p3', 1002, { type: 'int', logicalType: 'date' }, true),
    field('p4', 1003, { type: 'bytes', logicalType: 'decimal', precision: 5, scale: 2 }, true),
  ];
  const path = io.put('mem://old.avro', await writeAvro(manifestEntrySchema(fields), [entryRecord({ partition: { p1: 7, p2: 0.5, p3: 2, p4: Buffer.from([0x04, 0xd2]) } }, 0)]));
  const { entries } = await readManifest(io, manifestFile(path), { specsById: new Map([[0, spec]]), schema: promoted });
  t.same(entries[0]!.file.partition, [7n, 0.5, 2n * MICROS_PER_DAY, 1234n]);
});

t.test('a partition value of the wrong Avro type is invalid metadata naming the manifest', async (t) => {
  const spec: PartitionSpec = { specId: 0, fields: [identity.fields[1]!] };
  const io = new MemoryIO();
  const path = io.put('mem://wrong.avro', await writeAvro(manifestEntrySchema([field('i_p', 1001, 'string', true)]), [entryRecord({ partition: { i_p: 'seven' } }, 0)]));
  await t.rejects(readManifest(io, manifestFile(path), { specsById: new Map([[0, spec]]), schema }), {
    code: 'INVALID_METADATA',
    message: /wrong\.avro.*i_p/,
  });
});
