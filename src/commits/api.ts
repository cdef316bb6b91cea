/**
 * What the commit core offers the stores (filesystem, sql): Iceberg semantics of table changes,
 * free of files, SQL and HTTP. A store loads the current metadata, asks this module what the next
 * metadata is, writes it and swaps the current metadata location atomically; the retry loop
 * (commit-loop.ts) is the same for every store.
 */
import type { TableIdentifier, TableMetadata } from '../iceberg/index.js';
import type { TableRequirement } from './requirements.js';
import type { TableUpdate } from './updates.js';

/** The table as a store holds it: its metadata and the file that metadata was read from. */
export interface TableVersion {
  readonly metadata: TableMetadata;
  /** The metadata file as the catalog records it (goes into the next metadata-log). */
  readonly metadataLocation: string;
  /**
   * The metadata as JSON text, exactly as `stringifyJson(tableMetadataToJson(metadata))` writes it,
   * when the store has it at hand (a file it wrote itself): answers embed it instead of
   * serialising the metadata again.
   */
  readonly json?: string;
}

/** REST spec CommitTableRequest (and each entry of CommitTransactionRequest.table-changes). */
export interface TableChange {
  /** Present in a transaction's table-changes; the path names the table of a single commit. */
  readonly identifier?: TableIdentifier;
  readonly requirements: readonly TableRequirement[];
  readonly updates: readonly TableUpdate[];
}

/** One table's part of a commit: the table, and what the client asks of it. */
export interface TableCommit {
  readonly identifier: TableIdentifier;
  readonly change: TableChange;
}

/** What a commit needs of the world, injected so tests can fix it. */
export interface CommitClock {
  /** Milliseconds since the epoch (last-updated-ms, metadata-log timestamps). */
  now(): number;
  /** A random v4 UUID (table-uuid of a new table, metadata file names). */
  newUuid(): string;
}

export const SYSTEM_CLOCK: CommitClock = Object.freeze({
  now: () => Date.now(),
  newUuid: () => crypto.randomUUID(),
});

/** REST spec CreateTableRequest, validated. Ids in `schema`, `spec` and `writeOrder` are the client's; `newTableMetadata` assigns fresh ones. */
export interface CreateTableRequest {
  readonly name: string;
  readonly location?: string;
  /** The `schema` object as sent (parsed by iceberg/ parseSchema). */
  readonly schema: unknown;
  readonly partitionSpec?: unknown;
  readonly writeOrder?: unknown;
  readonly stageCreate: boolean;
  readonly properties: Readonly<Record<string, string>>;
}
