/**
 * Parquet files with Iceberg field ids and the `iceberg.schema` key-value entry (spec "Parquet":
 * type mapping and "Field IDs"), written by hyparquet-writer. Returns the file-level metrics
 * Iceberg records in a manifest: the metrics computed from the rows, plus column sizes and split
 * offsets read back from the footer that was written.
 */
import { createRequire } from 'node:module';
import { parquetMetadata } from 'hyparquet';
import type * as HyparquetWriter from 'hyparquet-writer';
import { primitiveToString, type PrimitiveType } from '../../src/iceberg/index.js';
import { decimalRequiredBytes } from './avro-schema.js';
import { columnMetrics, type ColumnMetrics, type MetricsColumn } from './metrics.js';

// Loaded with require(esm): tap's ts-node ESM resolver rejects hyparquet-writer's deep imports
// (`hyparquet/src/*.js` subpath pattern exports), Node's own resolver accepts them.
const { parquetWriteBuffer } = createRequire(import.meta.url)('hyparquet-writer') as typeof HyparquetWriter;

/**
 * The footer's `created_by`, in the form parquet-java's VersionParser reads (PARQUET-251:
 * `<application> version <version> (build <build>)`): a name it cannot parse makes every engine on
 * parquet-java (Spark, Trino's reader aside) log a stack trace and ignore the file's statistics.
 */
export const CREATED_BY = 'icefront-iceberg-writer version 0.1.0 (build fixtures)';

// hyparquet-writer brings its own hyparquet copy, so take its schema type from its signature
type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];

export interface ParquetOptions {
  /** The Iceberg schema JSON stored under `iceberg.schema` (Java writes the file's write schema). */
  readonly icebergSchemaJson: string;
  /** Rows per row group; several groups give several split offsets. */
  readonly rowGroupSize?: number;
}

export interface ParquetResult extends ColumnMetrics {
  readonly bytes: Uint8Array;
  readonly recordCount: bigint;
  readonly columnSizes: Map<number, bigint>;
  /** Start offset of every row group, ascending (Java `ParquetUtil.getSplitOffsets`). */
  readonly splitOffsets: bigint[];
}

/** Writes `rows` (objects keyed by column name) with one Parquet column per entry of `columns`. */
export function writeParquet(columns: readonly MetricsColumn[], rows: readonly Readonly<Record<string, unknown>>[], opts: ParquetOptions): ParquetResult {
  const schema: SchemaElement[] = [{ name: 'table', num_children: columns.length }];
  for (const { field } of columns) {
    schema.push({
      name: field.name,
      repetition_type: field.required ? 'REQUIRED' : 'OPTIONAL',
      field_id: field.id,
      ...parquetType(field.type),
    });
  }
  const buffer = parquetWriteBuffer({
    columnData: columns.map(({ field }) => ({ name: field.name, data: rows.map((r) => r[field.name] ?? null) })),
    schema,
    kvMetadata: [{ key: 'iceberg.schema', value: opts.icebergSchemaJson }],
    rowGroupSize: opts.rowGroupSize ?? 100_000,
    createdBy: CREATED_BY,
  });
  const bytes = new Uint8Array(buffer);
  const footer = parquetMetadata(buffer);
  const idByName = new Map(columns.map(({ field }) => [field.name, field.id]));
  const columnSizes = new Map<number, bigint>(columns.map(({ field }) => [field.id, 0n]));
  const splitOffsets: bigint[] = [];
  for (const group of footer.row_groups) {
    const first = group.columns[0]?.meta_data;
    if (first) splitOffsets.push(BigInt(first.dictionary_page_offset ?? first.data_page_offset));
    for (const chunk of group.columns) {
      const id = idByName.get(chunk.meta_data?.path_in_schema[0] ?? '');
      if (id !== undefined) columnSizes.set(id, columnSizes.get(id)! + BigInt(chunk.meta_data!.total_compressed_size));
    }
  }
  return { bytes, recordCount: BigInt(rows.length), columnSizes, splitOffsets, ...columnMetrics(columns, rows) };
}

// spec "Parquet" type mapping (Appendix A)
function parquetType(t: PrimitiveType): Partial<SchemaElement> {
  switch (t.kind) {
    case 'boolean':
      return { type: 'BOOLEAN' };
    case 'int':
      return { type: 'INT32' };
    case 'long':
      return { type: 'INT64' };
    case 'float':
      return { type: 'FLOAT' };
    case 'double':
      return { type: 'DOUBLE' };
    case 'date':
      return { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'time':
      return { type: 'INT64', converted_type: 'TIME_MICROS', logical_type: { type: 'TIME', isAdjustedToUTC: false, unit: 'MICROS' } };
    case 'timestamp':
      return { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' } };
    case 'timestamptz':
      return { type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } };
    case 'string':
      return { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'uuid':
      return { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } };
    case 'binary':
      return { type: 'BYTE_ARRAY' };
    case 'fixed':
      return { type: 'FIXED_LEN_BYTE_ARRAY', type_length: t.length };
    case 'decimal': {
      const decimal = { converted_type: 'DECIMAL', scale: t.scale, precision: t.precision } as const;
      const logical_type = { type: 'DECIMAL', scale: t.scale, precision: t.precision } as const;
      if (t.precision <= 9) return { type: 'INT32', ...decimal, logical_type };
      if (t.precision <= 18) return { type: 'INT64', ...decimal, logical_type };
      return { type: 'FIXED_LEN_BYTE_ARRAY', type_length: decimalRequiredBytes(t.precision), ...decimal, logical_type };
    }
    default:
      throw new Error(`the writer has no Parquet mapping for ${primitiveToString(t)}`);
  }
}
