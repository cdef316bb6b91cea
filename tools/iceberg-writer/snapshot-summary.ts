/**
 * Snapshot summaries (spec "Snapshots": `operation` plus optional metrics; key names from Java
 * `SnapshotSummary`). Zero-valued change counters are omitted, totals are always written.
 */
import { DATA, EQUALITY_DELETES, type ContentFile } from './model.js';

export type Operation = 'append' | 'replace' | 'overwrite' | 'delete';

export interface SummaryInput {
  readonly operation: Operation;
  readonly added: readonly ContentFile[];
  readonly removed: readonly ContentFile[];
  /** Every live data and delete file after the commit. */
  readonly live: Iterable<ContentFile>;
  readonly changedPartitions: number;
}

export function snapshotSummary(s: SummaryInput): Record<string, string> {
  const addedData = s.added.filter((f) => f.content === DATA);
  const addedDeletes = s.added.filter((f) => f.content !== DATA);
  const removedData = s.removed.filter((f) => f.content === DATA);
  const isDv = (f: ContentFile): boolean => f.fileFormat === 'PUFFIN';
  const isPos = (f: ContentFile): boolean => f.content !== DATA && f.content !== EQUALITY_DELETES;
  const sum = (files: readonly ContentFile[], pick: (f: ContentFile) => bigint): bigint =>
    files.reduce((acc, f) => acc + pick(f), 0n);
  const rows = (f: ContentFile): bigint => f.recordCount;
  const size = (f: ContentFile): bigint => f.fileSizeInBytes;

  const out: Record<string, string> = { operation: s.operation };
  const put = (key: string, value: bigint | number): void => {
    if (BigInt(value) !== 0n) out[key] = String(value);
  };
  put('added-data-files', addedData.length);
  put('deleted-data-files', removedData.length);
  put('added-delete-files', addedDeletes.length);
  put('added-equality-delete-files', addedDeletes.filter((f) => f.content === EQUALITY_DELETES).length);
  put('added-position-delete-files', addedDeletes.filter((f) => isPos(f) && !isDv(f)).length);
  put('added-dvs', addedDeletes.filter(isDv).length);
  put('added-records', sum(addedData, rows));
  put('deleted-records', sum(removedData, rows));
  // DVs share one Puffin file: count its size once
  put('added-files-size', sum(uniqueByPath(s.added), size));
  put('removed-files-size', sum(uniqueByPath(s.removed), size));
  put('added-position-deletes', sum(addedDeletes.filter(isPos), rows));
  put('added-equality-deletes', sum(addedDeletes.filter((f) => f.content === EQUALITY_DELETES), rows));
  put('changed-partition-count', s.changedPartitions);

  const live = [...s.live];
  const liveData = live.filter((f) => f.content === DATA);
  const liveDeletes = live.filter((f) => f.content !== DATA);
  out['total-records'] = String(sum(liveData, rows));
  out['total-files-size'] = String(sum(uniqueByPath(live), size));
  out['total-data-files'] = String(liveData.length);
  out['total-delete-files'] = String(liveDeletes.length);
  out['total-position-deletes'] = String(sum(liveDeletes.filter(isPos), rows));
  out['total-equality-deletes'] = String(sum(liveDeletes.filter((f) => f.content === EQUALITY_DELETES), rows));
  return out;
}

function uniqueByPath(files: readonly ContentFile[]): ContentFile[] {
  const seen = new Map<string, ContentFile>();
  for (const f of files) if (!seen.has(f.filePath)) seen.set(f.filePath, f);
  return [...seen.values()];
}
