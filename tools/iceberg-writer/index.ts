/**
 * Icefront's own Iceberg writer (dev tooling, outside src/): real tables for fixtures, tests and
 * benchmarks. Parquet data and delete files, Puffin deletion vectors, Avro manifests and
 * manifest lists for format v1–v3, metadata.json, and a commit-by-commit table builder.
 */
export * from './model.js';
export { IdSource, fnv1a64, syncMarkerFor } from './ids.js';
export { structToAvro, decimalRequiredBytes, type AvroSchema } from './avro-schema.js';
export { writeAvroFile, type AvroFileOptions } from './avro-file.js';
export { manifestEntrySchema, manifestListSchema, dataFileType } from './manifest-schemas.js';
export { writeManifest, type ManifestInput, type ManifestResult } from './manifest-writer.js';
export { writeManifestList, type ManifestListInput, type ManifestListResult } from './manifest-list-writer.js';
export { bindSpec, partitionOf, partitionPath, partitionKey, PartitionSummary, type BoundSpec, type BoundPartitionField } from './partition.js';
export { columnMetrics, type ColumnMetrics, type MetricsColumn } from './metrics.js';
export { writeParquet, type ParquetOptions, type ParquetResult } from './parquet.js';
export {
  DELETE_FILE_PATH,
  DELETE_FILE_POS,
  writeDataFile,
  writeEqualityDeleteFile,
  writePositionDeleteFile,
  type Placement,
  type PositionDelete,
  type WrittenFile,
} from './content-files.js';
export { serializePositions } from './roaring.js';
export { deletionVectorBlob, writeDeletionVectorFile, type DeletionVectorInput, type PuffinResult } from './puffin.js';
export { snapshotSummary, type Operation, type SummaryInput } from './snapshot-summary.js';
export { fsSink } from './sink.js';
export type { TrackedFile, TrackedManifest } from './tracked.js';
export { liveRows, type LiveRow } from './live-rows.js';
export { TableBuilder, type CommitRequest, type CreateTableOptions, type PendingFile } from './table-builder.js';
export {
  appendRows,
  deleteEquality,
  deletePositions,
  deleteWithVectors,
  overwriteRows,
  type CommitResult,
  type DataFileRef,
  type PositionTarget,
  type WriteOptions,
} from './operations.js';
export { writeSyntheticTable, type SyntheticOptions, type SyntheticTable } from './synthetic.js';
