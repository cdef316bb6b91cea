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
    let n = 0;
    let mul = 1;
    // up to 7 bytes (49 bits) the value is exact in a double
    for (let i = 0; i < 7; i += 1) {
      if (this.pos >= this.buf.length) throw new TruncatedInput(what);
      const b = this.buf[this.pos]!;
      this.pos += 1;
      n += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return BigInt(n % 2 === 0 ? n / 2 : -(n + 1) / 2);
      mul *= 128;
    }
    let z = BigInt(n);
    let shift = 49n;
    for (let i = 7; i < MAX_VARINT_BYTES; i += 1) {
      if (this.pos >= this.buf.length) throw new TruncatedInput(what);
      const b = this.buf[this.pos]!;
      this.pos += 1;
      z |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asIntN(64, (z >> 1n) ^ -(z & 1n));
      shift += 7n;
    }
    throw new MalformedInput(`${what} is not a valid varint`);
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
}
