/**
 * Test-only row reading for Iceberg tables, independent of the planner: Parquet rows by field
 * id in the internal value representation, position/equality deletes, deletion vectors, applying
 * a task's deletes, and SQL-semantics filter truth.
 */
export { readParquetRows, type ParquetRows, type Row } from './parquet-rows.js';
export { parquetToIceberg } from './parquet-values.js';
export { fieldsById, nameMapping, resolveColumns, type ColumnBinding, type ResolveContext } from './field-resolver.js';
export { decodeRoaring64 } from './roaring.js';
export { decodeDeletionVector, readPuffinFooter, type PuffinBlobMetadata } from './deletion-vector.js';
export { TableRows, FILE_PATH_ID, POS_ID, type PositionDelete, type ReadableTable } from './table-rows.js';
export { applyDeletes, deletedPositions, equalityKey, isDv, pathKey, type DeleteTask, type LiveRow } from './apply-deletes.js';
export { boundFieldIds, sqlMatcher, sqlTruth, type Truth } from './sql-filter.js';
export { liveEntries, type LiveEntries } from './live-entries.js';
export { asIndexed, fixtureFacts, identifierOf, indexedDataFileCount, loadRealTable, withBorrowedCounts, type FixtureFacts, type SnapshotFacts } from './real-tables.js';
export { applicableDeletes, survivingRows } from './naive-deletes.js';
export { demoCatalog, demoTables, loadDemoTable, type DemoTable } from './demo-warehouse.js';
