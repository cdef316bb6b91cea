/**
 * The partition fields of a spec grouped by source column (Java `PartitionSpec.getFieldsBySourceId`),
 * with each field's parsed transform and its source and result types, as the projections need
 * them.
 */
import {
  parseTransform,
  transformResultType,
  type IcebergType,
  type PartitionSpec,
  type Schema,
  type Transform,
} from '../../iceberg/index.js';
import { canTransform } from '../transforms/index.js';

export interface PartitionTarget {
  /** The partition field name: the name a projected predicate refers to. */
  readonly name: string;
  /** Position of the field in the partition tuple. */
  readonly position: number;
  /** The transform; `unknown` when it cannot be applied to the source column's type. */
  readonly transform: Transform;
  readonly sourceType: IcebergType;
  readonly resultType: IcebergType;
}

const cache = new WeakMap<PartitionSpec, WeakMap<Schema, ReadonlyMap<number, readonly PartitionTarget[]>>>();

/** Source field id → the partition fields computed from it, in spec order. */
export function partitionTargets(spec: PartitionSpec, schema: Schema): ReadonlyMap<number, readonly PartitionTarget[]> {
  let bySchema = cache.get(spec);
  if (bySchema === undefined) {
    bySchema = new WeakMap();
    cache.set(spec, bySchema);
  }
  let targets = bySchema.get(schema);
  if (targets === undefined) {
    targets = buildTargets(spec, schema);
    bySchema.set(schema, targets);
  }
  return targets;
}

function buildTargets(spec: PartitionSpec, schema: Schema): ReadonlyMap<number, readonly PartitionTarget[]> {
  const out = new Map<number, PartitionTarget[]>();
  spec.fields.forEach((field, position) => {
    const source = schema.findField(field.sourceId);
    if (source === undefined) return;
    const parsed = parseTransform(field.transform);
    // a transform that cannot take the column's type projects nothing, like Java's UnknownTransform
    const transform: Transform = canTransform(parsed, source.type) ? parsed : { kind: 'unknown', text: parsed.text };
    const target: PartitionTarget = {
      name: field.name,
      position,
      transform,
      sourceType: source.type,
      resultType: transformResultType(parsed, source.type),
    };
    const list = out.get(field.sourceId);
    if (list === undefined) out.set(field.sourceId, [target]);
    else list.push(target);
  });
  return out;
}
