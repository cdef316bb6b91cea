/**
 * Content files as REST scan-planning JSON (REST spec `DataFile`, `PositionDeleteFile`,
 * `EqualityDeleteFile`; Java ContentFileParser): kebab-case content, lower-case format, the
 * partition as an array of JSON single values of the partition result types, counts as
 * `{keys, values}`, bounds and key metadata as upper-case hex, and no key for an absent value.
 */
import type { ContentFile } from './content-file.js';
import { hexUpper } from './literals/hex.js';
import { toJsonSingleValue } from './literals/json-value.js';
import type { StructType } from './types.js';

const CONTENT_NAMES = ['data', 'position-deletes', 'equality-deletes'] as const;

export interface ContentFileJsonOptions {
  /** The partition type of the file's spec (`partitionType(spec, schema)`). */
  readonly partitionType: StructType;
  /**
   * Field ids whose column stats are written; none when empty (Java copies files without stats
   * unless `stats-fields` were requested).
   */
  readonly statsFieldIds: ReadonlySet<number>;
}

export function contentFileToJson(file: ContentFile, options: ContentFileJsonOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    'spec-id': file.specId,
    content: CONTENT_NAMES[file.content],
    'file-path': file.filePath,
    'file-format': file.fileFormat.toLowerCase(),
    partition: partitionJson(file, options.partitionType),
    'file-size-in-bytes': file.fileSizeInBytes,
    'record-count': file.recordCount,
  };
  const ids = options.statsFieldIds;
  if (ids.size > 0) {
    putCounts(out, 'column-sizes', file.columnSizes, ids);
    putCounts(out, 'value-counts', file.valueCounts, ids);
    putCounts(out, 'null-value-counts', file.nullValueCounts, ids);
    putCounts(out, 'nan-value-counts', file.nanValueCounts, ids);
    putBounds(out, 'lower-bounds', file.lowerBounds, ids);
    putBounds(out, 'upper-bounds', file.upperBounds, ids);
  }
  if (file.keyMetadata) out['key-metadata'] = hexUpper(file.keyMetadata);
  if (file.splitOffsets) out['split-offsets'] = [...file.splitOffsets];
  if (file.equalityIds) out['equality-ids'] = [...file.equalityIds];
  if (file.sortOrderId !== undefined) out['sort-order-id'] = file.sortOrderId;
  if (file.content === 0 && file.firstRowId !== undefined) out['first-row-id'] = file.firstRowId;
  if (file.content !== 0) {
    if (file.referencedDataFile !== undefined) out['referenced-data-file'] = file.referencedDataFile;
    if (file.contentOffset !== undefined) out['content-offset'] = file.contentOffset;
    if (file.contentSizeInBytes !== undefined) out['content-size-in-bytes'] = file.contentSizeInBytes;
  }
  return out;
}

function partitionJson(file: ContentFile, type: StructType): unknown[] {
  return type.fields.map((field, i) => {
    const value = file.partition[i];
    return value === null || value === undefined ? null : toJsonSingleValue(field.type, value);
  });
}

function putCounts(
  out: Record<string, unknown>,
  key: string,
  map: ReadonlyMap<number, bigint> | undefined,
  ids: ReadonlySet<number>,
): void {
  if (!map) return;
  const keys: number[] = [];
  const values: bigint[] = [];
  for (const [id, v] of map) {
    if (ids.has(id)) {
      keys.push(id);
      values.push(v);
    }
  }
  if (keys.length > 0) out[key] = { keys, values };
}

function putBounds(
  out: Record<string, unknown>,
  key: string,
  map: ReadonlyMap<number, Uint8Array> | undefined,
  ids: ReadonlySet<number>,
): void {
  if (!map) return;
  const keys: number[] = [];
  const values: string[] = [];
  for (const [id, v] of map) {
    if (ids.has(id)) {
      keys.push(id);
      values.push(hexUpper(v));
    }
  }
  if (keys.length > 0) out[key] = { keys, values };
}
