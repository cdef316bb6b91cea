/**
 * Partition specs (spec "Partition Specs"; REST spec `PartitionSpec`), read as Java's
 * PartitionSpecParser does, including v1's bare field list and v3's multi-argument `source-ids`.
 */
import type { IcebergType, NestedField, StructType } from './types.js';
import type { Schema } from './schema.js';
import { parseTransform, transformResultType } from './transform.js';
import {
  asArray,
  asObject,
  at,
  intList,
  invalid,
  optInt,
  reqInt,
  reqString,
  type JsonObject,
} from './json-fields.js';

export interface PartitionField {
  readonly sourceId: number;
  /** v3 multi-argument transforms; kept when the metadata has `source-ids`. */
  readonly sourceIds?: readonly number[];
  readonly fieldId: number;
  readonly name: string;
  readonly transform: string;
}

export interface PartitionSpec {
  readonly specId: number;
  readonly fields: readonly PartitionField[];
}

// spec "Partition Specs": partition field ids start at 1000
const PARTITION_DATA_ID_START = 1000;

/** A spec object `{ "spec-id": N, "fields": [...] }`. */
export function parsePartitionSpec(json: unknown, path = ''): PartitionSpec {
  const obj = asObject(json, path);
  const fieldsPath = at(path, 'fields');
  const fields = obj['fields'];
  if (fields === undefined || fields === null) throw invalid(fieldsPath, 'is missing');
  return { specId: reqInt(obj, 'spec-id', path), fields: parsePartitionFields(fields, fieldsPath) };
}

/**
 * A bare field list (v1 `partition-spec`, and every spec's `fields`). Java
 * PartitionSpecParser.buildFromJsonFields: field ids missing in old metadata are assigned in
 * order from 1000.
 */
export function parsePartitionFields(json: unknown, path = ''): PartitionField[] {
  let lastAssigned = PARTITION_DATA_ID_START - 1;
  return asArray(json, path).map((item, i) => {
    const p = at(path, i);
    const obj = asObject(item, p);
    const rawIds = obj['source-ids'];
    const sourceIds = rawIds === undefined || rawIds === null ? undefined : intList(rawIds, at(p, 'source-ids'));
    const explicitSource = optInt(obj, 'source-id', p);
    const sourceId = explicitSource ?? sourceIds?.[0];
    if (sourceId === undefined) throw invalid(at(p, 'source-id'), 'is missing');
    const fieldId = optInt(obj, 'field-id', p) ?? lastAssigned + 1;
    lastAssigned = Math.max(lastAssigned, fieldId);
    const field: PartitionField = {
      sourceId,
      ...(sourceIds !== undefined && { sourceIds }),
      fieldId,
      name: reqString(obj, 'name', p),
      transform: reqString(obj, 'transform', p),
    };
    return field;
  });
}

/** Java PartitionSpecParser.toJson: spec-id, fields. */
export function partitionSpecToJson(spec: PartitionSpec): unknown {
  return { 'spec-id': spec.specId, fields: partitionFieldsToJson(spec) };
}

/** The bare field list (also written as v1's `partition-spec`): name, transform, source-id(s), field-id. */
export function partitionFieldsToJson(spec: PartitionSpec): unknown[] {
  return spec.fields.map((f) => {
    const out: JsonObject = { name: f.name, transform: f.transform, 'source-id': f.sourceId };
    if (f.sourceIds !== undefined) out['source-ids'] = [...f.sourceIds];
    out['field-id'] = f.fieldId;
    return out;
  });
}

/** Java PartitionSpec.isUnpartitioned: no fields, or only `void` fields. */
export function isUnpartitioned(spec: PartitionSpec): boolean {
  return spec.fields.every((f) => parseTransform(f.transform).kind === 'void');
}

const UNKNOWN: IcebergType = { kind: 'unknown' };

/**
 * The partition tuple's struct type (Java PartitionSpec.partitionType): one optional field per
 * partition field, named by the partition field name, id = partition field id, typed by the
 * transform's result type. A source id missing from the schema yields type `unknown`.
 */
export function partitionType(spec: PartitionSpec, schema: Schema): StructType {
  const fields: NestedField[] = spec.fields.map((f) => {
    const source = schema.findField(f.sourceId);
    return {
      id: f.fieldId,
      name: f.name,
      required: false,
      type: transformResultType(parseTransform(f.transform), source?.type ?? UNKNOWN),
    };
  });
  return { kind: 'struct', fields };
}
