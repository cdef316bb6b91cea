/**
 * Content files as REST scan-planning JSON (REST spec `DataFile`, `PositionDeleteFile`,
 * `EqualityDeleteFile`; Java ContentFileParser): kebab-case content, lower-case format, the
 * partition as an array of JSON single values of the partition result types, counts as
 * `{keys, values}`, bounds and key metadata as upper-case hex, and no key for an absent value.
 */
import type { ContentFile } from './content-file.js';
import { jsonIntegerLength, jsonLength, jsonStringLength } from '../json/index.js';
import { hexUpper } from './literals/hex.js';
import { toJsonSingleValue } from './literals/json-value.js';
import type { IcebergType, StructType } from './types.js';

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

/*
 * The written length of contentFileToJson's object without building it: sizing a plan asks it of
 * every task, and building each task's JSON to measure it was half of what a 100,000-file plan
 * allocated. Member by member as above (a test holds the two together over every real fixture
 * table); each member costs its name, a colon, its value and a comma or the closing brace.
 */
const nameLength = (name: string): number => jsonStringLength(name) + 1;
const SPEC_ID = nameLength('spec-id');
const CONTENT = nameLength('content');
const CONTENT_LENGTHS = CONTENT_NAMES.map(jsonStringLength);
const FILE_PATH = nameLength('file-path');
const FILE_FORMAT = nameLength('file-format');
const PARTITION = nameLength('partition');
const FILE_SIZE = nameLength('file-size-in-bytes');
const RECORD_COUNT = nameLength('record-count');
const COUNT_MAPS = [nameLength('column-sizes'), nameLength('value-counts'), nameLength('null-value-counts'), nameLength('nan-value-counts')] as const;
const BOUND_MAPS = [nameLength('lower-bounds'), nameLength('upper-bounds')] as const;
const KEYS = nameLength('keys');
const VALUES = nameLength('values');
const KEY_METADATA = nameLength('key-metadata');
const SPLIT_OFFSETS = nameLength('split-offsets');
const EQUALITY_IDS = nameLength('equality-ids');
const SORT_ORDER_ID = nameLength('sort-order-id');
const FIRST_ROW_ID = nameLength('first-row-id');
const REFERENCED_DATA_FILE = nameLength('referenced-data-file');
const CONTENT_OFFSET = nameLength('content-offset');
const CONTENT_SIZE = nameLength('content-size-in-bytes');

/** Lower-cased format names by stored name (a handful in any table; bounded all the same). */
const formatLengths = new Map<string, number>();

function formatLength(format: string): number {
  let n = formatLengths.get(format);
  if (n === undefined) {
    n = jsonStringLength(format.toLowerCase());
    if (formatLengths.size < 64) formatLengths.set(format, n);
  }
  return n;
}

/** `jsonLength(contentFileToJson(file, options))`, without building the object. */
export function contentFileJsonLength(file: ContentFile, options: ContentFileJsonOptions): number {
  const content = CONTENT_LENGTHS[file.content];
  let n =
    1 +
    SPEC_ID + jsonIntegerLength(file.specId) +
    FILE_PATH + jsonStringLength(file.filePath) +
    FILE_FORMAT + formatLength(file.fileFormat) +
    PARTITION + partitionJsonLength(file, options.partitionType) +
    FILE_SIZE + jsonIntegerLength(file.fileSizeInBytes) +
    RECORD_COUNT + jsonIntegerLength(file.recordCount);
  let members = 6;
  // an out-of-range content has no name: the member is left out, as JSON leaves out undefined
  if (content !== undefined) {
    n += CONTENT + content;
    members++;
  }
  const ids = options.statsFieldIds;
  if (ids.size > 0) {
    const counts = [file.columnSizes, file.valueCounts, file.nullValueCounts, file.nanValueCounts];
    for (let i = 0; i < counts.length; i++) {
      const value = keyedLength(counts[i], ids, countLength);
      if (value > 0) (n += COUNT_MAPS[i]! + value), members++;
    }
    const bounds = [file.lowerBounds, file.upperBounds];
    for (let i = 0; i < bounds.length; i++) {
      const value = keyedLength(bounds[i], ids, boundLength);
      if (value > 0) (n += BOUND_MAPS[i]! + value), members++;
    }
  }
  if (file.keyMetadata) (n += KEY_METADATA + 2 * file.keyMetadata.length + 2), members++;
  if (file.splitOffsets) (n += SPLIT_OFFSETS + integersLength(file.splitOffsets)), members++;
  if (file.equalityIds) (n += EQUALITY_IDS + integersLength(file.equalityIds)), members++;
  if (file.sortOrderId !== undefined) (n += SORT_ORDER_ID + jsonIntegerLength(file.sortOrderId)), members++;
  if (file.content === 0 && file.firstRowId !== undefined) (n += FIRST_ROW_ID + jsonIntegerLength(file.firstRowId)), members++;
  if (file.content !== 0) {
    if (file.referencedDataFile !== undefined) (n += REFERENCED_DATA_FILE + jsonStringLength(file.referencedDataFile)), members++;
    if (file.contentOffset !== undefined) (n += CONTENT_OFFSET + jsonIntegerLength(file.contentOffset)), members++;
    if (file.contentSizeInBytes !== undefined) (n += CONTENT_SIZE + jsonIntegerLength(file.contentSizeInBytes)), members++;
  }
  return n + members;
}

/** The last value measured per partition field type, and its length: values repeat down a manifest. */
const lastPartitionValues = new WeakMap<IcebergType, { value: unknown; length: number }>();

function partitionJsonLength(file: ContentFile, type: StructType): number {
  const fields = type.fields;
  let n = fields.length > 0 ? fields.length + 1 : 2;
  for (let i = 0; i < fields.length; i++) {
    const value = file.partition[i];
    if (value === null || value === undefined) {
      n += 4;
      continue;
    }
    const fieldType = fields[i]!.type;
    const last = lastPartitionValues.get(fieldType);
    // Object.is: -0 is written "-0.0", 0 "0.0"
    if (last !== undefined && Object.is(last.value, value)) {
      n += last.length;
      continue;
    }
    const length = jsonLength(toJsonSingleValue(fieldType, value));
    if (last === undefined) lastPartitionValues.set(fieldType, { value, length });
    else (last.value = value), (last.length = length);
    n += length;
  }
  return n;
}

/** A JSON array of integers. */
function integersLength(values: readonly (number | bigint)[]): number {
  let n = values.length > 0 ? values.length + 1 : 2;
  for (const v of values) n += jsonIntegerLength(v);
  return n;
}

/** `{"keys":[…],"values":[…]}` of the kept ids, or 0 when none is kept (no member). */
function keyedLength<V>(map: ReadonlyMap<number, V> | undefined, ids: ReadonlySet<number>, valueLength: (v: V) => number): number {
  if (!map) return 0;
  let count = 0;
  let keys = 0;
  let values = 0;
  for (const [id, v] of map) {
    if (!ids.has(id)) continue;
    count++;
    keys += jsonIntegerLength(id);
    values += valueLength(v);
  }
  return count === 0 ? 0 : 1 + KEYS + count + 1 + keys + VALUES + count + 1 + values + 2;
}

/** A count as JSON; a bound as its upper-case hex string. */
const countLength = (v: bigint): number => jsonIntegerLength(v);
const boundLength = (v: Uint8Array): number => 2 * v.length + 2;
