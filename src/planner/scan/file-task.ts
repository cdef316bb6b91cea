import type { Expression, ManifestEntry } from '../../iceberg/index.js';

/** One planned file scan task: a live data file, the deletes that apply to it, its residual. */
export interface FileTask {
  readonly data: ManifestEntry;
  /** In Java's DeleteFileIndex order: global equality, partition equality, then DV or position deletes. */
  readonly deletes: readonly ManifestEntry[];
  /** What remains of the filter for this file's partition (unbound, legacy-serialisable). */
  readonly residual: Expression;
}

/**
 * The total order of tasks (issue contract): file location, start, length, data sequence number,
 * file sequence number, manifest path, position in manifest. Tasks cover whole files (start 0,
 * length = file size), so start and length reduce to the file size.
 */
export function compareTasks(a: FileTask, b: FileTask): number {
  const x = a.data;
  const y = b.data;
  return (
    cmpStr(x.file.filePath, y.file.filePath) ||
    cmpBig(x.file.fileSizeInBytes, y.file.fileSizeInBytes) ||
    cmpBig(x.dataSequenceNumber, y.dataSequenceNumber) ||
    cmpBig(x.fileSequenceNumber ?? -1n, y.fileSequenceNumber ?? -1n) ||
    cmpStr(x.manifestPath, y.manifestPath) ||
    x.position - y.position
  );
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
