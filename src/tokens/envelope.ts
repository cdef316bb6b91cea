/**
 * The envelope shared by plan tasks and plan ids (ARCHITECTURE.md "Plan-task strings"):
 *
 *   <kind>.<payload>                                   no key configured
 *   <kind>.<payload>.<base64url(HMAC-SHA256)>          key configured
 *   payload = base64url(deflate-raw(UTF-8 JSON))
 *
 * `kind` carries the format version and what the string is (`t1` plan task, `p1` plan id), so a
 * new format gets a new kind and a string of one kind is never read as another. Base64url is
 * unpadded, so every character is in `[A-Za-z0-9._-]` (wire-format.md §3: plan ids must survive
 * both `decodeURIComponent` and form decoding, which turns `+` into a space; `+` never appears).
 * Deflate matters because a task names several manifests whose paths share a long prefix and
 * repeats the client's filter (Gravitino design §8.5.3): a 3-manifest task shrinks by ~60%.
 *
 * The MAC covers `<kind>.<payload>` (the kind included, so a plan id's MAC never vouches for a
 * plan task) and is checked before the payload is base64-decoded, inflated or parsed, so a
 * forged string costs one HMAC and nothing else.
 *
 * Key policy (the key must be the same on every replica, Gravitino design §5.15):
 * - key configured: the MAC is required and must verify; an unsigned string is rejected, or the
 *   key would mean nothing.
 * - no key: unsigned strings are accepted, and so are signed ones, MAC unchecked. A server with
 *   no key accepts any well-formed unsigned string, so refusing a signed one would protect
 *   nothing (anyone can strip the MAC) while breaking every scan in flight when a key is removed,
 *   or half of them while a key is being rolled out to replicas.
 *   Introducing a key still costs 404s for the unsigned strings issued before a replica got it
 *   (they live only as long as one scan).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { fail } from '../errors/index.js';

/** Shortest accepted HMAC key, in bytes (config `planning.token-secret` has minLength 16). */
export const MIN_KEY_BYTES = 16;

/** Unpadded base64url length of an HMAC-SHA256 (32 bytes). */
const MAC_CHARS = 43;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Inflated payloads may be this many times longer than the string (hostile input aside, JSON
 * deflates 2-5×): the bound on work for a string that passed the MAC or has none. */
const INFLATE_RATIO = 8;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What `inflateRawSync` returns with `info: true` (the typings omit it). */
interface Inflated {
  readonly buffer: Buffer;
  readonly engine: { readonly bytesWritten: number };
}

export function assertKey(key: Buffer | undefined): void {
  if (key !== undefined && key.length < MIN_KEY_BYTES)
    throw fail('CONFIG_INVALID', `The plan token key must be at least ${MIN_KEY_BYTES} bytes, got ${key.length}`);
}

function mac(key: Buffer, signed: string): Buffer {
  return createHmac('sha256', key).update(signed, 'latin1').digest();
}

/** Wraps a JSON text as `<kind>.<payload>[.<mac>]`. */
export function seal(kind: string, json: string, key: Buffer | undefined): string {
  assertKey(key);
  const signed = `${kind}.${deflateRawSync(Buffer.from(json, 'utf8')).toString('base64url')}`;
  return key === undefined ? signed : `${signed}.${mac(key, signed).toString('base64url')}`;
}

/**
 * The JSON text inside `text`, or undefined when `text` is not a well-formed envelope of `kind`
 * no longer than `maxLength`, its MAC is missing or wrong (key configured), or the payload is not
 * canonical unpadded base64url of deflated valid UTF-8. Nothing is decoded before the MAC
 * verifies.
 */
export function open(kind: string, text: unknown, key: Buffer | undefined, maxLength: number): string | undefined {
  assertKey(key);
  if (typeof text !== 'string' || text.length > maxLength || !text.startsWith(`${kind}.`)) return undefined;
  const parts = text.slice(kind.length + 1).split('.');
  if (parts.length > 2) return undefined;
  const payload = parts[0]!;
  const tag = parts[1];
  if (!BASE64URL.test(payload)) return undefined;
  if (tag !== undefined && (tag.length !== MAC_CHARS || !BASE64URL.test(tag))) return undefined;
  if (key !== undefined) {
    if (tag === undefined) return undefined;
    // compared as text: base64url has several spellings of the last byte, only one is ours
    const expected = Buffer.from(mac(key, `${kind}.${payload}`).toString('base64url'), 'latin1');
    if (!timingSafeEqual(Buffer.from(tag, 'latin1'), expected)) return undefined;
  }
  const bytes = Buffer.from(payload, 'base64url');
  // Buffer.from ignores what it cannot decode; only the string this server would write passes
  if (bytes.toString('base64url') !== payload) return undefined;
  try {
    const out = inflateRawSync(bytes, { maxOutputLength: maxLength * INFLATE_RATIO, info: true }) as unknown as Inflated;
    // inflate stops at the end of the deflate stream: bytes after it were not written by us
    if (out.engine.bytesWritten !== bytes.length) return undefined;
    return UTF8.decode(out.buffer);
  } catch {
    // not deflate, cut short, longer than the bound, or not UTF-8
    return undefined;
  }
}
