/**
 * Serialises a set of row positions as the portable 64-bit Roaring format used by deletion
 * vectors (spec "Deletion Vectors"; Java `RoaringPositionBitmap.serialize`): an 8-byte LE count of
 * 32-bit bitmaps, then for every key from 0 to the highest one a 4-byte LE key followed by a
 * standard 32-bit Roaring bitmap (RoaringFormatSpec), run-length encoded where that is smaller
 * (Java calls `runLengthEncode()` before writing).
 */
const SERIAL_COOKIE_NO_RUNCONTAINER = 12346;
const SERIAL_COOKIE = 12347;
const NO_OFFSET_THRESHOLD = 4;
const ARRAY_MAX = 4096;
const BITMAP_BYTES = 8192;

type Container =
  | { readonly kind: 'array'; readonly key: number; readonly values: readonly number[] }
  | { readonly kind: 'bitmap'; readonly key: number; readonly values: readonly number[] }
  | { readonly kind: 'run'; readonly key: number; readonly values: readonly number[]; readonly runs: ReadonlyArray<readonly [number, number]> };

/** The portable serialisation of `positions` (any order, duplicates ignored; each 0 ≤ pos < 2^63). */
export function serializePositions(positions: Iterable<bigint>): Buffer {
  const byKey = new Map<number, Set<number>>();
  let maxKey = -1;
  for (const pos of positions) {
    if (pos < 0n || pos >= 1n << 63n) throw new RangeError(`position out of range: ${pos}`);
    const key = Number(pos >> 32n);
    const low = Number(pos & 0xffffffffn);
    let set = byKey.get(key);
    if (!set) byKey.set(key, (set = new Set()));
    set.add(low);
    if (key > maxKey) maxKey = key;
  }
  const parts: Buffer[] = [];
  const count = Buffer.alloc(8);
  count.writeBigUInt64LE(BigInt(maxKey + 1));
  parts.push(count);
  // Java keeps a dense array of bitmaps, so every key up to the highest one is written
  for (let key = 0; key <= maxKey; key++) {
    const head = Buffer.alloc(4);
    head.writeUInt32LE(key);
    parts.push(head, serialize32([...(byKey.get(key) ?? [])].sort((a, b) => a - b)));
  }
  return Buffer.concat(parts);
}

/** A standard 32-bit Roaring bitmap of sorted unique unsigned 32-bit values. */
function serialize32(sorted: readonly number[]): Buffer {
  const containers: Container[] = [];
  for (let i = 0; i < sorted.length; ) {
    const key = sorted[i]! >>> 16;
    const values: number[] = [];
    while (i < sorted.length && sorted[i]! >>> 16 === key) values.push(sorted[i++]! & 0xffff);
    containers.push(optimise(key, values));
  }
  const n = containers.length;
  const hasRun = containers.some((c) => c.kind === 'run');
  const head: number[] = [];
  const u16 = (v: number): void => void head.push(v & 0xff, v >>> 8);
  const u32 = (v: number): void => void head.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24);
  if (hasRun) {
    u32(SERIAL_COOKIE | ((n - 1) << 16));
    const runFlags = new Array<number>(Math.ceil(n / 8)).fill(0);
    containers.forEach((c, i) => {
      if (c.kind === 'run') runFlags[i >> 3]! |= 1 << (i & 7);
    });
    head.push(...runFlags);
  } else {
    u32(SERIAL_COOKIE_NO_RUNCONTAINER);
    u32(n);
  }
  for (const c of containers) {
    u16(c.key);
    u16(c.values.length - 1);
  }
  const bodies = containers.map(containerBytes);
  if (!hasRun || n >= NO_OFFSET_THRESHOLD) {
    let offset = head.length + 4 * n;
    for (const body of bodies) {
      u32(offset);
      offset += body.length;
    }
  }
  return Buffer.concat([Buffer.from(head), ...bodies]);
}

// RoaringBitmap `runOptimize`: a run container replaces the others when it is strictly smaller
function optimise(key: number, values: number[]): Container {
  const runs: Array<[number, number]> = [];
  for (const v of values) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] + 1 === v) last[1]++;
    else runs.push([v, 0]);
  }
  const plainSize = values.length <= ARRAY_MAX ? 2 * values.length : BITMAP_BYTES;
  if (2 + 4 * runs.length < plainSize) return { kind: 'run', key, values, runs };
  return { kind: values.length <= ARRAY_MAX ? 'array' : 'bitmap', key, values };
}

function containerBytes(c: Container): Buffer {
  switch (c.kind) {
    case 'array': {
      const b = Buffer.alloc(2 * c.values.length);
      c.values.forEach((v, i) => b.writeUInt16LE(v, 2 * i));
      return b;
    }
    case 'bitmap': {
      const b = Buffer.alloc(BITMAP_BYTES);
      for (const v of c.values) b[v >>> 3]! |= 1 << (v & 7);
      return b;
    }
    case 'run': {
      const b = Buffer.alloc(2 + 4 * c.runs.length);
      b.writeUInt16LE(c.runs.length, 0);
      c.runs.forEach(([start, lengthMinusOne], i) => {
        b.writeUInt16LE(start, 2 + 4 * i);
        b.writeUInt16LE(lengthMinusOne, 4 + 4 * i);
      });
      return b;
    }
  }
}
