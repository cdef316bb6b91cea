/**
 * The first metadata of a table (REST createTable, and the metadata a staged create answers), as
 * Java's TableMetadata.newTableMetadata makes it: column ids renumbered from 1, the spec rebuilt
 * on them with partition field ids from 1000, the sort order rebuilt (id 1 unless unsorted), the
 * format version taken from the `format-version` property (default 2) and reserved properties
 * left out, `write.parquet.compression-codec=zstd` unless the request says otherwise.
 */
import { fail } from '../errors/index.js';
import { UNSORTED_ORDER, type PartitionField, type PartitionSpec, type SortOrder, type TableMetadata, type Schema } from '../iceberg/index.js';
import type { CommitClock, CreateTableRequest } from './api.js';
import { finish } from './builder-finish.js';
import { addSchemaInternal, addSortOrderInternal, addSpecInternal, setCurrentSchema, setDefaultSortOrder, setDefaultSpec } from './builder-schemas.js';
import { DEFAULT_FORMAT_VERSION, MetadataBuilder } from './builder-state.js';
import { SUPPORTED_FORMAT_VERSION, setLocation, setProperties } from './builder-table.js';
import { assignFreshIds } from './fresh-ids.js';
import { bindSortOrder, checkSortOrderCompatibility } from './order-rules.js';
import { bindSpec, checkPartitionNames, checkSpecCompatibility, PARTITION_DATA_ID_START } from './spec-rules.js';
import {
  COMMIT_PROPERTIES,
  ENCRYPTION_TABLE_PROPERTIES,
  FORMAT_VERSION,
  METRICS_MAX_INFERRED_COLUMN_DEFAULTS,
  METRICS_MODE_COLUMN_CONF_PREFIX,
  PARQUET_COMPRESSION,
  PARQUET_COMPRESSION_DEFAULT_SINCE_1_4_0,
  RESERVED_PROPERTIES,
  parseJavaInt,
  propertyAsInt,
} from './table-properties.js';
import { parseRequestSchema, parseRequestSortOrder, parseRequestSpec } from './update-parse.js';

/** `location`: the table's, as the catalog chose it (the request's, else its default). */
export function newTableMetadata(request: CreateTableRequest, location: string, clock: CommitClock): TableMetadata {
  // Java CreateTableRequest.spec()/writeOrder(): the client's spec and order bound to the client's schema
  const schema = parseRequestSchema(request.schema, 'schema');
  const spec: PartitionSpec =
    request.partitionSpec === undefined ? { specId: 0, fields: [] } : bindSpec(parseRequestSpec(request.partitionSpec, 'partition-spec'), schema);
  const order: SortOrder =
    request.writeOrder === undefined ? UNSORTED_ORDER : bindSortOrder(parseRequestSortOrder(request.writeOrder, 'write-order'), schema);

  const formatVersion = propertyAsInt(request.properties, FORMAT_VERSION, DEFAULT_FORMAT_VERSION);
  const properties = persistedProperties(request.properties);

  let lastColumnId = 0;
  const freshSchema = assignFreshIds(0, schema, () => ++lastColumnId);
  const freshSpec = rebuildSpec(spec, schema, freshSchema);
  const freshOrder = rebuildSortOrder(order, schema, freshSchema);

  validateMetricsConfig(properties, schema);
  validateCommitProperties(properties);
  // Java EncryptionUtil.checkCompatibility: table encryption needs v3
  const encryption = ENCRYPTION_TABLE_PROPERTIES.filter((k) => Object.hasOwn(properties, k));
  if (formatVersion < 3 && encryption.length > 0) {
    throw fail('ILLEGAL_ARGUMENT', `Invalid properties for v${formatVersion}: [${encryption.join(', ')}]`);
  }
  // Java Builder.setInitialFormatVersion (versions below 1 are refused here too: no such format)
  if (formatVersion < 1 || formatVersion > SUPPORTED_FORMAT_VERSION) {
    throw fail('ILLEGAL_ARGUMENT', `Unsupported format version: v${formatVersion} (supported: v${SUPPORTED_FORMAT_VERSION})`);
  }

  const b = new MetadataBuilder(undefined, clock, 'VALIDATION_FAILED', formatVersion);
  setCurrentSchema(b, addSchemaInternal(b, freshSchema, lastColumnId));
  setDefaultSpec(b, addSpecInternal(b, freshSpec));
  setDefaultSortOrder(b, addSortOrderInternal(b, freshOrder));
  setLocation(b, location);
  setProperties(b, properties);
  return finish(b).metadata;
}

/** Java TableMetadata.persistedProperties: zstd Parquet compression by default, reserved properties dropped. */
function persistedProperties(raw: Readonly<Record<string, string>>): Record<string, string> {
  const out = new Map<string, string>([[PARQUET_COMPRESSION, PARQUET_COMPRESSION_DEFAULT_SINCE_1_4_0]]);
  for (const [k, v] of Object.entries(raw)) if (!RESERVED_PROPERTIES.has(k)) out.set(k, v);
  return Object.fromEntries(out);
}

/** Java newTableMetadata: each partition field follows its source column by name; field ids from 1000. */
function rebuildSpec(spec: PartitionSpec, schema: Schema, fresh: Schema): PartitionSpec {
  let lastAssigned = PARTITION_DATA_ID_START - 1;
  const fields: PartitionField[] = spec.fields.map((f) => ({
    sourceId: freshIdOf(f.sourceId, schema, fresh),
    fieldId: ++lastAssigned,
    name: f.name,
    transform: f.transform,
  }));
  checkPartitionNames(fields, fresh);
  const rebuilt: PartitionSpec = { specId: 0, fields };
  checkSpecCompatibility(rebuilt, fresh);
  return rebuilt;
}

/** Java TableMetadata.freshSortOrder: order id 1 unless unsorted, source ids followed by name. */
function rebuildSortOrder(order: SortOrder, schema: Schema, fresh: Schema): SortOrder {
  if (order.fields.length === 0) return UNSORTED_ORDER;
  const rebuilt: SortOrder = {
    orderId: 1,
    fields: order.fields.map((f) => ({ ...f, sourceId: freshIdOf(f.sourceId, schema, fresh) })),
  };
  checkSortOrderCompatibility(rebuilt, fresh);
  return rebuilt;
}

function freshIdOf(sourceId: number, schema: Schema, fresh: Schema): number {
  const name = schema.columnName(sourceId);
  const field = name === undefined ? undefined : fresh.findFieldByName(name);
  if (field === undefined) throw fail('ILLEGAL_ARGUMENT', `Cannot find source column: ${sourceId}`);
  return field.id;
}

/**
 * Java MetricsConfig.fromProperties(properties).validateReferencedColumns(schema), only for new
 * tables: a per-column metrics mode must name a column (ValidationException).
 */
function validateMetricsConfig(properties: Readonly<Record<string, string>>, schema: Schema): void {
  propertyAsInt(properties, METRICS_MAX_INFERRED_COLUMN_DEFAULTS, 100);
  for (const key of Object.keys(properties)) {
    if (!key.startsWith(METRICS_MODE_COLUMN_CONF_PREFIX)) continue;
    const column = key.slice(METRICS_MODE_COLUMN_CONF_PREFIX.length);
    if (column === '') throw fail('ILLEGAL_ARGUMENT', 'Invalid column name: (empty)');
    if (schema.findFieldByName(column) === undefined) {
      throw fail('VALIDATION_FAILED', `Invalid metrics config, could not find column ${column} from table prop ${key} in schema`);
    }
  }
}

/** Java PropertyUtil.validateCommitProperties: commit.retry.* are non-negative ints (ValidationException). */
function validateCommitProperties(properties: Readonly<Record<string, string>>): void {
  for (const key of COMMIT_PROPERTIES) {
    if (!Object.hasOwn(properties, key)) continue;
    const n = parseJavaInt(properties[key]!);
    if (n === undefined) throw fail('VALIDATION_FAILED', `Table property ${key} must have integer value`);
    if (n < 0) throw fail('VALIDATION_FAILED', `Table property ${key} must have non negative integer value`);
  }
}
