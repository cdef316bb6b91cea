/**
 * Iceberg data types (spec "Schemas and Data Types"; REST spec `Type`). Pure data: nested
 * types carry their field ids so readers can project by id.
 */
export type PrimitiveKind =
  | 'boolean'
  | 'int'
  | 'long'
  | 'float'
  | 'double'
  | 'date'
  | 'time'
  | 'timestamp'
  | 'timestamptz'
  | 'timestamp_ns'
  | 'timestamptz_ns'
  | 'string'
  | 'uuid'
  | 'binary'
  | 'variant'
  | 'unknown'
  | 'geometry'
  | 'geography';

export interface SimpleType {
  readonly kind: PrimitiveKind;
  /** geometry/geography parameters as written, e.g. "geometry(srid:4326)". */
  readonly raw?: string;
}
export interface DecimalType {
  readonly kind: 'decimal';
  readonly precision: number;
  readonly scale: number;
}
export interface FixedType {
  readonly kind: 'fixed';
  readonly length: number;
}
export type PrimitiveType = SimpleType | DecimalType | FixedType;

export interface NestedField {
  readonly id: number;
  readonly name: string;
  readonly required: boolean;
  readonly type: IcebergType;
  readonly doc?: string;
  /** JSON single values exactly as written in metadata (kept for round trips). */
  readonly initialDefault?: unknown;
  readonly writeDefault?: unknown;
}
export interface StructType {
  readonly kind: 'struct';
  readonly fields: readonly NestedField[];
}
export interface ListType {
  readonly kind: 'list';
  readonly elementId: number;
  readonly elementRequired: boolean;
  readonly element: IcebergType;
}
export interface MapType {
  readonly kind: 'map';
  readonly keyId: number;
  readonly key: IcebergType;
  readonly valueId: number;
  readonly valueRequired: boolean;
  readonly value: IcebergType;
}
export type NestedType = StructType | ListType | MapType;
export type IcebergType = PrimitiveType | NestedType;

export function isPrimitive(t: IcebergType): t is PrimitiveType {
  return t.kind !== 'struct' && t.kind !== 'list' && t.kind !== 'map';
}

/** The spec's string form of a primitive type: "int", "decimal(9,2)", "fixed[16]". */
export function primitiveToString(t: PrimitiveType): string {
  if (t.kind === 'decimal') return `decimal(${t.precision},${t.scale})`;
  if (t.kind === 'fixed') return `fixed[${t.length}]`;
  return t.raw ?? t.kind;
}
