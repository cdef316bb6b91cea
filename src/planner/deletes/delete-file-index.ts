import { fail } from '../../errors/index.js';
import {
  isUnpartitioned,
  type ContentFile,
  type ManifestEntry,
  type PartitionSpec,
  type Schema,
} from '../../iceberg/index.js';
import { canContainEqDeletesForFile } from './equality-stats.js';
import { partitionKey } from './partition-key.js';

/** MetadataColumns.DELETE_FILE_PATH: the `file_path` column of position delete files. */
export const DELETE_FILE_PATH_ID = 2147483546;

export interface DeleteIndexContext {
  readonly specsById: ReadonlyMap<number, PartitionSpec>;
  /** The table schema equality field ids are resolved in. */
  readonly schema: Schema;
}

/** Delete entries ordered by data sequence number, for "first entry with seq ≥ S" look-ups. */
class SeqSorted {
  readonly entries: ManifestEntry[] = [];
  private sorted = true;

  add(entry: ManifestEntry): void {
    const last = this.entries[this.entries.length - 1];
    if (last && last.dataSequenceNumber > entry.dataSequenceNumber) this.sorted = false;
    this.entries.push(entry);
  }

  /** Entries whose data sequence number is ≥ `min`, oldest first. */
  from(min: bigint): ManifestEntry[] {
    if (!this.sorted) {
      this.entries.sort(bySequence);
      this.sorted = true;
    }
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.dataSequenceNumber < min) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? this.entries : this.entries.slice(lo);
  }
}

function bySequence(a: ManifestEntry, b: ManifestEntry): number {
  if (a.dataSequenceNumber !== b.dataSequenceNumber) return a.dataSequenceNumber < b.dataSequenceNumber ? -1 : 1;
  return a.file.filePath < b.file.filePath ? -1 : a.file.filePath > b.file.filePath ? 1 : 0;
}

function getOrAdd(map: Map<string, SeqSorted>, key: string): SeqSorted {
  let group = map.get(key);
  if (!group) map.set(key, (group = new SeqSorted()));
  return group;
}

/** Spec "Scan Planning": a DV is a position delete stored in a Puffin file (v3). */
export function isDeletionVector(file: ContentFile): boolean {
  return file.content === 1 && file.fileFormat.toUpperCase() === 'PUFFIN';
}

/**
 * The data file a position delete file is scoped to, if any (Java ContentFileUtil.referencedDataFile):
 * `referenced_data_file`, or equal lower and upper bounds of its `file_path` column.
 */
export function referencedDataFile(file: ContentFile): string | undefined {
  if (file.referencedDataFile !== undefined) return file.referencedDataFile;
  const lower = file.lowerBounds?.get(DELETE_FILE_PATH_ID);
  const upper = file.upperBounds?.get(DELETE_FILE_PATH_ID);
  if (!lower || !upper || !Buffer.from(lower).equals(Buffer.from(upper))) return undefined;
  return Buffer.from(lower).toString('utf8');
}

/** What applies to a data file when the snapshot has no delete file: one array for every task. */
const NO_DELETES: readonly ManifestEntry[] = Object.freeze([]);

/**
 * The live delete files of a snapshot, indexed for matching against data files (spec "Scan
 * Planning", delete file scope rules; Java DeleteFileIndex). Build once per snapshot; look-ups
 * are cheap and pure.
 */
export class DeleteFileIndex {
  private readonly globalEq = new SeqSorted();
  private readonly eqByPartition = new Map<string, SeqSorted>();
  private readonly posByPartition = new Map<string, SeqSorted>();
  private readonly posByPath = new Map<string, SeqSorted>();
  private readonly dvByPath = new Map<string, ManifestEntry>();
  private count = 0;

  private constructor(private readonly schema: Schema) {}

  /** Index live delete entries (status ≠ DELETED, inheritance applied). */
  static build(entries: Iterable<ManifestEntry>, ctx: DeleteIndexContext): DeleteFileIndex {
    const index = new DeleteFileIndex(ctx.schema);
    for (const entry of entries) index.add(entry, ctx.specsById);
    return index;
  }

  get size(): number {
    return this.count;
  }

  /** Field ids used by the indexed equality deletes (data files need their stats for pruning). */
  equalityFieldIds(): number[] {
    const ids = new Set<number>();
    const groups = [this.globalEq, ...this.eqByPartition.values()];
    for (const g of groups) for (const e of g.entries) for (const id of e.file.equalityIds ?? []) ids.add(id);
    return [...ids];
  }

  private add(entry: ManifestEntry, specsById: ReadonlyMap<number, PartitionSpec>): void {
    const file = entry.file;
    if (file.content === 0) return;
    const spec = specsById.get(file.specId);
    if (!spec) throw fail('INVALID_METADATA', `Delete file ${file.filePath} has unknown partition spec id ${file.specId}`);
    this.count++;
    if (file.content === 2) {
      // Equality deletes are global when their spec is unpartitioned (spec "Scan Planning").
      if (isUnpartitioned(spec)) this.globalEq.add(entry);
      else getOrAdd(this.eqByPartition, partitionKey(file.specId, file.partition)).add(entry);
      return;
    }
    const target = referencedDataFile(file);
    if (isDeletionVector(file)) {
      if (target === undefined) throw fail('INVALID_METADATA', `Deletion vector ${file.filePath} has no referenced_data_file`);
      const existing = this.dvByPath.get(target);
      if (existing && !sameBlob(existing.file, file))
        throw fail('INVALID_METADATA', `Can't index multiple deletion vectors for data file ${target}`);
      this.dvByPath.set(target, entry);
    } else if (target !== undefined) {
      getOrAdd(this.posByPath, target).add(entry);
    } else {
      getOrAdd(this.posByPartition, partitionKey(file.specId, file.partition)).add(entry);
    }
  }

  /**
   * The delete files that apply to a data file with data sequence number `dataSeq`, in Java's
   * order: global equality, partition equality, then the DV or the position deletes.
   * Position deletes and DVs apply when D ≥ S; equality deletes when D > S (spec "Scan Planning").
   */
  forDataFile(dataSeq: bigint, file: ContentFile): readonly ManifestEntry[] {
    if (this.count === 0) return NO_DELETES;
    const out: ManifestEntry[] = [];
    const key = partitionKey(file.specId, file.partition);
    for (const group of [this.globalEq, this.eqByPartition.get(key)]) {
      if (!group) continue;
      for (const del of group.from(dataSeq + 1n)) {
        if (canContainEqDeletesForFile(file, del.file, this.schema)) out.push(del);
      }
    }
    const dv = this.dvByPath.get(file.filePath);
    if (dv) {
      // Java DeleteFileIndex.findDV: a DV older than its data file, or in another partition, is corrupt
      if (dv.dataSequenceNumber < dataSeq)
        throw fail('INVALID_METADATA', `DV data sequence number (${dv.dataSequenceNumber}) must be greater than or equal to data file sequence number (${dataSeq})`);
      requireSamePartition(dv.file, key, file);
      // A DV replaces every position delete file for its data file.
      out.push(dv);
      return out;
    }
    const byPartition = this.posByPartition.get(key);
    if (byPartition) out.push(...byPartition.from(dataSeq));
    const byPath = this.posByPath.get(file.filePath)?.from(dataSeq) ?? [];
    for (const del of byPath) requireSamePartition(del.file, key, file);
    out.push(...byPath);
    return out;
  }
}

/** Java (apache/iceberg 7f879b11): DVs and file-scoped position deletes must share their data file's spec and partition. */
function requireSamePartition(del: ContentFile, dataKey: string, data: ContentFile): void {
  if (partitionKey(del.specId, del.partition) !== dataKey)
    throw fail('INVALID_METADATA', `Delete file ${del.filePath} is not in the partition of its data file ${data.filePath}`);
}

function sameBlob(a: ContentFile, b: ContentFile): boolean {
  return a.filePath === b.filePath && a.contentOffset === b.contentOffset;
}
