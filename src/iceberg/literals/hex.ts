import { fail } from '../../errors/index.js';

const HEX_DIGITS = '0123456789ABCDEF';

/** Upper-case base16, as Java writes bounds, key metadata and binary values (`BaseEncoding.base16()`). */
export function hexUpper(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!;
  return out;
}

/** Decodes base16 in either case (Java upper-cases before decoding); rejects odd lengths and non-hex characters. */
export function fromHex(s: string): Uint8Array {
  if (s.length % 2 !== 0) throw fail('INVALID_VALUE', `Invalid hex string (odd length ${s.length})`);
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i += 1) {
    const hi = nibble(s.charCodeAt(2 * i));
    const lo = nibble(s.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) throw fail('INVALID_VALUE', `Invalid hex string: bad character near offset ${2 * i}`);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 65 && c <= 70) return c - 55; // A-F
  if (c >= 97 && c <= 102) return c - 87; // a-f
  return -1;
}
