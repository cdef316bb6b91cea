/**
 * Iceberg types → Avro schemas the way Java's `TypeToSchema` writes them (records `r<fieldId>`,
 * `field-id`/`element-id` attributes, optional fields as `["null", T]` with default null,
 * int-keyed maps as arrays of `k<keyId>_v<valueId>` records with `logicalType: "map"`).
 */
import type { IcebergType, NestedField, PrimitiveType, StructType } from '../../src/iceberg/index.js';
import { primitiveToString } from '../../src/iceberg/index.js';

export type AvroSchema = string | readonly AvroSchema[] | { readonly [key: string]: unknown };

/** Bytes needed to hold an unscaled decimal of `precision` digits (Java `TypeUtil.decimalRequiredBytes`). */
export function decimalRequiredBytes(precision: number): number {
  let bytes = 1;
  while (2 ** (8 * bytes - 1) - 1 < 10 ** precision) bytes++;
  return bytes;
}

/** Converts a struct to an Avro record schema named `name`. */
export function structToAvro(struct: StructType, name: string): AvroSchema {
  return new Converter().record(struct, name);
}

class Converter {
  // Avro named types may be defined once per schema; later uses refer to the name.
  private readonly named = new Set<string>();

  record(struct: StructType, name: string): AvroSchema {
    return { type: 'record', name, fields: struct.fields.map((f) => this.field(f)) };
  }

  private field(f: NestedField): Record<string, unknown> {
    const inner = this.type(f.type, f.id);
    const out: Record<string, unknown> = { name: f.name, type: f.required ? inner : ['null', inner] };
    if (f.doc !== undefined) out.doc = f.doc;
    if (!f.required) out.default = null;
    out['field-id'] = f.id;
    return out;
  }

  private type(t: IcebergType, fieldId: number): AvroSchema {
    switch (t.kind) {
      case 'struct':
        return this.record(t, `r${fieldId}`);
      case 'list': {
        const element = this.type(t.element, t.elementId);
        return { type: 'array', items: t.elementRequired ? element : ['null', element], 'element-id': t.elementId };
      }
      case 'map': {
        const value = this.type(t.value, t.valueId);
        const optValue = t.valueRequired ? value : ['null', value];
        if (t.key.kind === 'string') {
          return { type: 'map', values: optValue, 'key-id': t.keyId, 'value-id': t.valueId };
        }
        const kv = {
          type: 'record',
          name: `k${t.keyId}_v${t.valueId}`,
          fields: [
            { name: 'key', type: this.type(t.key, t.keyId), 'field-id': t.keyId },
            { name: 'value', type: optValue, 'field-id': t.valueId },
          ],
        };
        return { type: 'array', items: kv, logicalType: 'map' };
      }
      default:
        return this.primitive(t);
    }
  }

  private primitive(t: PrimitiveType): AvroSchema {
    switch (t.kind) {
      case 'boolean':
      case 'int':
      case 'long':
      case 'float':
      case 'double':
      case 'string':
        return t.kind;
      case 'binary':
        return 'bytes';
      case 'date':
        return { type: 'int', logicalType: 'date' };
      case 'time':
        return { type: 'long', logicalType: 'time-micros' };
      case 'timestamp':
      case 'timestamptz':
        return { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': t.kind === 'timestamptz' };
      case 'timestamp_ns':
      case 'timestamptz_ns':
        return { type: 'long', logicalType: 'timestamp-nanos', 'adjust-to-utc': t.kind === 'timestamptz_ns' };
      case 'uuid':
        return this.fixed('uuid_fixed', 16, { logicalType: 'uuid' });
      case 'fixed':
        return this.fixed(`fixed_${t.length}`, t.length, {});
      case 'decimal':
        return this.fixed(`decimal_${t.precision}_${t.scale}`, decimalRequiredBytes(t.precision), {
          logicalType: 'decimal',
          precision: t.precision,
          scale: t.scale,
        });
      default:
        throw new Error(`no Avro mapping for Iceberg type ${primitiveToString(t)}`);
    }
  }

  private fixed(name: string, size: number, extra: Record<string, unknown>): AvroSchema {
    if (this.named.has(name)) return name;
    this.named.add(name);
    return { type: 'fixed', name, size, ...extra };
  }
}
