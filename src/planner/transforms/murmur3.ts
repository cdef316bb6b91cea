const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function rotl32(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

/**
 * 32-bit Murmur3, x86 variant (spec "Appendix B: 32-bit Hash Requirements"; Guava
 * `Hashing.murmur3_32`). Returns the hash as a signed 32-bit integer, as Java's `asInt()` does.
 */
export function murmur3_32(bytes: Uint8Array, seed = 0): number {
  let h = seed | 0;
  const len = bytes.length;
  const blocks = len & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(rotl32(Math.imul(k, C1), 15), C2);
    h = rotl32(h ^ k, 13);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const rest = len & 3;
  if (rest > 0) {
    let k = bytes[blocks]!;
    if (rest > 1) k ^= bytes[blocks + 1]! << 8;
    if (rest > 2) k ^= bytes[blocks + 2]! << 16;
    h ^= Math.imul(rotl32(Math.imul(k, C1), 15), C2);
  }
  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}
