/**
 * The header of an Avro object container file (Avro spec "Object Container Files"): magic
 * `Obj\x01`, a `map<bytes>` of metadata, then the 16-byte sync marker.
 */
import { AvroCursor, EncryptedInput, MalformedInput } from './avro-binary.js';

const MAGIC = Buffer.from([0x4f, 0x62, 0x6a, 0x01]);
// Iceberg's AES-GCM stream format (spec "Table Encryption", `AesGcmInputStream`) starts with "AGS1"
const ENCRYPTED_MAGIC = Buffer.from('AGS1', 'latin1');
export const SYNC_LENGTH = 16;

export interface AvroHeader {
  /** Metadata values as UTF-8 strings (Iceberg writes only text values). */
  readonly meta: ReadonlyMap<string, string>;
  readonly codec: string;
  /** `avro.schema` exactly as written: the cache key for compiled types. */
  readonly schemaText: string;
  /** `avro.schema` parsed; keeps `field-id`/`element-id` attributes that avsc drops. */
  readonly writerSchema: unknown;
  readonly sync: Buffer;
  /** Byte offset of the first data block. */
  readonly length: number;
}

/** Parses the header at the start of `buf`; throws TruncatedInput when `buf` ends inside it. */
export function parseHeader(buf: Buffer): AvroHeader {
  const magic = buf.subarray(0, MAGIC.length);
  if (magic.length === MAGIC.length && !magic.equals(MAGIC)) {
    if (magic.equals(ENCRYPTED_MAGIC)) {
      throw new EncryptedInput('the file is encrypted (AES-GCM stream "AGS1"); encrypted manifests are not supported');
    }
    throw new MalformedInput('not an Avro object container file (bad magic)');
  }
  const cur = new AvroCursor(buf);
  cur.fixed(MAGIC.length, 'magic');
  const meta = new Map<string, string>();
  for (;;) {
    let count = cur.long('metadata block count');
    if (count === 0) break;
    if (count < 0) {
      count = -count;
      cur.long('metadata block size');
    }
    for (let i = 0; i < count; i += 1) {
      const key = cur.bytes('metadata key').toString('utf8');
      meta.set(key, cur.bytes('metadata value').toString('utf8'));
    }
  }
  const sync = Buffer.from(cur.fixed(SYNC_LENGTH, 'sync marker'));
  const schemaText = meta.get('avro.schema');
  if (schemaText === undefined) throw new MalformedInput('the header has no avro.schema');
  let writerSchema: unknown;
  try {
    writerSchema = JSON.parse(schemaText);
  } catch (err) {
    throw new MalformedInput(`avro.schema is not JSON (${(err as Error).message})`);
  }
  return { meta, codec: meta.get('avro.codec') ?? 'null', schemaText, writerSchema, sync, length: cur.pos };
}
