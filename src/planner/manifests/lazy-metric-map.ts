/**
 * A metric map of one data file (spec "Manifests", data_file fields 108–110, 125, 128, 137) kept
 * as the raw Avro bytes of its field until a lookup (`get`, `has`, `size`), then decoded once,
 * only for the kept columns, and the bytes released. Iterating a map not yet decoded walks a
 * throw-away decoding instead: the task JSON writer reads each map once, in order, and a plan's
 * maps need not all stay decoded for that. It is a Map, so the metrics evaluator, the delete index
 * and the task JSON writer read it as an eagerly decoded one; a map nobody reads is never built.
 */
import type { RawMetricReader } from './metric-maps.js';

export class LazyMetricMap<V> extends Map<number, V> {
  /** The field's bytes (a view into the decoded block) until the first read. */
  #raw: Buffer | undefined;
  readonly #reader: RawMetricReader<V>;

  constructor(raw: Buffer, reader: RawMetricReader<V>) {
    super();
    this.#raw = raw;
    this.#reader = reader;
  }

  /** Bytes of the undecoded field (undefined once decoded). */
  get rawBytes(): number | undefined {
    return this.#raw?.length;
  }

  /** False until something read the map. */
  get decoded(): boolean {
    return this.#raw === undefined;
  }

  #decode(): void {
    const raw = this.#raw;
    if (raw === undefined) return;
    this.#raw = undefined;
    try {
      this.#reader.fill(raw, this);
    } catch (err) {
      // undecodable: every later read fails the same way instead of seeing half a map
      super.clear();
      this.#raw = raw;
      throw err;
    }
  }

  override get size(): number {
    this.#decode();
    return super.size;
  }

  override get(key: number): V | undefined {
    this.#decode();
    return super.get(key);
  }

  override has(key: number): boolean {
    this.#decode();
    return super.has(key);
  }

  override set(key: number, value: V): this {
    this.#decode();
    return super.set(key, value);
  }

  override delete(key: number): boolean {
    this.#decode();
    return super.delete(key);
  }

  override clear(): void {
    this.#raw = undefined;
    super.clear();
  }

  /** The pairs to iterate: this map once decoded, else a decoding of the bytes nobody keeps. */
  #pairs(): Map<number, V> {
    const raw = this.#raw;
    if (raw === undefined) return this;
    const pairs = new Map<number, V>();
    this.#reader.fill(raw, pairs);
    return pairs;
  }

  override forEach(callback: (value: V, key: number, map: Map<number, V>) => void, thisArg?: unknown): void {
    const pairs = this.#pairs();
    if (pairs === this) super.forEach(callback, thisArg);
    else pairs.forEach((v, k) => callback.call(thisArg, v, k, this));
  }

  override keys(): MapIterator<number> {
    const pairs = this.#pairs();
    return pairs === this ? super.keys() : pairs.keys();
  }

  override values(): MapIterator<V> {
    const pairs = this.#pairs();
    return pairs === this ? super.values() : pairs.values();
  }

  override entries(): MapIterator<[number, V]> {
    const pairs = this.#pairs();
    return pairs === this ? super.entries() : pairs.entries();
  }

  override [Symbol.iterator](): MapIterator<[number, V]> {
    const pairs = this.#pairs();
    return pairs === this ? super[Symbol.iterator]() : pairs[Symbol.iterator]();
  }
}

/**
 * Rough retained size of a metric map, for cache budgets, without decoding it: an undecoded map
 * by its raw bytes (a decoded entry takes a few times its Avro bytes), a decoded one by its entries.
 */
export function metricMapBytes(map: ReadonlyMap<number, unknown> | undefined): number {
  if (map === undefined) return 0;
  const raw = map instanceof LazyMetricMap ? map.rawBytes : undefined;
  if (raw !== undefined) return 64 + raw * 4;
  let bytes = 0;
  for (const v of map.values()) bytes += 48 + (v instanceof Uint8Array ? v.byteLength : 0);
  return bytes;
}
