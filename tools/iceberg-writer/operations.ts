/**
 * Row-level operations on a TableBuilder: append and overwrite rows (written as Parquet data
 * files, one or more per partition), position deletes (Parquet, v2), deletion vectors (Puffin,
 * v3) and equality deletes. Each call is one commit.
 */
import { writeDataFile, writeEqualityDeleteFile, writePositionDeleteFile } from './content-files.js';
import { DATA, type Row } from './model.js';
import { partitionKey, partitionOf } from './partition.js';
import { writeDeletionVectorFile } from './puffin.js';
import type { Snapshot } from '../../src/iceberg/index.js';
import type { PendingFile, TableBuilder } from './table-builder.js';
import type { TrackedFile } from './tracked.js';

export interface WriteOptions {
  /** Split each partition's rows into files of at most this many rows. */
  readonly rowsPerFile?: number;
  /** Rows per Parquet row group. */
  readonly rowGroupSize?: number;
  /** v1 only: list the snapshot's manifests inline instead of writing a manifest list. */
  readonly inlineManifests?: boolean;
}

export interface DataFileRef {
  readonly path: string;
  readonly rows: readonly Row[];
}

export interface CommitResult {
  readonly snapshot: Snapshot;
  /** Data files the commit added, in order. */
  readonly dataFiles: DataFileRef[];
}

/** Appends rows as new data files (operation `append`). */
export function appendRows(t: TableBuilder, rows: readonly Row[], opts: WriteOptions = {}): CommitResult {
  const files = writeRows(t, rows, opts);
  return { snapshot: t.commit({ operation: 'append', add: files, inlineManifests: opts.inlineManifests }), dataFiles: refs(files) };
}

/** Removes whole data files and adds rows in the same commit (operation `overwrite`). */
export function overwriteRows(t: TableBuilder, remove: readonly string[], rows: readonly Row[], opts: WriteOptions = {}): CommitResult {
  const files = writeRows(t, rows, opts);
  const snapshot = t.commit({ operation: 'overwrite', add: files, remove, inlineManifests: opts.inlineManifests });
  return { snapshot, dataFiles: refs(files) };
}

export interface PositionTarget {
  readonly dataFile: string;
  readonly positions: readonly number[];
}

/**
 * Position deletes as Parquet files (format v2; spec "Position Delete Files"). With `perFile`
 * each target data file gets its own delete file (which then records referenced_data_file),
 * otherwise one delete file per partition covers all targets in it.
 */
export function deletePositions(t: TableBuilder, targets: readonly PositionTarget[], opts: { perFile?: boolean } = {}): Snapshot {
  if (t.version !== 2) throw new Error('Parquet position deletes are written to format v2 tables (v3 uses deletion vectors)');
  const groups = new Map<string, PositionTarget[]>();
  for (const target of targets) {
    const data = liveData(t, target.dataFile);
    const key = opts.perFile ? target.dataFile : partitionKey(data.file.partition);
    groups.set(key, [...(groups.get(key) ?? []), target]);
  }
  const add: PendingFile[] = [...groups.values()].map((group) => {
    const partition = liveData(t, group[0]!.dataFile).file.partition;
    const { path, relative } = t.newDataPath(partition, '-deletes.parquet');
    const deletes = group.flatMap((g) => g.positions.map((pos) => ({ filePath: g.dataFile, pos: BigInt(pos) })));
    const written = writePositionDeleteFile(deletes, { filePath: path, specId: t.spec.specId, partition });
    t.writeFile(relative, written.bytes);
    return { file: written.file, positions: positionsByFile(group) };
  });
  return t.commit({ operation: 'delete', add });
}

/** Deletion vectors in one Puffin file, one blob per data file (format v3; spec "Deletion Vectors"). */
export function deleteWithVectors(t: TableBuilder, targets: readonly PositionTarget[]): Snapshot {
  if (t.version < 3) throw new Error('deletion vectors need format v3');
  for (const target of targets) {
    // spec "Deletion Vectors": at most one DV per data file; replacing one means merging, which this writer does not do
    const existing = t.liveFiles().some((f) => f.file.fileFormat === 'PUFFIN' && f.file.referencedDataFile === target.dataFile);
    if (existing) throw new Error(`${target.dataFile} already has a deletion vector`);
  }
  // one Puffin file may hold DVs of several partitions, so it sits outside the partition folders
  const { path, relative } = t.newDataPath(null, '-deletes.puffin');
  const puffin = writeDeletionVectorFile(
    path,
    targets.map((target) => ({
      referencedDataFile: target.dataFile,
      positions: target.positions.map(BigInt),
      specId: t.spec.specId,
      partition: liveData(t, target.dataFile).file.partition,
    })),
    'icefront iceberg-writer',
  );
  t.writeFile(relative, puffin.bytes);
  const add = puffin.files.map((file, i) => ({ file, positions: positionsByFile([targets[i]!]) }));
  return t.commit({ operation: 'delete', add });
}

/**
 * Equality deletes on `columns` (spec "Equality Delete Files"). Each delete row must also carry
 * the partition source columns, which place the delete file in its partition; only the equality
 * columns are written.
 */
export function deleteEquality(t: TableBuilder, columns: readonly string[], rows: readonly Row[]): Snapshot {
  if (t.version < 2) throw new Error('delete files need format v2 or later');
  const ids = columns.map((name) => {
    const field = t.schema.findFieldByName(name);
    if (!field) throw new Error(`no column ${name}`);
    return field.id;
  });
  const add: PendingFile[] = groupByPartition(t, rows).map(({ partition, rows: group }) => {
    const { path, relative } = t.newDataPath(partition, '-eq-deletes.parquet');
    const projected = group.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
    const written = writeEqualityDeleteFile(t.schema, ids, projected, { filePath: path, specId: t.spec.specId, partition });
    t.writeFile(relative, written.bytes);
    return { file: written.file, equality: { columns, rows: projected } };
  });
  return t.commit({ operation: 'delete', add });
}

function writeRows(t: TableBuilder, rows: readonly Row[], opts: WriteOptions): PendingFile[] {
  const per = opts.rowsPerFile ?? Number.MAX_SAFE_INTEGER;
  const out: PendingFile[] = [];
  for (const { partition, rows: group } of groupByPartition(t, rows)) {
    for (let i = 0; i < group.length; i += per) {
      const chunk = group.slice(i, i + per);
      const { path, relative } = t.newDataPath(partition, '.parquet');
      const written = writeDataFile(t.schema, chunk, { filePath: path, specId: t.spec.specId, partition }, {
        sortOrderId: t.sortOrderId,
        rowGroupSize: opts.rowGroupSize,
      });
      t.writeFile(relative, written.bytes);
      out.push({ file: written.file, rows: chunk });
    }
  }
  return out;
}

/** Rows grouped by partition tuple, groups in order of first appearance. */
function groupByPartition(t: TableBuilder, rows: readonly Row[]): Array<{ partition: unknown[]; rows: Row[] }> {
  const groups = new Map<string, { partition: unknown[]; rows: Row[] }>();
  for (const row of rows) {
    const partition = partitionOf(t.bound, row);
    const key = partitionKey(partition);
    const g = groups.get(key);
    if (g) g.rows.push(row);
    else groups.set(key, { partition, rows: [row] });
  }
  return [...groups.values()];
}

function liveData(t: TableBuilder, path: string): TrackedFile {
  const found = t.liveFiles().find((f) => f.file.filePath === path && f.file.content === DATA);
  if (!found) throw new Error(`${path} is not a live data file`);
  return found;
}

function positionsByFile(targets: readonly PositionTarget[]): Map<string, bigint[]> {
  return new Map(targets.map((g) => [g.dataFile, g.positions.map(BigInt)]));
}

function refs(files: readonly PendingFile[]): DataFileRef[] {
  return files.filter((f) => f.file.content === DATA).map((f) => ({ path: f.file.filePath, rows: f.rows ?? [] }));
}
