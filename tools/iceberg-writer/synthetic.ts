/**
 * Metadata-only synthetic tables for benchmarks: manifests full of data-file entries with
 * complete column statistics, for files that do not exist on disk. Values are laid out so that
 * file and manifest pruning behave like a real time-partitioned table: manifest `m` holds the
 * files of day `m`, and file `f` covers the key range [f * rowsPerFile, (f + 1) * rowsPerFile).
 */
import { primitiveTypeName, toBinary, type PrimitiveType, type Snapshot } from '../../src/iceberg/index.js';
import { DATA, type AvroCodec, type ContentFile, type FormatVersion, type TableSink } from './model.js';
import { TableBuilder, type PendingFile } from './table-builder.js';

export interface SyntheticOptions {
  readonly root: string;
  readonly location: string;
  readonly manifests: number;
  readonly entriesPerManifest: number;
  /** Number of columns (at least 3: the key, the event time and the category). */
  readonly columns: number;
  readonly formatVersion?: FormatVersion;
  readonly codec?: AvroCodec;
  readonly seed?: string;
  readonly sink?: TableSink;
  readonly rowsPerFile?: number;
}

export interface SyntheticTable {
  readonly builder: TableBuilder;
  readonly snapshot: Snapshot;
  readonly entries: number;
}

const DAY_MICROS = 86_400_000_000n;
const HOUR_MICROS = 3_600_000_000n;
const START_DAY = 19_723; // 2024-01-01
// column types cycle through these after the three fixed leading columns
const CYCLE: readonly PrimitiveType[] = [
  { kind: 'long' }, { kind: 'int' }, { kind: 'double' }, { kind: 'string' }, { kind: 'date' },
  { kind: 'decimal', precision: 12, scale: 2 }, { kind: 'boolean' },
];

export function writeSyntheticTable(opts: SyntheticOptions): SyntheticTable {
  if (opts.columns < 3) throw new Error('a synthetic table needs at least 3 columns');
  const types: PrimitiveType[] = [{ kind: 'long' }, { kind: 'timestamptz' }, { kind: 'string' }];
  for (let i = 3; i < opts.columns; i++) types.push(CYCLE[(i - 3) % CYCLE.length]!);
  const names = types.map((_, i) => (i === 0 ? 'id' : i === 1 ? 'event_ts' : i === 2 ? 'category' : `c${i + 1}`));
  const builder = TableBuilder.create({
    root: opts.root,
    location: opts.location,
    formatVersion: opts.formatVersion ?? 2,
    seed: opts.seed ?? 'synthetic',
    timestampMs: 1_704_067_200_000,
    codec: opts.codec,
    sink: opts.sink,
    schema: {
      type: 'struct',
      'schema-id': 0,
      fields: types.map((t, i) => ({ id: i + 1, name: names[i], required: i === 0, type: primitiveTypeName(t) })),
    },
    partitionSpec: { 'spec-id': 0, fields: [{ name: 'event_ts_day', transform: 'day', 'source-id': 2, 'field-id': 1000 }] },
  });
  const rowsPerFile = opts.rowsPerFile ?? 1000;
  const stats = new StatsFactory(types);
  const add: PendingFile[] = [];
  for (let m = 0; m < opts.manifests; m++) {
    for (let e = 0; e < opts.entriesPerManifest; e++) {
      add.push({ file: fileFor(builder, stats, types, m, m * opts.entriesPerManifest + e, rowsPerFile) });
    }
  }
  const snapshot = builder.commit({ operation: 'append', add, entriesPerManifest: opts.entriesPerManifest });
  return { builder, snapshot, entries: add.length };
}

/**
 * Statistics are built cheaply: count maps are shared between files with equal counts and each
 * distinct bound value is encoded once per column (metadata-only files are read-only records).
 */
class StatsFactory {
  private readonly sharedMaps = new Map<string, ReadonlyMap<number, bigint>>();
  private readonly encoded: Array<Map<number, readonly [Buffer, Buffer]>>;

  constructor(private readonly types: readonly PrimitiveType[]) {
    this.encoded = types.map(() => new Map());
  }

  /** A map of every column id to `value(columnIndex)`, shared by all callers with the same `key`. */
  counts(key: string, value: (i: number) => bigint | null): ReadonlyMap<number, bigint> {
    let m = this.sharedMaps.get(key);
    if (!m) {
      const built = new Map<number, bigint>();
      this.types.forEach((_, i) => {
        const v = value(i);
        if (v !== null) built.set(i + 1, v);
      });
      this.sharedMaps.set(key, (m = built));
    }
    return m;
  }

  /**
   * Encoded lower and upper bound of column `i`; files with the same `variant` share them
   * (null: unique to this file). Buffers, so the manifest writer hands them to avsc as they are.
   */
  bounds(i: number, variant: number | null, values: () => readonly [unknown, unknown]): readonly [Buffer, Buffer] {
    let pair = variant === null ? undefined : this.encoded[i]!.get(variant);
    if (!pair) {
      const [lo, hi] = values();
      const type = this.types[i]!;
      pair = [Buffer.from(toBinary(type, lo)), Buffer.from(toBinary(type, hi))];
      if (variant !== null) this.encoded[i]!.set(variant, pair);
    }
    return pair;
  }
}

function fileFor(t: TableBuilder, stats: StatsFactory, types: readonly PrimitiveType[], day: number, n: number, rows: number): ContentFile {
  const lower = new Map<number, Uint8Array>();
  const upper = new Map<number, Uint8Array>();
  types.forEach((type, i) => {
    const [lo, hi] = stats.bounds(i, variant(i, day, n), () => range(type, i, day, n, rows));
    lower.set(i + 1, lo);
    upper.set(i + 1, hi);
  });
  const count = BigInt(rows);
  const nulls = n % 7;
  const nans = n % 3 === 0 ? 1n : 0n;
  return {
    content: DATA,
    filePath: `${t.location}/data/event_ts_day=${day}/${String(n).padStart(8, '0')}.parquet`,
    fileFormat: 'PARQUET',
    specId: 0,
    partition: [START_DAY + day],
    recordCount: count,
    fileSizeInBytes: count * BigInt(types.length) * 4n + 1024n,
    columnSizes: stats.counts('sizes', (i) => count * 4n + BigInt(i)),
    valueCounts: stats.counts('values', () => count),
    nullValueCounts: stats.counts(`nulls-${nulls}`, (i) => (i === 0 ? 0n : BigInt(nulls))),
    nanValueCounts: stats.counts(`nans-${nans}`, (i) => (types[i]!.kind === 'double' ? nans : null)),
    lowerBounds: lower,
    upperBounds: upper,
    splitOffsets: [4n],
    sortOrderId: 0,
  };
}

/** Which files share column `i`'s bounds with file `n` of day `day` (null: none, the key column). */
function variant(i: number, day: number, n: number): number | null {
  if (i === 0) return null;
  if (i === 1) return day * 12 + (n % 12);
  if (i === 2) return n % 50;
  return (n * 31 + i * 17) % 1000;
}

/** Lower and upper bound of column `i` in file `n` of day `day`, as internal values. */
function range(type: PrimitiveType, i: number, day: number, n: number, rows: number): [unknown, unknown] {
  if (i === 0) return [BigInt(n * rows), BigInt(n * rows + rows - 1)];
  if (i === 1) {
    const base = BigInt(START_DAY + day) * DAY_MICROS;
    return [base + BigInt(n % 12) * HOUR_MICROS, base + BigInt(12 + (n % 12)) * HOUR_MICROS - 1n];
  }
  if (i === 2) return [`cat-${String(n % 50).padStart(2, '0')}`, `cat-${String((n % 50) + 10).padStart(2, '0')}`];
  // other columns draw from 1,000 distinct ranges, spread over the files
  const k = variant(i, day, n)!;
  switch (type.kind) {
    case 'long':
      return [BigInt(k) * 100n, BigInt(k) * 100n + 99n];
    case 'int':
      return [k * 10, k * 10 + 500];
    case 'double':
      return [k / 8, k / 8 + 10.5];
    case 'string':
      return [`v${String(k).padStart(4, '0')}`, `v${String(k + 999).padStart(4, '0')}`];
    case 'date':
      return [START_DAY - (k % 30), START_DAY + 365];
    case 'decimal':
      return [BigInt(k) * 13n, BigInt(k) * 13n + 10_000n];
    default:
      return [false, true];
  }
}
