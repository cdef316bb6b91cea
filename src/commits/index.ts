/**
 * The commit core: Iceberg table commit semantics (requirements, updates, the metadata builder,
 * new tables, metadata file names), pure and free of files, SQL and HTTP. Stores call it.
 */
export { SYSTEM_CLOCK, type CommitClock, type CreateTableRequest, type TableChange, type TableCommit, type TableVersion } from './api.js';
export { commitTables, type CommitOptions, type CommitStore, type CommitTurns, type TableSwap } from './commit-loop.js';
export { checkRequirements, isCreate, parseRequirement, type TableRequirement } from './requirements.js';
export type { TableUpdate, TableUpdateAction, UpdateOf } from './updates.js';
export { parseUpdate } from './update-parse.js';
export { applyUpdates, type AppliedUpdates, type ApplyOptions } from './metadata-builder.js';
export { newTableMetadata } from './new-table.js';
export { parseCreateTableRequest } from './create-request.js';
export { parseTableChange, parseTableIdentifier, parseTransaction } from './table-change.js';
export {
  hadoopMetadataFileName,
  metadataCompression,
  metadataFileLocation,
  nextMetadataFileName,
  parseMetadataVersion,
  removedMetadataFiles,
  type MetadataCompression,
} from './file-names.js';
export * from './views/index.js';
