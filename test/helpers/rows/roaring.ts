/**
 * A decoder for the portable 64-bit Roaring bitmap serialization (spec "Deletion Vectors";
 * Java `RoaringPositionBitmap.deserialize`, CRoaring `roaring64_bitmap_portable_deserialize`):
 * an 8-byte LE count of 32-bit bitmaps, then per bitmap a 4-byte LE key (the high 32 bits) and a
 * 32-bit Roaring bitmap in the portable format (RoaringFormatSpec).
 */
const SERIAL_COOKIE_NO_RUNCONTAINER = 12346;
const SERIAL_COOKIE = 12347;
const NO_OFFSET_THRESHOLD = 4;
/** Java refuses keys above Integer.MAX_VALUE (positions are non-negative longs). */
const MAX_KEY = 0x7fffffff;

class Reader {
  offset = 0;
  constructor(private readonly view: DataView) {}
  u8(): number {
    return this.view.getUint8(this.offset++);
  }
  u16(): number {
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }
  u32(): number {
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }
  u64(): bigint {
    const v = this.view.getBigUint64(this.offset, true);
    this.offset += 8;
    return v;
  }
  skip(n: number): void {
    this.offset += n;
  }
  get length(): number {
    return this.view.byteLength;
  }
}

/** Reads one portable 32-bit Roaring bitmap, calling `emit` with each low-32-bit value in order. */
function readBitmap32(r: Reader, emit: (low: number) => void): void {
  const cookie = r.u32();
  let size: number;
  let runFlags: Uint8Array | undefined;
  if ((cookie & 0xffff) === SERIAL_COOKIE) {
    size = (cookie >>> 16) + 1;
    const n = Math.ceil(size / 8);
    runFlags = new Uint8Array(n);
    for (let i = 0; i < n; i++) runFlags[i] = r.u8();
  } else if (cookie === SERIAL_COOKIE_NO_RUNCONTAINER) {
    size = r.u32();
  } else {
    throw new Error(`not a portable Roaring bitmap (cookie ${cookie})`);
  }
  const keys: number[] = [];
  const cards: number[] = [];
  for (let i = 0; i < size; i++) {
    keys.push(r.u16());
    cards.push(r.u16() + 1);
  }
  // offsets header: always without run containers, else only from NO_OFFSET_THRESHOLD containers
  if (runFlags === undefined || size >= NO_OFFSET_THRESHOLD) r.skip(4 * size);
  for (let i = 0; i < size; i++) {
    const high = keys[i]! * 65536;
    const isRun = runFlags !== undefined && (runFlags[i >> 3]! & (1 << (i & 7))) !== 0;
    if (isRun) {
      const runs = r.u16();
      for (let k = 0; k < runs; k++) {
        const start = r.u16();
        const length = r.u16();
        for (let v = start; v <= start + length; v++) emit(high + v);
      }
    } else if (cards[i]! <= 4096) {
      for (let k = 0; k < cards[i]!; k++) emit(high + r.u16());
    } else {
      for (let w = 0; w < 1024; w++) {
        let word = r.u64();
        let bit = 0;
        while (word !== 0n) {
          if (word & 1n) emit(high + w * 64 + bit);
          word >>= 1n;
          bit++;
        }
      }
    }
  }
}

/** Every position of a portable 64-bit Roaring bitmap, ascending. */
export function decodeRoaring64(bytes: Uint8Array): bigint[] {
  const r = new Reader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const count = r.u64();
  const out: bigint[] = [];
  let lastKey = -1;
  for (let b = 0n; b < count; b++) {
    const key = r.u32();
    if (key > MAX_KEY) throw new Error(`bitmap key ${key} is above ${MAX_KEY}`);
    if (key <= lastKey) throw new Error(`bitmap keys are not ascending (${key} after ${lastKey})`);
    lastKey = key;
    const high = BigInt(key) << 32n;
    readBitmap32(r, (low) => out.push(high | BigInt(low)));
  }
  if (r.offset !== r.length) throw new Error(`${r.length - r.offset} trailing bytes after the bitmap`);
  return out;
}
