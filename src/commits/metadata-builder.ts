/**
 * The next metadata of a table from its updates, as Java's CatalogHandlers does it: each update
 * applied in order to a TableMetadata.Builder (MetadataUpdate.applyTo), started from the table
 * (buildFrom) or, for a table created by this commit, from nothing (buildFromEmpty at the format
 * version of the first upgrade-format-version), then built.
 */
import { fail } from '../errors/index.js';
import type { CommitClock, TableVersion } from './api.js';
import { addSnapshot, removeRef, removeSnapshots, removePartitionStatistics, removeStatistics, setPartitionStatistics, setRef, setStatistics, snapshotRefOf } from './builder-snapshots.js';
import { addSchema, addSortOrder, addSpec, removeSchemas, removeSpecs, setCurrentSchema, setDefaultSortOrder, setDefaultSpec } from './builder-schemas.js';
import { DEFAULT_FORMAT_VERSION, MetadataBuilder } from './builder-state.js';
import { finish, type BuiltMetadata } from './builder-finish.js';
import {
  SUPPORTED_FORMAT_VERSION,
  addEncryptionKey,
  assignUuid,
  removeEncryptionKey,
  removeProperties,
  setLocation,
  setProperties,
  upgradeFormatVersion,
} from './builder-table.js';
import type { TableUpdate } from './updates.js';

export interface ApplyOptions {
  /**
   * What a snapshot whose sequence number or first-row-id the table has moved past is refused as.
   * Default: COMMIT_FAILED for a commit to an existing table (Java 1.11 CatalogHandlers.commit
   * turns the RetryableValidationException into "Validation failed, please retry"), and
   * VALIDATION_FAILED for a table created by the commit (CatalogHandlers.create does not).
   */
  readonly staleAs?: 'COMMIT_FAILED' | 'VALIDATION_FAILED';
  /**
   * The location of a table this commit creates when its updates set none: the store's default
   * for the table. (Java's builder would build metadata without a location, and its catalogs then
   * write `null/metadata/…`; without a default this is ILLEGAL_ARGUMENT.)
   */
  readonly defaultLocation?: string;
}

export type AppliedUpdates = BuiltMetadata;

/**
 * Applies `updates` to `base` (undefined: the table does not exist yet and the updates create it).
 * `changed: false` means nothing changed and there is nothing to commit (`metadata` is the base's).
 * Refusals: ILLEGAL_ARGUMENT (Java IllegalArgumentException), VALIDATION_FAILED
 * (ValidationException), COMMIT_FAILED (stale values, see ApplyOptions).
 */
export function applyUpdates(
  base: TableVersion | undefined,
  updates: readonly TableUpdate[],
  clock: CommitClock,
  options: ApplyOptions = {},
): AppliedUpdates {
  const staleAs = options.staleAs ?? (base === undefined ? 'VALIDATION_FAILED' : 'COMMIT_FAILED');
  let emptyFormatVersion = DEFAULT_FORMAT_VERSION;
  if (base === undefined) {
    const upgrade = updates.find((u) => u.action === 'upgrade-format-version');
    if (upgrade !== undefined) emptyFormatVersion = upgrade.formatVersion;
    if (emptyFormatVersion < 1 || emptyFormatVersion > SUPPORTED_FORMAT_VERSION) {
      throw fail('ILLEGAL_ARGUMENT', `Unsupported format version: v${emptyFormatVersion} (supported: v${SUPPORTED_FORMAT_VERSION})`);
    }
  }
  const builder = new MetadataBuilder(base, clock, staleAs, emptyFormatVersion);
  for (const update of updates) applyUpdate(builder, update);
  if (base === undefined && builder.location === undefined && options.defaultLocation !== undefined) builder.location = options.defaultLocation;
  return finish(builder);
}

/** Java MetadataUpdate.applyTo(TableMetadata.Builder), one action each. */
function applyUpdate(b: MetadataBuilder, u: TableUpdate): void {
  switch (u.action) {
    case 'assign-uuid':
      return assignUuid(b, u.uuid);
    case 'upgrade-format-version':
      return upgradeFormatVersion(b, u.formatVersion);
    case 'add-schema':
      addSchema(b, u.schema);
      return;
    case 'set-current-schema':
      return setCurrentSchema(b, u.schemaId);
    case 'add-spec':
      addSpec(b, u.spec);
      return;
    case 'set-default-spec':
      return setDefaultSpec(b, u.specId);
    case 'add-sort-order':
      addSortOrder(b, u.sortOrder);
      return;
    case 'set-default-sort-order':
      return setDefaultSortOrder(b, u.sortOrderId);
    case 'add-snapshot':
      return addSnapshot(b, u.snapshot);
    case 'set-snapshot-ref':
      return setRef(b, u.refName, snapshotRefOf(u));
    case 'remove-snapshots':
      return removeSnapshots(b, u.snapshotIds);
    case 'remove-snapshot-ref':
      return removeRef(b, u.refName);
    case 'set-location':
      return setLocation(b, u.location);
    case 'set-properties':
      return setProperties(b, u.updates);
    case 'remove-properties':
      return removeProperties(b, u.removals);
    case 'set-statistics':
      return setStatistics(b, u.statistics);
    case 'remove-statistics':
      return removeStatistics(b, u.snapshotId);
    case 'set-partition-statistics':
      return setPartitionStatistics(b, u.partitionStatistics);
    case 'remove-partition-statistics':
      return removePartitionStatistics(b, u.snapshotId);
    case 'remove-partition-specs':
      return removeSpecs(b, u.specIds);
    case 'remove-schemas':
      return removeSchemas(b, u.schemaIds);
    case 'add-encryption-key':
      return addEncryptionKey(b, u.encryptionKey);
    case 'remove-encryption-key':
      return removeEncryptionKey(b, u.keyId);
  }
}
