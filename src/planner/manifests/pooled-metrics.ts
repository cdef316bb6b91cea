/**
 * Every column's metrics of a manifest slice (spec "Manifests", data_file fields 108–110, 125,
 * 128, 137), kept as the fields' raw Avro bytes, copied out of the decompressed blocks into one
 * buffer, with the start of each entry's six maps in one Int32Array. A cached slice holding them
 * serves a filter on any column without decoding the manifest again: the metrics evaluator reads
 * one entry at a time through a cursor that finds a column's value in the bytes, building nothing
 * for the other columns, and only the entries that match get metric maps of their own.
 *
 * About the bytes of the maps themselves (~24 bytes a column and entry for a long column) plus
 * 28 bytes an entry, where metric maps per entry (LazyMetricMap, a copy of each field) took
 * ~110 bytes a column and entry.
 */
import type { ContentFile, ManifestEntry, ManifestFile } from '../../iceberg/index.js';
import { ENTRY_FIELDS, FILE_FIELDS, field, type EntrySchema, type FieldRef } from './entry-schema.js';
import { LazyMetricMap } from './lazy-metric-map.js';
import { rawMetricReader, type MetricValue, type RawMetricReader } from './metric-maps.js';
import type { RecordDecoder } from './avro-types.js';
import { getter, optBytes, optLong, optRecord, required, type AvroRecord, type Getter } from './record-access.js';

/** The six maps, in the order their spans are kept, with the ContentFile property each fills. */
const KINDS: readonly { readonly ref: FieldRef; readonly value: MetricValue<unknown>; readonly property: MetricProperty }[] = [
  { ref: FILE_FIELDS.columnSizes, value: optLong, property: 'columnSizes' },
  { ref: FILE_FIELDS.valueCounts, value: optLong, property: 'valueCounts' },
  { ref: FILE_FIELDS.nullValueCounts, value: optLong, property: 'nullValueCounts' },
  { ref: FILE_FIELDS.nanValueCounts, value: optLong, property: 'nanValueCounts' },
  { ref: FILE_FIELDS.lowerBounds, value: optBytes, property: 'lowerBounds' },
  { ref: FILE_FIELDS.upperBounds, value: optBytes, property: 'upperBounds' },
];
const COLUMN_SIZES = 0;
const VALUE_COUNTS = 1;
const NULL_VALUE_COUNTS = 2;
const NAN_VALUE_COUNTS = 3;
const LOWER_BOUNDS = 4;
const UPPER_BOUNDS = 5;
const KIND_COUNT = KINDS.length;

type MetricProperty = 'columnSizes' | 'valueCounts' | 'nullValueCounts' | 'nanValueCounts' | 'lowerBounds' | 'upperBounds';

type Readers = readonly (RawMetricReader<unknown> | undefined)[];

/** How one writer schema lays the six maps out: a reader per map, compiled once per set of kept columns. */
class MetricLayout {
  readonly #byKeep = new Map<string, Readers>();
  /** The same, by set: a scan asks with one set for every entry it keeps. */
  readonly #bySet = new WeakMap<ReadonlySet<number>, Readers>();
  #cursor?: MetricsCursor;

  constructor(
    private readonly schema: EntrySchema,
    /** avsc decoders of the map fields' types (rawFieldsDecoder's), by schema object. */
    private readonly avsc: ReadonlyMap<unknown, RecordDecoder>,
    private readonly location: string,
  ) {}

  /** Readers keeping only `keep` (all columns when undefined). */
  readers(keep: ReadonlySet<number> | undefined): Readers {
    const known = keep && this.#bySet.get(keep);
    if (known) return known;
    const key = keep === undefined ? 'all' : [...keep].sort((a, b) => a - b).join(',');
    let readers = this.#byKeep.get(key);
    if (readers === undefined) {
      readers = KINDS.map(({ ref, value }) => {
        const f = field(this.schema.dataFile, ref);
        const avsc = f && this.avsc.get(f.type);
        return f && avsc ? rawMetricReader(f, ref[1], value, keep, avsc, this.location) : undefined;
      });
      // a plan keeps a few distinct sets at most; a caller that varies them without end is not kept
      if (this.#byKeep.size < 16) this.#byKeep.set(key, readers);
    }
    if (keep) this.#bySet.set(keep, readers);
    return readers;
  }

  /**
   * The one cursor of this layout: an entry is evaluated synchronously from `at` to its verdict,
   * so scans that share the slices take turns with it.
   */
  cursor(): MetricsCursor {
    return (this.#cursor ??= new MetricsCursor(this.readers(undefined)));
  }
}

/** The pooled metrics of consecutive entries of one manifest (a slice, or a range cut from one). */
export class PooledMetrics {
  constructor(
    private readonly layout: MetricLayout,
    private readonly pool: Buffer,
    /** Entry e's map k starts at spans[e * 6 + k] and ends where the next map starts; an empty span is no map. */
    private readonly spans: Int32Array,
    private readonly first: number,
    readonly count: number,
  ) {}

  /** Bytes the pool and its spans hold (shared by every range cut from them). */
  get bytes(): number {
    return this.pool.byteLength + this.spans.byteLength;
  }

  /** Entries `[start, end)` of these, sharing the bytes. */
  slice(start: number, end: number): PooledMetrics {
    const from = Math.min(Math.max(start, 0), this.count);
    const to = Math.min(Math.max(end, from), this.count);
    return new PooledMetrics(this.layout, this.pool, this.spans, this.first + from, to - from);
  }

  /** Map `kind` of entry `entry` as its raw field bytes, undefined when the file has no such map. */
  raw(entry: number, kind: number): Buffer | undefined {
    const at = (this.first + entry) * KIND_COUNT + kind;
    const start = this.spans[at]!;
    const end = this.spans[at + 1]!;
    return end === start ? undefined : this.pool.subarray(start, end);
  }

  /** Points `map` at its field's bytes in entry `entry` (no view made: a lookup reads the pool in place). */
  point(map: PooledMap<unknown>, entry: number): void {
    const at = (this.first + entry) * KIND_COUNT + map.kind;
    map.point(this.pool, this.spans[at]!, this.spans[at + 1]!);
  }

  /**
   * `entry` with metric maps keeping the columns of `keep` (what the task's JSON and the delete
   * index read), each decoded on first read as a manifest read that kept them would give.
   */
  withMetrics(entry: ManifestEntry, ordinal: number, keep: ReadonlySet<number>): ManifestEntry {
    const readers = this.layout.readers(keep);
    const file: { -readonly [K in keyof ContentFile]: ContentFile[K] } = { ...entry.file };
    for (let k = 0; k < KIND_COUNT; k += 1) {
      const raw = this.raw(ordinal, k);
      const reader = readers[k];
      file[KINDS[k]!.property] = raw === undefined || reader === undefined ? undefined : (new LazyMetricMap(raw, reader) as LazyMetricMap<never>);
    }
    return { ...entry, file };
  }

  /**
   * Entry `ordinal`'s metrics as the metrics evaluator reads a content file (`file` is the entry's),
   * valid until the next call on any slice of the same manifest read.
   */
  at(ordinal: number, file: ContentFile): MetricsCursor {
    return this.layout.cursor().at(this, ordinal, file);
  }
}

/**
 * One entry's metrics at a time, as the metrics evaluator reads a content file: each map finds a
 * column's value in the entry's bytes when asked (the last one asked is remembered: the evaluator
 * asks for a column's counts and bounds more than once), and builds nothing else.
 */
export class MetricsCursor {
  filePath = '';
  recordCount = 0n;
  readonly columnSizes: PooledMap<bigint>;
  readonly valueCounts: PooledMap<bigint>;
  readonly nullValueCounts: PooledMap<bigint>;
  readonly nanValueCounts: PooledMap<bigint>;
  readonly lowerBounds: PooledMap<Uint8Array>;
  readonly upperBounds: PooledMap<Uint8Array>;
  readonly #maps: readonly PooledMap<unknown>[];

  constructor(readers: Readers) {
    const map = <V>(kind: number) => new PooledMap<V>(kind, readers[kind] as RawMetricReader<V> | undefined);
    this.columnSizes = map(COLUMN_SIZES);
    this.valueCounts = map(VALUE_COUNTS);
    this.nullValueCounts = map(NULL_VALUE_COUNTS);
    this.nanValueCounts = map(NAN_VALUE_COUNTS);
    this.lowerBounds = map(LOWER_BOUNDS);
    this.upperBounds = map(UPPER_BOUNDS);
    this.#maps = [this.columnSizes, this.valueCounts, this.nullValueCounts, this.nanValueCounts, this.lowerBounds, this.upperBounds];
  }

  /** Points the cursor at entry `ordinal` of `metrics`, whose content file is `file`. */
  at(metrics: PooledMetrics, ordinal: number, file: ContentFile): this {
    this.filePath = file.filePath;
    this.recordCount = file.recordCount;
    for (const m of this.#maps) metrics.point(m, ordinal);
    return this;
  }
}

/** A read-only map over one metric field's bytes; `get` finds one key, iteration decodes all. */
class PooledMap<V> implements ReadonlyMap<number, V> {
  #buf: Buffer | undefined;
  #start = 0;
  #end = 0;
  #askedId = -1;
  #asked: V | undefined;

  constructor(
    readonly kind: number,
    private readonly reader: RawMetricReader<V> | undefined,
  ) {}

  /** The field's bytes are `[start, end)` of `buf`; an empty span is no map. */
  point(buf: Buffer, start: number, end: number): void {
    this.#buf = this.reader === undefined || start === end ? undefined : buf;
    this.#start = start;
    this.#end = end;
    this.#askedId = -1;
  }

  get(id: number): V | undefined {
    if (id === this.#askedId) return this.#asked;
    const buf = this.#buf;
    const value = buf === undefined ? undefined : this.reader!.find(buf, id, this.#start, this.#end);
    this.#askedId = id;
    this.#asked = value;
    return value;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  #all(): Map<number, V> {
    const pairs = new Map<number, V>();
    if (this.#buf !== undefined) this.reader!.fill(this.#buf.subarray(this.#start, this.#end), pairs);
    return pairs;
  }

  get size(): number {
    return this.#all().size;
  }

  forEach(callback: (value: V, key: number, map: ReadonlyMap<number, V>) => void, thisArg?: unknown): void {
    this.#all().forEach((v, k) => callback.call(thisArg, v, k, this));
  }

  entries(): MapIterator<[number, V]> {
    return this.#all().entries();
  }

  keys(): MapIterator<number> {
    return this.#all().keys();
  }

  values(): MapIterator<V> {
    return this.#all().values();
  }

  [Symbol.iterator](): MapIterator<[number, V]> {
    return this.#all()[Symbol.iterator]();
  }
}

/** Copies the six map fields of each entry read into one pool (contiguous fields in one copy). */
export class MetricPoolBuilder {
  readonly #dataFile: Getter;
  readonly #fields: readonly Getter[];
  readonly #present: readonly ((raw: Buffer) => boolean)[];
  /** Runs of bytes to copy, [memory, start, end] per run, merged when one follows another in the block. */
  readonly #runs: [ArrayBufferLike, number, number][] = [];
  readonly #spans: number[] = [0];
  #bytes = 0;

  private constructor(
    private readonly layout: MetricLayout,
    schema: EntrySchema,
  ) {
    this.#dataFile = getter(schema.root, ENTRY_FIELDS.dataFile[0], [ENTRY_FIELDS.dataFile[1]]);
    this.#fields = KINDS.map(({ ref }) => getter(schema.dataFile, ref[0], [ref[1]]));
    const readers = layout.readers(undefined);
    this.#present = readers.map((r) => (r === undefined ? () => false : (raw: Buffer) => r.present(raw)));
  }

  /**
   * A builder for records decoded by a raw-fields decoder of `schema` whose map fields come as
   * their bytes (`avsc` holds those fields' own decoders, by schema object).
   */
  static for(schema: EntrySchema, avsc: ReadonlyMap<unknown, RecordDecoder>, manifest: ManifestFile): MetricPoolBuilder {
    return new MetricPoolBuilder(new MetricLayout(schema, avsc, manifest.path), schema);
  }

  /** Adds the maps of one decoded `manifest_entry` record (the next entry of the slice). */
  add(record: AvroRecord): void {
    const d = required(optRecord(this.#dataFile(record), 'data_file'), 'data_file');
    for (let k = 0; k < KIND_COUNT; k += 1) {
      const raw = this.#fields[k]!(d) as Buffer | null;
      if (raw !== null && raw.length > 0 && this.#present[k]!(raw)) this.#append(raw);
      this.#spans.push(this.#bytes);
    }
  }

  #append(raw: Buffer): void {
    const start = raw.byteOffset;
    const last = this.#runs[this.#runs.length - 1];
    if (last !== undefined && last[0] === raw.buffer && last[2] === start) last[2] = start + raw.length;
    else this.#runs.push([raw.buffer, start, start + raw.length]);
    this.#bytes += raw.length;
  }

  build(): PooledMetrics {
    // its own memory, not a slab shared with other small buffers: the pool lives as long as the cached slice
    const pool = Buffer.allocUnsafeSlow(this.#bytes);
    let at = 0;
    for (const [memory, start, end] of this.#runs) {
      pool.set(new Uint8Array(memory, start, end - start), at);
      at += end - start;
    }
    return new PooledMetrics(this.layout, pool, Int32Array.from(this.#spans), 0, (this.#spans.length - 1) / KIND_COUNT);
  }
}
