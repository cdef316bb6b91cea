export * from './types.js';
export { parsePrimitive, parseType, primitiveTypeName, typeToJson } from './type-json.js';
export { Schema, parseSchema, schemaToJson } from './schema.js';
export { parseTransform, transformResultType, type Transform, type TransformKind } from './transform.js';
export {
  isUnpartitioned,
  parsePartitionFields,
  parsePartitionSpec,
  partitionFieldsToJson,
  partitionSpecToJson,
  partitionType,
  type PartitionField,
  type PartitionSpec,
} from './partition-spec.js';
export {
  UNSORTED_ORDER,
  parseSortOrder,
  sortOrderToJson,
  type NullOrder,
  type SortDirection,
  type SortField,
  type SortOrder,
} from './sort-order.js';
export {
  MAIN_BRANCH,
  parseSnapshot,
  parseSnapshotRef,
  snapshotRefToJson,
  snapshotToJson,
  type Snapshot,
  type SnapshotRef,
  type SnapshotRefType,
} from './snapshot.js';
export type { BlobMetadata, EncryptedKey, PartitionStatisticsFile, StatisticsFile } from './statistics.js';
export {
  metadataFileText,
  parseTableMetadata,
  type FormatVersion,
  type MetadataLogEntry,
  type SnapshotLogEntry,
  type TableMetadata,
} from './table-metadata.js';
export { tableMetadataToJson, type TableMetadataJsonOptions } from './table-metadata-json.js';
export { tableMetadataText } from './table-metadata-text.js';
export {
  currentSchema,
  currentSnapshot,
  defaultSpec,
  schemaById,
  snapshotById,
  snapshotSchema,
  sortOrderById,
  specById,
} from './metadata-lookup.js';
export * from './literals/index.js';
export * from './content-file.js';
export * from './expressions/index.js';
export { contentFileJsonLength, contentFileToJson, type ContentFileJsonOptions } from './content-file-json.js';
export type { Namespace, TableIdentifier } from './identifiers.js';
export type { ManifestRange } from './manifest-range.js';
export * from './view-metadata.js';
export { viewHistoryEntryToJson, viewMetadataToJson, viewRepresentationToJson, viewVersionToJson } from './view-metadata-json.js';
export { parseEncryptedKey, parsePartitionStatisticsFile, parseStatisticsFile } from './statistics.js';
