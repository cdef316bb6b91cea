/**
 * The partition tuple of a data file (struct 102) in partition-spec field order, each value in
 * the literal representation (iceberg/literals/value.ts) of the partition field's result type.
 * Avro fields are matched to spec fields by partition field id (spec "Manifests": the partition
 * struct uses the partition field ids), by position only when the writer recorded no ids.
 */
import {
  MICROS_PER_DAY,
  NANOS_PER_DAY,
  decimalFromBytes,
  normalizeUuid,
  uuidFromBytes,
  type IcebergType,
  type LiteralValue,
  type PartitionSpec,
  type StructType,
} from '../../iceberg/index.js';
import { MalformedInput } from './avro-binary.js';
import { fieldId, leafType, type AvroRecordSchema } from './avro-schema.js';
import { unexpectedValue, type AvroRecord } from './record-access.js';

type Convert = (v: unknown) => LiteralValue;
export type PartitionReader = (record: AvroRecord | undefined) => (LiteralValue | null)[];

const utf8 = new TextDecoder('utf-8', { fatal: true });
const MICROS_PER_MILLI = 1000n;

function toBigInt(v: unknown, what: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw unexpectedValue(what, 'a long', v);
}

function toBytes(v: unknown, what: string): Uint8Array {
  if (v instanceof Uint8Array) return v;
  throw unexpectedValue(what, 'bytes', v);
}

/**
 * Reads an Avro value as `type`. Widening follows spec "Schema Evolution" (int → long,
 * float → double, decimal precision, date → timestamp at the start of the day), as
 * literals.fromBinary does for bounds.
 */
function converter(type: IcebergType, avro: { type: string; logicalType?: string }, what: string): Convert {
  switch (type.kind) {
    case 'boolean':
      return (v) => {
        if (typeof v === 'boolean') return v;
        throw unexpectedValue(what, 'a boolean', v);
      };
    case 'int':
    case 'date':
      return (v) => {
        if (typeof v === 'number' && Number.isInteger(v)) return v;
        if (typeof v === 'bigint' && BigInt.asIntN(32, v) === v) return Number(v);
        throw unexpectedValue(what, 'an int', v);
      };
    case 'long':
    case 'time':
      return (v) => toBigInt(v, what);
    case 'timestamp':
    case 'timestamptz':
      if (avro.logicalType === 'timestamp-millis') return (v) => toBigInt(v, what) * MICROS_PER_MILLI;
      return (v) => (typeof v === 'number' && avro.logicalType === 'date' ? BigInt(v) * MICROS_PER_DAY : toBigInt(v, what));
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return (v) => (typeof v === 'number' && avro.logicalType === 'date' ? BigInt(v) * NANOS_PER_DAY : toBigInt(v, what));
    case 'float':
    case 'double':
      return (v) => {
        if (typeof v === 'number') return v;
        throw unexpectedValue(what, 'a number', v);
      };
    case 'decimal':
      // two's-complement big-endian unscaled value in bytes or fixed (Avro spec "Decimal")
      return (v) => (v instanceof Uint8Array ? decimalFromBytes(v) : toBigInt(v, what));
    case 'string':
      return (v) => {
        if (typeof v === 'string') return v;
        if (v instanceof Uint8Array) return utf8.decode(v);
        throw unexpectedValue(what, 'a string', v);
      };
    case 'uuid':
      return (v) => (typeof v === 'string' ? normalizeUuid(v) : uuidFromBytes(toBytes(v, what)));
    case 'fixed':
    case 'binary':
      return (v) => toBytes(v, what);
    default:
      // no comparable representation (e.g. a dropped source column): keep the Avro value
      return (v) => {
        if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string' || v instanceof Uint8Array) return v;
        throw unexpectedValue(what, 'a primitive value', v);
      };
  }
}

/**
 * Compiles the reader for one writer schema of the partition struct against `spec` (whose
 * result types are `partitionType`). A spec field the manifest does not carry reads as null.
 */
export function partitionReader(avroPartition: AvroRecordSchema | undefined, spec: PartitionSpec, partitionType: StructType): PartitionReader {
  const avroFields = avroPartition?.fields ?? [];
  const byId = avroFields.some((f) => fieldId(f) !== undefined);
  const slots = spec.fields.map((field, i) => {
    const avroField = byId ? avroFields.find((f) => fieldId(f) === field.fieldId) : avroFields[i];
    if (avroField === undefined) return undefined;
    const what = `partition field ${field.name} (${field.fieldId})`;
    return { name: avroField.name, convert: converter(partitionType.fields[i]!.type, leafType(avroField.type), what) };
  });
  if (!byId && avroFields.length > spec.fields.length) {
    throw new MalformedInput(`the partition struct has ${avroFields.length} fields without ids, spec ${spec.specId} has ${spec.fields.length}`);
  }
  return (record) =>
    slots.map((slot) => {
      if (slot === undefined || record === undefined) return null;
      const v = record[slot.name];
      return v === null || v === undefined ? null : slot.convert(v);
    });
}
