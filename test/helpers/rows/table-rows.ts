/**
 * Reads a table's data and delete files for row-level checks: data rows by field id (identity
 * partition values filled in from the partition tuple when the file lacks the column, spec
 * "Column Projection"), position-delete rows, equality-delete rows and deletion vectors. Every
 * file is read once per TableRows instance.
 */
import {
  Schema,
  currentSchema,
  type ContentFile,
  type NestedField,
  type PrimitiveValue,
  type TableMetadata,
} from '../../../src/iceberg/index.js';
import type { FileIO } from '../../../src/storage/index.js';
import { decodeDeletionVector } from './deletion-vector.js';
import { fieldsById, nameMapping, type ResolveContext } from './field-resolver.js';
import { readParquetRows, type Row } from './parquet-rows.js';

/** Reserved field ids of position delete files (spec "Position Delete Files"). */
export const FILE_PATH_ID = 2147483546;
export const POS_ID = 2147483545;

export interface PositionDelete {
  readonly path: string;
  readonly pos: bigint;
}

/** What a table needs to have its files read: its metadata and a FileIO resolving recorded paths. */
export interface ReadableTable {
  readonly metadata: TableMetadata;
  readonly io: FileIO;
}

const POSITION_FIELDS: NestedField[] = [
  { id: FILE_PATH_ID, name: 'file_path', required: true, type: { kind: 'string' } },
  { id: POS_ID, name: 'pos', required: true, type: { kind: 'long' } },
];
const POSITION_CONTEXT: ResolveContext = {
  fields: new Map(POSITION_FIELDS.map((f) => [f.id, f])),
  mapping: undefined,
  schema: new Schema(POSITION_FIELDS),
};

export class TableRows {
  readonly ctx: ResolveContext;
  readonly #cache = new Map<string, Promise<unknown>>();

  constructor(readonly table: ReadableTable) {
    this.ctx = { fields: fieldsById(table.metadata), mapping: nameMapping(table.metadata), schema: currentSchema(table.metadata) };
  }

  #once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let p = this.#cache.get(key) as Promise<T> | undefined;
    if (!p) this.#cache.set(key, (p = read()));
    return p;
  }

  async #bytes(file: ContentFile): Promise<Buffer> {
    if (file.fileFormat.toUpperCase() !== 'PARQUET' && file.fileFormat.toUpperCase() !== 'PUFFIN')
      throw new Error(`${file.filePath}: ${file.fileFormat} files cannot be read by the test row reader`);
    return this.table.io.readFile(file.filePath);
  }

  /** The rows of a data file in file order (row position = index). */
  dataRows(file: ContentFile): Promise<readonly Row[]> {
    return this.#once(`data:${file.filePath}`, async () => {
      const { rows, columns } = await readParquetRows(await this.#bytes(file), this.ctx);
      const spec = this.table.metadata.partitionSpecs.find((s) => s.specId === file.specId);
      const present = new Set(columns.map((c) => c.fieldId));
      const fill: Array<[number, PrimitiveValue | null]> = [];
      spec?.fields.forEach((f, i) => {
        if (f.transform === 'identity' && !present.has(f.sourceId)) fill.push([f.sourceId, (file.partition[i] ?? null) as PrimitiveValue | null]);
      });
      if (fill.length === 0) return rows;
      return rows.map((r) => new Map([...r, ...fill]));
    });
  }

  /** The (file_path, pos) rows of a Parquet position delete file. */
  positionDeletes(file: ContentFile): Promise<readonly PositionDelete[]> {
    return this.#once(`pos:${file.filePath}`, async () => {
      const { rows } = await readParquetRows(await this.#bytes(file), POSITION_CONTEXT);
      return rows.map((r) => ({ path: r.get(FILE_PATH_ID) as string, pos: r.get(POS_ID) as bigint }));
    });
  }

  /** The deleted positions of a deletion vector (its blob inside the Puffin file). */
  deletionVector(file: ContentFile): Promise<readonly bigint[]> {
    const offset = Number(file.contentOffset);
    const length = Number(file.contentSizeInBytes);
    return this.#once(`dv:${file.filePath}@${offset}`, async () => {
      const blob = await this.table.io.readRange(file.filePath, offset, length);
      return decodeDeletionVector(blob);
    });
  }

  /** The rows of an equality delete file, restricted to its equality field ids. */
  equalityDeletes(file: ContentFile): Promise<readonly Row[]> {
    return this.#once(`eq:${file.filePath}`, async () => {
      const ids = new Set(file.equalityIds ?? []);
      const { rows, columns } = await readParquetRows(await this.#bytes(file), this.ctx, ids);
      const missing = [...ids].filter((id) => !columns.some((c) => c.fieldId === id));
      if (missing.length > 0) throw new Error(`${file.filePath}: equality field ids ${missing.join(', ')} are not in the file`);
      return rows;
    });
  }
}
