/** A struct with one column of every primitive type plus nesting, shared by the expression tests. */
import type { IcebergType, NestedField, StructType } from '../../../src/iceberg/index.js';

function field(id: number, name: string, type: IcebergType, required = false): NestedField {
  return { id, name, required, type };
}

export const STRUCT: StructType = {
  kind: 'struct',
  fields: [
    field(1, 'i', { kind: 'int' }),
    field(2, 'l', { kind: 'long' }, true),
    field(3, 'f', { kind: 'float' }),
    field(4, 'dbl', { kind: 'double' }),
    field(5, 'dt', { kind: 'date' }),
    field(6, 'tm', { kind: 'time' }),
    field(7, 'ts', { kind: 'timestamp' }),
    field(8, 'tstz', { kind: 'timestamptz' }),
    field(9, 'tsns', { kind: 'timestamp_ns' }),
    field(10, 'tstzns', { kind: 'timestamptz_ns' }),
    field(11, 'dec', { kind: 'decimal', precision: 9, scale: 2 }),
    field(12, 's', { kind: 'string' }),
    field(13, 'u', { kind: 'uuid' }),
    field(14, 'fx', { kind: 'fixed', length: 3 }),
    field(15, 'bin', { kind: 'binary' }),
    field(16, 'b', { kind: 'boolean' }),
    field(17, 'st', {
      kind: 'struct',
      fields: [
        field(18, 'req', { kind: 'int' }, true),
        field(19, 'inner', { kind: 'struct', fields: [field(20, 'deep', { kind: 'string' }, true)] }, true),
      ],
    }),
    field(21, 'rs', { kind: 'struct', fields: [field(22, 'x', { kind: 'long' }, true)] }, true),
    field(23, 'tags', { kind: 'list', elementId: 24, elementRequired: true, element: { kind: 'string' } }),
    field(25, 'unk', { kind: 'unknown' }),
  ],
};

/** Position of each top-level column in a row. */
export const POS = Object.fromEntries(STRUCT.fields.map((f, i) => [f.name, i])) as Record<string, number>;

/** A row of nulls with the given top-level columns set. */
export function row(values: Record<string, unknown>): unknown[] {
  const out: unknown[] = STRUCT.fields.map(() => null);
  for (const [name, v] of Object.entries(values)) out[POS[name]!] = v;
  return out;
}
