/**
 * Just enough of the Avro binary encoding (Avro spec "Binary Encoding") to walk an object
 * container file without a schema: zig-zag varint longs, length-prefixed bytes, fixed bytes.
 */

/** The bytes ran out before a value was complete (the caller may fetch more and retry). */
export class TruncatedInput extends Error {
  constructor(detail: string) {
    super(`truncated: ${detail}`);
    this.name = 'TruncatedInput';
  }
}

/** The bytes can never be valid, whatever follows. */
export class MalformedInput extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'MalformedInput';
  }
}

/** The file is encrypted (spec "Table Encryption"); reading it needs keys Icefront does not have. */
export class EncryptedInput extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'EncryptedInput';
  }
}

const MAX_VARINT_BYTES = 10;

/** Bytes and a read position: an AvroCursor, or avsc's tap as its types' `_read(tap)` see it. */
export interface ByteCursor {
  readonly buf: Uint8Array;
  pos: number;
}

// The last wide long read: snapshot ids fill all 64 bits and repeat entry after entry.
let lastHigh = -1;
let lastLow = -1;
let lastWide = 0n;

/** A zig-zag long of 8 to 10 bytes from its low 49 bits and the bits above them, wrapped to 64 bits. */
function wideLong(high: number, low: number): bigint {
  if (high !== lastHigh || low !== lastLow) {
    const z = (BigInt(high) << 49n) + BigInt(low);
    lastWide = BigInt.asIntN(64, (z >> 1n) ^ -(z & 1n));
    lastHigh = high;
    lastLow = low;
  }
  return lastWide;
}

/**
 * One Avro `long` (spec "Binary Encoding": a zig-zag varint) at `c.pos` as a bigint, exact over
 * 64 bits, moving `c.pos` past it. Undefined when the bytes end inside it, null when it runs past
 * ten bytes (no long does). Read where it lies, with no Buffer and, up to 7 bytes, no bigint but
 * the result: a wide one took a dozen intermediate bigints, and avsc's own path a Buffer per long,
 * together half of what a manifest entry allocated (issue #12, V8's sampling heap profiler).
 */
export function readZigZagBigInt(c: ByteCursor): bigint | undefined | null {
  const { buf } = c;
  let low = 0;
  let mul = 1;
  // up to 7 bytes (49 bits) the value is exact in a double: most longs end here
  for (let i = 0; i < 7; i += 1) {
    if (c.pos >= buf.length) return undefined;
    const b = buf[c.pos++]!;
    low += (b & 0x7f) * mul;
    if ((b & 0x80) === 0) return BigInt(low % 2 === 0 ? low / 2 : -(low + 1) / 2);
    mul *= 128;
  }
  // the bits above, counted apart
  let high = 0;
  for (let shift = 1; shift < 1 << 21; shift <<= 7) {
    if (c.pos >= buf.length) return undefined;
    const b = buf[c.pos++]!;
    high += (b & 0x7f) * shift;
    if ((b & 0x80) === 0) return wideLong(high, low);
  }
  return null;
}

export class AvroCursor {
  constructor(
    readonly buf: Buffer,
    public pos = 0,
  ) {}

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  /** Avro `long` (zig-zag varint) as a number; sizes and counts beyond 2^53 are refused. */
  long(what: string): number {
    let result = 0;
    let shift = 1;
    for (let i = 0; i < MAX_VARINT_BYTES; i += 1) {
      if (this.pos >= this.buf.length) throw new TruncatedInput(what);
      const b = this.buf[this.pos]!;
      this.pos += 1;
      result += (b & 0x7f) * shift;
      if ((b & 0x80) === 0) {
        if (result > Number.MAX_SAFE_INTEGER) throw new MalformedInput(`${what} is out of range`);
        // zig-zag: even → n/2, odd → -(n+1)/2
        return result % 2 === 0 ? result / 2 : -(result + 1) / 2;
      }
      shift *= 128;
    }
    throw new MalformedInput(`${what} is not a valid varint`);
  }

  /** Avro `long` (zig-zag varint) as a bigint, exact over the whole 64-bit range. */
  bigLong(what: string): bigint {
    const value = readZigZagBigInt(this);
    if (value === undefined) throw new TruncatedInput(what);
    if (value === null) throw new MalformedInput(`${what} is not a valid varint`);
    return value;
  }

  /** `length` raw bytes (a view, not a copy). */
  fixed(length: number, what: string): Buffer {
    if (length < 0) throw new MalformedInput(`${what} has a negative length`);
    if (this.pos + length > this.buf.length) throw new TruncatedInput(what);
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  /** Avro `bytes` / `string` payload: a long length, then the bytes. */
  bytes(what: string): Buffer {
    return this.fixed(this.long(`${what} length`), what);
  }

  /** Moves past one Avro `long` without building its value (checked as `bigLong` checks it). */
  skipLong(what: string): void {
    const { buf } = this;
    for (let i = 0; i < MAX_VARINT_BYTES; i += 1) {
      if (this.pos >= buf.length) throw new TruncatedInput(what);
      if ((buf[this.pos++]! & 0x80) === 0) return;
    }
    throw new MalformedInput(`${what} is not a valid varint`);
  }

  /** Moves past `length` bytes without a view of them. */
  skipFixed(length: number, what: string): void {
    if (length < 0) throw new MalformedInput(`${what} has a negative length`);
    if (this.pos + length > this.buf.length) throw new TruncatedInput(what);
    this.pos += length;
  }

  /** Moves past an Avro `bytes` / `string` payload. */
  skipBytes(what: string): void {
    this.skipFixed(this.long(`${what} length`), what);
  }
}
