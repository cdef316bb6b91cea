/**
 * Partition tuples, their Avro form inside manifests, Hive-style data paths and the manifest-list
 * field summaries (spec "Partitioning", "Manifest Lists": field_summary).
 */
import {
  compareValues,
  daysToIsoDate,
  formatDecimal,
  microsToIsoTimestamp,
  microsToIsoTimestamptz,
  parseTransform,
  partitionType,
  toBinary,
  type PartitionSpec,
  type PrimitiveType,
  type Schema,
  type StructType,
  type Transform,
} from '../../src/iceberg/index.js';
import { applyTransform } from '../../src/planner/transforms/index.js';
import { decimalRequiredBytes } from './avro-schema.js';
import type { FieldSummary } from './model.js';
import { isNaNValue } from './values.js';

export interface BoundPartitionField {
  readonly name: string;
  readonly transform: Transform;
  readonly sourceName: string;
  readonly sourceType: PrimitiveType;
  readonly resultType: PrimitiveType;
}

/** A partition spec resolved against a schema. */
export interface BoundSpec {
  readonly spec: PartitionSpec;
  readonly fields: readonly BoundPartitionField[];
  readonly partitionType: StructType;
}

export function bindSpec(spec: PartitionSpec, schema: Schema): BoundSpec {
  const type = partitionType(spec, schema);
  const fields = spec.fields.map((f, i): BoundPartitionField => {
    const source = schema.findField(f.sourceId);
    if (!source) throw new Error(`partition field ${f.name}: source column ${f.sourceId} is not in the schema`);
    return {
      name: f.name,
      transform: parseTransform(f.transform),
      sourceName: source.name,
      sourceType: source.type as PrimitiveType,
      resultType: type.fields[i]!.type as PrimitiveType,
    };
  });
  return { spec, fields, partitionType: type };
}

/** The partition tuple of a row (an object keyed by top-level column name). */
export function partitionOf(bound: BoundSpec, row: Readonly<Record<string, unknown>>): unknown[] {
  return bound.fields.map((f) => applyTransform(f.transform, f.sourceType, row[f.sourceName] ?? null));
}

/** A string key identifying a tuple, for grouping. */
export function partitionKey(tuple: readonly unknown[]): string {
  return JSON.stringify(tuple, (_key, v: unknown) =>
    typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
  );
}

/** The Avro record of a tuple for the manifest's `r102` partition struct. */
export function partitionRecord(bound: BoundSpec, tuple: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  bound.fields.forEach((f, i) => {
    out[f.name] = avroValue(f.resultType, tuple[i] ?? null);
  });
  return out;
}

function avroValue(type: PrimitiveType, v: unknown): unknown {
  if (v === null) return null;
  switch (type.kind) {
    case 'uuid':
    case 'binary':
    case 'fixed':
      return Buffer.from(toBinary(type, v));
    case 'decimal': {
      // Avro decimals are fixed-size: sign-extend the minimal two's-complement bytes
      const minimal = toBinary(type, v);
      const size = decimalRequiredBytes(type.precision);
      const out = Buffer.alloc(size, (minimal[0] ?? 0) & 0x80 ? 0xff : 0);
      out.set(minimal, size - minimal.length);
      return out;
    }
    default:
      return v;
  }
}

/** Java `PartitionSpec.partitionToPath`: `name=value` segments with Transform.toHumanString values. */
export function partitionPath(bound: BoundSpec, tuple: readonly unknown[]): string {
  return bound.fields
    .map((f, i) => `${encodeURIComponent(f.name)}=${encodeURIComponent(humanString(f, tuple[i] ?? null))}`)
    .join('/');
}

function humanString(f: BoundPartitionField, v: unknown): string {
  if (v === null) return 'null';
  switch (f.transform.kind) {
    case 'year':
      return String(1970 + (v as number)).padStart(4, '0');
    case 'month': {
      const m = v as number;
      const year = 1970 + Math.floor(m / 12);
      return `${String(year).padStart(4, '0')}-${String((((m % 12) + 12) % 12) + 1).padStart(2, '0')}`;
    }
    case 'day':
      return daysToIsoDate(v as number);
    case 'hour': {
      const h = v as number;
      return `${daysToIsoDate(Math.floor(h / 24))}-${String(((h % 24) + 24) % 24).padStart(2, '0')}`;
    }
    default:
      break;
  }
  switch (f.resultType.kind) {
    case 'date':
      return daysToIsoDate(v as number);
    case 'timestamp':
      return microsToIsoTimestamp(v as bigint);
    case 'timestamptz':
      return microsToIsoTimestamptz(v as bigint);
    case 'decimal':
      return formatDecimal(v as bigint, f.resultType.scale);
    case 'binary':
    case 'fixed':
      return Buffer.from(v as Uint8Array).toString('base64');
    default:
      return String(v);
  }
}

/** Accumulates the manifest-list summary of every partition field over the tuples it sees. */
export class PartitionSummary {
  private readonly acc: Array<{ nulls: boolean; nans: boolean; min: unknown; max: unknown }>;

  constructor(private readonly bound: BoundSpec) {
    this.acc = bound.fields.map(() => ({ nulls: false, nans: false, min: null, max: null }));
  }

  update(tuple: readonly unknown[]): void {
    this.bound.fields.forEach((f, i) => {
      const a = this.acc[i]!;
      const v = tuple[i] ?? null;
      if (v === null) a.nulls = true;
      else if (isNaNValue(v)) a.nans = true;
      else {
        if (a.min === null || compareValues(f.resultType, v, a.min) < 0) a.min = v;
        if (a.max === null || compareValues(f.resultType, v, a.max) > 0) a.max = v;
      }
    });
  }

  // spec "Manifest Lists": bounds are Appendix D bytes of the partition field's result type,
  // ordered by Java's comparator for that type (Java `PartitionSummary`)
  summaries(): FieldSummary[] {
    return this.bound.fields.map((f, i) => {
      const a = this.acc[i]!;
      return {
        containsNull: a.nulls,
        containsNan: a.nans,
        lowerBound: a.min === null ? null : toBinary(f.resultType, a.min),
        upperBound: a.max === null ? null : toBinary(f.resultType, a.max),
      };
    });
  }
}
