/**
 * Partition specs as Java's PartitionSpec.Builder builds them against a schema: binding a
 * client's spec (UnboundPartitionSpec.bind), the partition-name rules (checkAndAddPartitionName),
 * PartitionSpec.checkCompatibility, compatibleWith and hasSequentialIds.
 */
import { fail } from '../errors/index.js';
import type { PartitionField, PartitionSpec, Schema } from '../iceberg/index.js';
import { indexParents, isJavaPrimitive } from './schema-rules.js';
import { bindTransform, canTransform, transformText, typeText } from './transform-rules.js';

// spec "Partition Specs": partition field ids start at 1000 (Java PARTITION_DATA_ID_START)
export const PARTITION_DATA_ID_START = 1000;

/**
 * Java UnboundPartitionSpec.bind(schema): each transform bound to its source type
 * (IllegalArgumentException), the names checked, then the whole spec checked against the schema
 * (ValidationException). The spec keeps its id and its field ids.
 */
export function bindSpec(spec: PartitionSpec, schema: Schema): PartitionSpec {
  const fields: PartitionField[] = spec.fields.map((f) => ({
    sourceId: f.sourceId,
    fieldId: f.fieldId,
    name: f.name,
    transform: bindTransform(f.transform, schema.findField(f.sourceId)?.type).text,
  }));
  checkPartitionNames(fields, schema);
  const bound: PartitionSpec = { specId: spec.specId, fields };
  checkSpecCompatibility(bound, schema);
  return bound;
}

/**
 * Java PartitionSpec.Builder.checkAndAddPartitionName(name, sourceId), run for every field a
 * builder adds: names are non-empty and unique, and while the source column exists the name may
 * not be another column's (IllegalArgumentException).
 */
export function checkPartitionNames(fields: readonly PartitionField[], schema: Schema): void {
  const names = new Set<string>();
  for (const f of fields) {
    if (schema.findField(f.sourceId) !== undefined) {
      const named = schema.findFieldByName(f.name);
      if (named !== undefined && named.id !== f.sourceId) {
        throw fail('ILLEGAL_ARGUMENT', `Cannot create identity partition sourced from different field in schema: ${f.name}`);
      }
    }
    if (f.name === '') throw fail('ILLEGAL_ARGUMENT', `Cannot use empty partition name: ${f.name}`);
    if (names.has(f.name)) throw fail('ILLEGAL_ARGUMENT', `Cannot use partition name more than once: ${f.name}`);
    names.add(f.name);
  }
}

/**
 * Java PartitionSpec.checkCompatibility(spec, schema): every field but a void one needs a
 * primitive source column its transform accepts, nested only in structs (ValidationException).
 */
export function checkSpecCompatibility(spec: PartitionSpec, schema: Schema): void {
  const parents = indexParents(schema);
  for (const f of spec.fields) {
    const bound = bindTransform(transformText(f.transform), undefined);
    if (bound.name === 'void') continue;
    const source = schema.findField(f.sourceId)?.type;
    if (source === undefined) invalid(`Cannot find source column for partition field: ${describeField(f)}`);
    if (!isJavaPrimitive(source)) invalid(`Cannot partition by non-primitive source field: ${typeText(source)}`);
    if (!canTransform(bound.name, source)) invalid(`Invalid source type ${typeText(source)} for transform: ${bound.text}`);
    for (let p = parents.get(f.sourceId); p !== undefined; p = parents.get(p)) {
      const parentType = schema.findField(p)!.type;
      if (parentType.kind !== 'struct') invalid(`Invalid partition field parent: ${typeText(parentType)}`);
    }
  }
}

function invalid(message: string): never {
  throw fail('VALIDATION_FAILED', message);
}

function describeField(f: PartitionField): string {
  return `${f.fieldId}: ${f.name}: ${f.transform}(${f.sourceId})`;
}

/** Java PartitionSpec.compatibleWith: equal, or the same fields by source id, transform and name (field ids aside). */
export function specCompatibleWith(a: PartitionSpec, b: PartitionSpec): boolean {
  if (specEquals(a, b)) return true;
  if (a.fields.length !== b.fields.length) return false;
  return a.fields.every((f, i) => {
    const g = b.fields[i]!;
    return f.sourceId === g.sourceId && transformText(f.transform) === transformText(g.transform) && f.name === g.name;
  });
}

function specEquals(a: PartitionSpec, b: PartitionSpec): boolean {
  return (
    a.specId === b.specId &&
    a.fields.length === b.fields.length &&
    a.fields.every((f, i) => {
      const g = b.fields[i]!;
      return f.sourceId === g.sourceId && f.fieldId === g.fieldId && f.name === g.name && transformText(f.transform) === transformText(g.transform);
    })
  );
}

/** Java PartitionSpec.hasSequentialIds: field ids 1000, 1001, … in order (required in v1). */
export function hasSequentialIds(spec: PartitionSpec): boolean {
  return spec.fields.every((f, i) => f.fieldId === PARTITION_DATA_ID_START + i);
}

/** Java PartitionSpec.lastAssignedFieldId of a built spec: its highest field id, 999 when it has none. */
export function specLastAssignedFieldId(spec: PartitionSpec): number {
  return spec.fields.reduce((max, f) => Math.max(max, f.fieldId), PARTITION_DATA_ID_START - 1);
}
