import { fail } from '../../errors/index.js';
import { fromHex } from './hex.js';

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Canonical lower-case 36-character form; rejects anything that is not 8-4-4-4-12 hex. */
export function normalizeUuid(s: string): string {
  if (!UUID_RE.test(s)) throw fail('INVALID_VALUE', `Invalid uuid value: ${JSON.stringify(s)}`);
  return s.toLowerCase();
}

/** 16 bytes, big-endian (most significant bits first), as spec Appendix B/D encode a uuid. */
export function uuidToBytes(uuid: string): Uint8Array {
  return fromHex(normalizeUuid(uuid).replaceAll('-', ''));
}

export function uuidFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw fail('INVALID_VALUE', `Invalid uuid value: expected 16 bytes, got ${bytes.length}`);
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Java's order for uuids (`Comparators.forType(uuid)` = `java.util.UUID.compareTo`): the most and
 * then the least significant 64 bits, each compared as a **signed** long. This is what Java
 * planners use against bounds today (apache/iceberg#14216 is open about it).
 */
export function compareUuidsJava(a: string, b: string): number {
  const [am, al] = halves(a);
  const [bm, bl] = halves(b);
  if (am !== bm) return am < bm ? -1 : 1;
  if (al !== bl) return al < bl ? -1 : 1;
  return 0;
}

/**
 * RFC 4122/9562 order: unsigned big-endian bytes, which equals comparing the canonical lower-case
 * strings. Parquet writers order uuid statistics this way.
 */
export function compareUuidsRfc(a: string, b: string): number {
  const x = normalizeUuid(a);
  const y = normalizeUuid(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function halves(u: string): [bigint, bigint] {
  const hex = normalizeUuid(u).replaceAll('-', '');
  return [BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)), BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`))];
}
