/**
 * File scan tasks as REST `ScanTasks` JSON (REST spec `FileScanTask`, `ScanTasks`; Java
 * TableScanResponseParser): every delete file referenced in this response once (keyed by location
 * and content offset, so each DV of a shared Puffin file is its own entry), tasks pointing at them
 * by index, and a legacy-form residual on every task (Java clients NPE without one, §10.5).
 */
import { contentFileJsonLength, contentFileToJson, type Expression, expressionToJson, partitionType, type ContentFile, type PartitionSpec, type Schema, type StructType } from '../../iceberg/index.js';
import { jsonLength } from '../../json/index.js';
import { DELETE_FILE_PATH_ID } from '../deletes/index.js';
import type { FileTask } from './file-task.js';

export interface ScanTasksJson {
  'delete-files'?: Record<string, unknown>[];
  'file-scan-tasks': Record<string, unknown>[];
}

export interface ScanTasksJsonContext {
  readonly specsById: ReadonlyMap<number, PartitionSpec>;
  readonly schema: Schema;
  /** Field ids whose stats data files carry (`stats-fields`). */
  readonly statsFieldIds: ReadonlySet<number>;
}

const NO_STATS: ReadonlySet<number> = new Set();
/** What write([task]) adds around a delete-free task's data file and residual. */
const TASK_ENVELOPE = jsonLength({ 'file-scan-tasks': [{ 'data-file': 0, 'residual-filter': 0 }] }) - 2;
const POSITION_DELETE_STATS: ReadonlySet<number> = new Set([DELETE_FILE_PATH_ID]);

export function scanTasksToJson(tasks: readonly FileTask[], ctx: ScanTasksJsonContext): ScanTasksJson {
  return new ScanTasksWriter(ctx).write(tasks);
}

/** Writes tasks of one plan, resolving each spec's partition type once for all of them. */
export class ScanTasksWriter {
  private readonly partitionTypes = new Map<number, StructType>();

  constructor(private readonly ctx: ScanTasksJsonContext) {}

  private typeFor(specId: number): StructType {
    let t = this.partitionTypes.get(specId);
    if (!t) {
      const spec = this.ctx.specsById.get(specId);
      t = spec ? partitionType(spec, this.ctx.schema) : { kind: 'struct', fields: [] };
      this.partitionTypes.set(specId, t);
    }
    return t;
  }

  /** The last residual measured, and its length: consecutive tasks mostly share one. */
  private residual: Expression | undefined;
  private residualLength = 0;

  /**
   * Bytes one task adds to a response, its delete files included (an upper bound for shared
   * ones): `jsonLength(this.write([task])) + 2`. A task without deletes (most of them) is
   * measured without writing its JSON (contentFileJsonLength), once per task of every plan.
   */
  taskBytes(task: FileTask): number {
    if (task.deletes.length > 0) return jsonLength(this.write([task])) + 2;
    if (task.residual !== this.residual) {
      this.residualLength = jsonLength(expressionToJson(task.residual));
      this.residual = task.residual;
    }
    const file = task.data.file;
    const dataFile = contentFileJsonLength(file, { partitionType: this.typeFor(file.specId), statsFieldIds: this.ctx.statsFieldIds });
    // {"file-scan-tasks":[{"data-file":…,"residual-filter":…}]}, and the comma before the next task
    return TASK_ENVELOPE + dataFile + this.residualLength + 2;
  }

  write(tasks: readonly FileTask[]): ScanTasksJson {
    const ctx = this.ctx;
    const typeFor = (specId: number) => this.typeFor(specId);
    const deleteFiles: Record<string, unknown>[] = [];
    const deleteIndex = new Map<string, number>();
    const fileScanTasks = tasks.map((task) => {
      const refs: number[] = [];
      for (const del of task.deletes) {
        const key = `${del.file.filePath}\u0000${del.file.contentOffset ?? ''}`;
        let i = deleteIndex.get(key);
        if (i === undefined) {
          i = deleteFiles.length;
          deleteIndex.set(key, i);
          deleteFiles.push(contentFileToJson(del.file, { partitionType: typeFor(del.file.specId), statsFieldIds: deleteStats(del.file) }));
        }
        refs.push(i);
      }
      const out: Record<string, unknown> = {
        'data-file': contentFileToJson(task.data.file, {
          partitionType: typeFor(task.data.file.specId),
          statsFieldIds: ctx.statsFieldIds,
        }),
      };
      if (refs.length > 0) out['delete-file-references'] = refs;
      out['residual-filter'] = expressionToJson(task.residual);
      return out;
    });
    // Spec ScanTasks: delete-files only alongside non-empty file-scan-tasks in the same response.
    return deleteFiles.length > 0
      ? { 'delete-files': deleteFiles, 'file-scan-tasks': fileScanTasks }
      : { 'file-scan-tasks': fileScanTasks };
  }
}

/** Java DeleteFileIndex keeps stats only for `file_path` (position deletes) or the equality ids. */
function deleteStats(file: ContentFile): ReadonlySet<number> {
  if (file.content === 1) return file.fileFormat.toUpperCase() === 'PUFFIN' ? NO_STATS : POSITION_DELETE_STATS;
  return new Set(file.equalityIds ?? []);
}
