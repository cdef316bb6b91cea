/**
 * Metadata a manifest entry inherits from its manifest-list entry (wire-format §12.6, §12.7;
 * Java `InheritableMetadataFactory.BaseInheritableMetadata`, `ManifestReader.idAssigner`).
 */
import { ENTRY_STATUS_ADDED, ENTRY_STATUS_DELETED, type EntryStatus, type ManifestFile } from '../../iceberg/index.js';
import { MalformedInput } from './avro-binary.js';

export interface InheritedNumbers {
  readonly snapshotId: bigint;
  readonly dataSequenceNumber: bigint;
  readonly fileSequenceNumber: bigint | undefined;
}

/**
 * Spec "Sequence Number Inheritance": a null snapshot id becomes the manifest's
 * `added_snapshot_id`; a null data or file sequence number becomes the manifest's sequence
 * number when the entry is ADDED or that number is 0 (v1). A live entry left without a data
 * sequence number is invalid. A DELETED entry is never used (spec "Scan Planning"), so one
 * without gets the manifest's number to keep the field a bigint.
 */
export function inheritNumbers(
  manifest: ManifestFile,
  status: EntryStatus,
  snapshotId: bigint | undefined,
  dataSequenceNumber: bigint | undefined,
  fileSequenceNumber: bigint | undefined,
): InheritedNumbers {
  const m = manifest.sequenceNumber;
  const inherits = status === ENTRY_STATUS_ADDED || m === 0n;
  let data = dataSequenceNumber ?? (inherits ? m : undefined);
  if (data === undefined) {
    if (status !== ENTRY_STATUS_DELETED) throw new MalformedInput('an EXISTING entry has no data sequence number');
    data = m;
  }
  return {
    snapshotId: snapshotId ?? manifest.addedSnapshotId,
    dataSequenceNumber: data,
    fileSequenceNumber: fileSequenceNumber ?? (inherits ? m : undefined),
  };
}

/**
 * Spec "First Row ID Inheritance" (v3): in a data manifest whose list entry has a
 * `first_row_id`, entries in file order that are not DELETED and have no `first_row_id` get the
 * next id, which then advances by the file's record count — counting entries a scan filters out
 * later. Without a manifest `first_row_id` every file's is null; delete files never have one.
 */
export class RowIdAssigner {
  #next: bigint | undefined;

  /**
   * `next` is the id for the first entry this assigner sees (the manifest's first_row_id at
   * entry 0); undefined when the manifest assigns none (see `appliesTo`).
   */
  constructor(next: bigint | undefined) {
    this.#next = next;
  }

  /** Whether the manifest assigns row ids at all. */
  static appliesTo(manifest: ManifestFile): boolean {
    return manifest.content === 0 && manifest.firstRowId !== undefined;
  }

  /** The id the next unassigned live entry would get. */
  get next(): bigint | undefined {
    return this.#next;
  }

  assign(status: EntryStatus, recordCount: bigint, explicit: bigint | undefined): bigint | undefined {
    if (this.#next === undefined) return undefined;
    if (status === ENTRY_STATUS_DELETED || explicit !== undefined) return explicit;
    const id = this.#next;
    this.#next = id + recordCount;
    return id;
  }
}
