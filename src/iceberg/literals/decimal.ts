import { fail } from '../../errors/index.js';

/**
 * Minimal two's-complement big-endian bytes of an unscaled decimal (spec Appendix D and
 * Appendix B note 2; Java `BigInteger.toByteArray`): 0 → `00`, 1420 → `058C`, -100 → `9C`.
 */
export function decimalToBytes(unscaled: bigint): Uint8Array {
  const magnitude = unscaled < 0n ? -unscaled - 1n : unscaled;
  const bitLength = magnitude === 0n ? 0 : magnitude.toString(2).length;
  const size = Math.floor(bitLength / 8) + 1;
  let rest = BigInt.asUintN(size * 8, unscaled);
  const out = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i -= 1) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

/** Reads any two's-complement big-endian length, minimal or not (Java `new BigInteger(bytes)`). */
export function decimalFromBytes(bytes: Uint8Array): bigint {
  if (bytes.length === 0) throw fail('INVALID_VALUE', 'Invalid decimal value: zero bytes');
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return BigInt.asIntN(bytes.length * 8, v);
}

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,9}))?$/;

/** Parses Java `BigDecimal(String)` syntax, keeping the written scale: "14.20" → 1420 scale 2, "2E+20" → 2 scale -20. */
export function parseDecimalText(text: string): { unscaled: bigint; scale: number } {
  const m = DECIMAL_RE.exec(text);
  const intPart = m?.[2] ?? '';
  const fracPart = m?.[3] ?? '';
  if (!m || intPart.length + fracPart.length === 0) {
    throw fail('INVALID_VALUE', `Invalid decimal value: ${JSON.stringify(text)}`);
  }
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  const unscaled = BigInt(`${m[1] === '-' ? '-' : ''}${intPart}${fracPart}` || '0');
  return { unscaled, scale: fracPart.length - exponent };
}

/** Parses a decimal whose written scale must equal `scale` (Java `SingleValueParser` rule). */
export function decimalFromString(text: string, scale: number): bigint {
  const parsed = parseDecimalText(text);
  if (parsed.scale !== scale) {
    throw fail('INVALID_VALUE', `Invalid decimal value: ${JSON.stringify(text)} has scale ${parsed.scale}, expected ${scale}`);
  }
  return parsed.unscaled;
}

/**
 * Java's text for a decimal: `toPlainString()` for scale ≥ 0 ("123.4500", "-0.05"), `toString()`
 * (scientific) for a negative scale ("2E+20"), as `SingleValueParser.toJson` writes it.
 */
export function formatDecimal(unscaled: bigint, scale: number): string {
  const sign = unscaled < 0n ? '-' : '';
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString();
  if (scale < 0) {
    const adjusted = digits.length - 1 - scale;
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mantissa}E+${adjusted}`;
  }
  if (scale === 0) return sign + digits;
  const padded = digits.padStart(scale + 1, '0');
  return `${sign}${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
}
