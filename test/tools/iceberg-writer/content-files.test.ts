import t from 'tap';
import { compareValues, fromBinary, parseSchema, type PrimitiveType } from '../../../src/iceberg/index.js';
import {
  DELETE_FILE_PATH,
  DELETE_FILE_POS,
  writeDataFile,
  writeEqualityDeleteFile,
  writePositionDeleteFile,
  type Row,
} from '../../../tools/iceberg-writer/index.js';
import { readParquet } from '../helpers/read-back.js';

const schema = parseSchema({
  type: 'struct',
  'schema-id': 3,
  fields: [
    { id: 1, name: 'id', required: true, type: 'long' },
    { id: 2, name: 'qty', required: false, type: 'int' },
    { id: 3, name: 'price', required: false, type: 'decimal(9, 2)' },
    { id: 4, name: 'day', required: false, type: 'date' },
    { id: 5, name: 'ts', required: false, type: 'timestamp' },
    { id: 6, name: 'tstz', required: false, type: 'timestamptz' },
    { id: 7, name: 'name', required: false, type: 'string' },
    { id: 8, name: 'key', required: false, type: 'uuid' },
    { id: 9, name: 'blob', required: false, type: 'binary' },
    { id: 10, name: 'score', required: false, type: 'double' },
    { id: 11, name: 'ok', required: false, type: 'boolean' },
    { id: 12, name: 'ratio', required: false, type: 'float' },
  ],
});

const rows: Row[] = [
  { id: 3n, qty: 5, price: 1234n, day: 19000, ts: 1_700_000_000_000_000n, tstz: 5n, name: 'beta', key: 'ffffffff-0000-4000-8000-000000000000', blob: Uint8Array.of(9, 9), score: 2.5, ok: true, ratio: 0.5 },
  { id: 1n, qty: null, price: -5n, day: 18000, ts: null, tstz: -5n, name: 'alpha-with-a-very-long-name', key: '00000000-0000-4000-8000-000000000001', blob: Uint8Array.of(1), score: Number.NaN, ok: false, ratio: null },
  { id: 2n, qty: -7, price: null, day: null, ts: 1n, tstz: null, name: null, key: null, blob: null, score: null, ok: null, ratio: -1.25 },
  { id: 4n, qty: 0, price: 7n, day: 20000, ts: 2n, tstz: 0n, name: 'zeta', key: '7fffffff-ffff-4fff-bfff-ffffffffffff', blob: Uint8Array.of(0xff, 0xff, 0xff), score: -0, ok: true, ratio: 4 },
];

const at = { filePath: 's3://b/t/data/f.parquet', specId: 0, partition: [] };

t.test('a data file reads back with hyparquet, with Iceberg field ids and the iceberg.schema key', async (tt) => {
  const { bytes, file } = writeDataFile(schema, rows, at);
  const { rows: back, footer } = await readParquet(bytes);
  tt.equal(back.length, rows.length);
  tt.same(back.map((r) => r.id), rows.map((r) => r.id));
  tt.same(back.map((r) => r.name), rows.map((r) => r.name));
  tt.same(back.map((r) => r.tstz), rows.map((r) => r.tstz));
  tt.same(back.map((r) => r.key), rows.map((r) => r.key));
  tt.same(back.map((r) => r.day), rows.map((r) => r.day));
  tt.ok(Number.isNaN(back[1]!.score));
  tt.same(
    footer.schema.slice(1).map((e) => e.field_id),
    schema.fields.map((f) => f.id),
  );
  const kv = footer.key_value_metadata?.find((e) => e.key === 'iceberg.schema');
  tt.same(parseSchema(JSON.parse(kv!.value!)).fields.map((f) => f.id), schema.fields.map((f) => f.id));
  tt.equal(file.recordCount, BigInt(rows.length));
  tt.equal(file.fileSizeInBytes, BigInt(bytes.length));
  tt.equal(file.content, 0);
  tt.equal(file.fileFormat, 'PARQUET');
});

t.test('the recorded counts and bounds match the rows', async (tt) => {
  const { file } = writeDataFile(schema, rows, at);
  for (const f of schema.fields) {
    const type = f.type as PrimitiveType;
    const values = rows.map((r) => r[f.name] ?? null);
    const present = values.filter((v) => v !== null && !(typeof v === 'number' && Number.isNaN(v)));
    tt.equal(file.valueCounts!.get(f.id), BigInt(rows.length), `${f.name} value count`);
    tt.equal(file.nullValueCounts!.get(f.id), BigInt(values.filter((v) => v === null).length), `${f.name} null count`);
    const isFloat = type.kind === 'double' || type.kind === 'float';
    tt.equal(file.nanValueCounts!.has(f.id), isFloat, `${f.name} has a NaN count only if floating`);
    if (isFloat) tt.equal(file.nanValueCounts!.get(f.id), BigInt(values.filter((v) => Number.isNaN(v)).length));
    const lower = fromBinary(type, file.lowerBounds!.get(f.id)!);
    const upper = fromBinary(type, file.upperBounds!.get(f.id)!);
    const order = (a: unknown, b: unknown): number =>
      type.kind === 'uuid' ? ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0) : compareValues(type, a, b);
    for (const v of present) {
      tt.ok(order(lower, v) <= 0, `${f.name}: lower bound <= ${String(v)}`);
      if (type.kind !== 'string') tt.ok(order(upper, v) >= 0, `${f.name}: upper bound >= ${String(v)}`);
    }
    if (type.kind !== 'string') {
      tt.ok(present.some((v) => order(lower, v) === 0), `${f.name}: lower bound is a value`);
      tt.ok(present.some((v) => order(upper, v) === 0), `${f.name}: upper bound is a value`);
    }
  }
});

t.test('string bounds are truncated to 16 characters, the upper one rounded up', async (tt) => {
  const { file } = writeDataFile(schema, [{ id: 1n, name: 'aaaaaaaaaaaaaaaaaaaa-long' }, { id: 2n, name: 'bbbbbbbbbbbbbbbbbbbb-long' }], at);
  const type = { kind: 'string' } as const;
  tt.equal(fromBinary(type, file.lowerBounds!.get(7)!), 'aaaaaaaaaaaaaaaa');
  tt.equal(fromBinary(type, file.upperBounds!.get(7)!), 'bbbbbbbbbbbbbbbc');
});

t.test('column sizes and split offsets come from the written footer', async (tt) => {
  const many = [...Array(10).keys()].map((i) => ({ id: BigInt(i), qty: i }));
  const { bytes, file } = writeDataFile(schema, many, at, { rowGroupSize: 4 });
  const { footer } = await readParquet(bytes);
  tt.equal(footer.row_groups.length, 3);
  tt.same(
    file.splitOffsets,
    footer.row_groups.map((g) => BigInt(g.columns[0]!.meta_data!.dictionary_page_offset ?? g.columns[0]!.meta_data!.data_page_offset)),
  );
  tt.equal(file.splitOffsets![0], 4n, 'the first row group starts after the magic');
  for (const f of schema.fields) {
    const total = footer.row_groups.reduce(
      (n, g) => n + BigInt(g.columns.find((c) => c.meta_data!.path_in_schema[0] === f.name)!.meta_data!.total_compressed_size),
      0n,
    );
    tt.equal(file.columnSizes!.get(f.id), total, `${f.name} size`);
  }
});

t.test('a position-delete file is sorted by path then position and uses the reserved field ids', async (tt) => {
  const deletes = [
    { filePath: 's3://b/t/data/b.parquet', pos: 7n },
    { filePath: 's3://b/t/data/a.parquet', pos: 9n },
    { filePath: 's3://b/t/data/a.parquet', pos: 2n },
  ];
  const { bytes, file } = writePositionDeleteFile(deletes, at);
  const { rows: back, footer } = await readParquet(bytes);
  tt.same(back.map((r) => [r.file_path, r.pos]), [
    ['s3://b/t/data/a.parquet', 2n],
    ['s3://b/t/data/a.parquet', 9n],
    ['s3://b/t/data/b.parquet', 7n],
  ]);
  tt.same(footer.schema.slice(1).map((e) => e.field_id), [DELETE_FILE_PATH.id, DELETE_FILE_POS.id]);
  tt.same(footer.schema.slice(1).map((e) => e.repetition_type), ['REQUIRED', 'REQUIRED']);
  tt.equal(file.content, 1);
  tt.equal(file.referencedDataFile, undefined, 'two data files: no single referenced file');
  tt.equal(fromBinary({ kind: 'string' }, file.lowerBounds!.get(DELETE_FILE_PATH.id)!), 's3://b/t/data/a.parquet', 'paths are never truncated');

  const single = writePositionDeleteFile([{ filePath: 's3://b/t/data/a.parquet', pos: 1n }], at);
  tt.equal(single.file.referencedDataFile, 's3://b/t/data/a.parquet');
});

t.test('an equality-delete file holds only the equality columns and records their ids', async (tt) => {
  const { bytes, file } = writeEqualityDeleteFile(schema, [1, 7], [{ id: 5n, name: 'x' }, { id: 6n, name: null }], at);
  const { rows: back, footer } = await readParquet(bytes);
  tt.same(back, [{ id: 5n, name: 'x' }, { id: 6n, name: null }]);
  tt.same(footer.schema.slice(1).map((e) => e.field_id), [1, 7]);
  tt.equal(file.content, 2);
  tt.same(file.equalityIds, [1, 7]);
  tt.equal(file.nullValueCounts!.get(7), 1n);
});
