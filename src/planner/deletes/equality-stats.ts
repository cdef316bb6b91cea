import {
  compareValues,
  fromBinary,
  isPrimitive,
  type ContentFile,
  type NestedField,
  type Schema,
} from '../../iceberg/index.js';

/**
 * Whether an equality delete file can hold deletes for a data file, judged from both files'
 * column stats (Java DeleteFileIndex.canContainEqDeletesForFile). False only when no row of the
 * data file can equal any row the delete file removes; missing stats always mean "may match".
 */
export function canContainEqDeletesForFile(data: ContentFile, del: ContentFile, schema: Schema): boolean {
  const checkRanges = !!(data.lowerBounds && data.upperBounds && del.lowerBounds && del.upperBounds);
  for (const id of del.equalityIds ?? []) {
    const field = schema.findField(id);
    // A dropped column or a nested type keeps no usable stats: assume the deletes may apply.
    if (!field || !isPrimitive(field.type)) continue;
    if (containsNull(data.nullValueCounts, field) && containsNull(del.nullValueCounts, field)) continue;
    if (allNull(data.nullValueCounts, data.valueCounts, field) && allNonNull(del.nullValueCounts, field)) return false;
    if (allNull(del.nullValueCounts, del.valueCounts, field) && allNonNull(data.nullValueCounts, field)) return false;
    if (!checkRanges) continue;
    const dataLower = data.lowerBounds!.get(id);
    const dataUpper = data.upperBounds!.get(id);
    const delLower = del.lowerBounds!.get(id);
    const delUpper = del.upperBounds!.get(id);
    if (!dataLower || !dataUpper || !delLower || !delUpper) continue;
    if (!rangesOverlap(field, dataLower, dataUpper, delLower, delUpper)) return false;
  }
  return true;
}

function rangesOverlap(field: NestedField, dl: Uint8Array, du: Uint8Array, xl: Uint8Array, xu: Uint8Array): boolean {
  const t = field.type;
  try {
    const [dataLower, dataUpper, delLower, delUpper] = [dl, du, xl, xu].map((b) => fromBinary(t, b));
    return compareValues(t, delLower, dataUpper) <= 0 && compareValues(t, dataLower, delUpper) <= 0;
  } catch {
    // An undecodable bound (e.g. a bound written for another type) proves nothing.
    return true;
  }
}

function allNonNull(nullCounts: ReadonlyMap<number, bigint> | undefined, field: NestedField): boolean {
  if (field.required) return true;
  const n = nullCounts?.get(field.id);
  return n !== undefined && n <= 0n;
}

function allNull(
  nullCounts: ReadonlyMap<number, bigint> | undefined,
  valueCounts: ReadonlyMap<number, bigint> | undefined,
  field: NestedField,
): boolean {
  if (field.required) return false;
  const n = nullCounts?.get(field.id);
  const v = valueCounts?.get(field.id);
  return n !== undefined && v !== undefined && n === v;
}

function containsNull(nullCounts: ReadonlyMap<number, bigint> | undefined, field: NestedField): boolean {
  if (field.required) return false;
  const n = nullCounts?.get(field.id);
  return n === undefined || n > 0n;
}
