/**
 * Deterministic identifiers for generated tables: a seeded SplitMix64 stream gives snapshot ids,
 * UUIDs and Avro sync markers, so regenerating a table reproduces every byte.
 */
const MASK64 = (1n << 64n) - 1n;

export class IdSource {
  private state: bigint;

  constructor(seed: bigint | number | string) {
    this.state = typeof seed === 'string' ? fnv1a64(seed) : BigInt(seed) & MASK64;
  }

  /** Next raw 64-bit value (SplitMix64). */
  next64(): bigint {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  }

  /** A positive int64 like Java's snapshot ids (most exceed 2^53, which keeps readers honest). */
  snapshotId(): bigint {
    return this.next64() & 0x7fffffffffffffffn || 1n;
  }

  /** A random (version 4) UUID string. */
  uuid(): string {
    const hi = (this.next64() & ~0xf000n) | 0x4000n;
    const lo = (this.next64() & 0x3fffffffffffffffn) | 0x8000000000000000n;
    const hex = hi.toString(16).padStart(16, '0') + lo.toString(16).padStart(16, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** `n` pseudo-random bytes. */
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i += 8) {
      const v = this.next64();
      for (let j = 0; j < 8 && i + j < n; j++) out[i + j] = Number((v >> BigInt(8 * j)) & 0xffn);
    }
    return out;
  }

  /** A float in [0, 1). */
  float(): number {
    return Number(this.next64() >> 11n) / 2 ** 53;
  }

  /** An integer in [lo, hi] (inclusive, both safe integers). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }
}

/** FNV-1a 64-bit hash, used to derive seeds and per-file sync markers from names. */
export function fnv1a64(text: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & MASK64;
  }
  return h;
}

/** A 16-byte Avro sync marker derived from the file name, so it is stable across runs. */
export function syncMarkerFor(name: string): Buffer {
  return new IdSource(fnv1a64(name)).bytes(16);
}
