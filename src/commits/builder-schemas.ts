/**
 * Schemas, partition specs and sort orders in Java's TableMetadata.Builder: add (reusing the id
 * of an identical one, else the highest id + 1), set current/default (`-1` = the one added last
 * in this change), remove. Refusals: IllegalArgumentException → ILLEGAL_ARGUMENT,
 * ValidationException → VALIDATION_FAILED.
 */
import { fail } from '../errors/index.js';
import { Schema, UNSORTED_ORDER, type PartitionSpec, type SortOrder } from '../iceberg/index.js';
import type { MetadataBuilder } from './builder-state.js';
import { bindSortOrder, checkSortOrderCompatibility, sameOrder } from './order-rules.js';
import { checkSchemaCompatibility, sameSchema } from './schema-rules.js';
import { bindSpec, checkPartitionNames, checkSpecCompatibility, hasSequentialIds, specCompatibleWith, specLastAssignedFieldId } from './spec-rules.js';

// Java MetadataUpdate's "last added" marker and TableMetadata.INITIAL_SORT_ORDER_ID
const LAST_ADDED = -1;
const INITIAL_SORT_ORDER_ID = 1;

/** Java Builder.addSchema: the last column id becomes max(last column id, the schema's highest field id). */
export function addSchema(b: MetadataBuilder, schema: Schema): number {
  return addSchemaInternal(b, schema, Math.max(b.lastColumnId, schema.highestFieldId()));
}

/** Java Builder.addSchemaInternal (also setCurrentSchema(schema, lastColumnId) of a new table). */
export function addSchemaInternal(b: MetadataBuilder, schema: Schema, newLastColumnId: number): number {
  if (newLastColumnId < b.lastColumnId) {
    throw fail('ILLEGAL_ARGUMENT', `Invalid last column ID: ${newLastColumnId} < ${b.lastColumnId} (previous last column ID)`);
  }
  checkSchemaCompatibility(schema, b.formatVersion);
  const newSchemaId = reuseOrCreateNewSchemaId(b, schema);
  const found = b.schemaById(newSchemaId) !== undefined;
  if (found && newLastColumnId === b.lastColumnId) {
    // nothing changes; it stays "the last added" only if this change added it
    const isNew = b.lastAddedSchemaId !== undefined && b.changes.some((c) => c.kind === 'add-schema' && c.schemaId === newSchemaId);
    b.lastAddedSchemaId = isNew ? newSchemaId : undefined;
    return newSchemaId;
  }
  b.lastColumnId = newLastColumnId;
  if (!found) {
    b.schemas.push(newSchemaId === schema.schemaId ? schema : new Schema(schema.fields, newSchemaId, schema.identifierFieldIds));
  }
  b.record({ kind: 'add-schema', schemaId: newSchemaId });
  b.lastAddedSchemaId = newSchemaId;
  return newSchemaId;
}

function reuseOrCreateNewSchemaId(b: MetadataBuilder, schema: Schema): number {
  let newSchemaId = b.currentSchemaId;
  for (const existing of b.schemas) {
    if (sameSchema(existing, schema)) return existing.schemaId;
    if (existing.schemaId >= newSchemaId) newSchemaId = existing.schemaId + 1;
  }
  return newSchemaId;
}

export function setCurrentSchema(b: MetadataBuilder, schemaId: number): void {
  if (schemaId === LAST_ADDED) {
    if (b.lastAddedSchemaId === undefined) throw fail('VALIDATION_FAILED', 'Cannot set last added schema: no schema has been added');
    setCurrentSchema(b, b.lastAddedSchemaId);
    return;
  }
  if (b.currentSchemaId === schemaId) return;
  const schema = b.schemaById(schemaId);
  if (schema === undefined) throw fail('ILLEGAL_ARGUMENT', `Cannot set current schema to unknown schema: ${schemaId}`);
  // Java rebuilds every spec for the new schema (updateSpecSchema): the partition names are checked again
  for (const spec of b.specs) checkPartitionNames(spec.fields, schema);
  b.currentSchemaId = schemaId;
  b.other('set-current-schema');
}

/** Java Builder.removeSchemas: never the current one; any non-empty set counts as a change. */
export function removeSchemas(b: MetadataBuilder, schemaIds: readonly number[]): void {
  if (schemaIds.includes(b.currentSchemaId)) throw fail('ILLEGAL_ARGUMENT', 'Cannot remove the current schema');
  if (schemaIds.length === 0) return;
  b.schemas = b.schemas.filter((s) => !schemaIds.includes(s.schemaId));
  b.other('remove-schemas');
}

function requireCurrentSchema(b: MetadataBuilder, what: string): Schema {
  const schema = b.currentSchema();
  // Java binds to schemasById.get(currentSchemaId) and fails with a NullPointerException
  if (schema === undefined) throw fail('ILLEGAL_ARGUMENT', `Cannot add a ${what} before a schema is added`);
  return schema;
}

/** Java Builder.addPartitionSpec(UnboundPartitionSpec): bound to the current schema, then added. */
export function addSpec(b: MetadataBuilder, spec: PartitionSpec): number {
  return addSpecInternal(b, bindSpec(spec, requireCurrentSchema(b, 'partition spec')));
}

/** Java Builder.addPartitionSpecInternal: the spec keeps its field ids; its id is reused or the next free one. */
export function addSpecInternal(b: MetadataBuilder, spec: PartitionSpec): number {
  const newSpecId = reuseOrCreateNewSpecId(b, spec);
  if (b.specs.some((s) => s.specId === newSpecId)) {
    // Java compares the earlier added spec's id with lastAddedSpecId here (not the reused id)
    const lastAdded = b.lastAddedSpecId;
    const isNew = lastAdded !== undefined && b.changes.some((c) => c.kind === 'add-spec' && c.specId === lastAdded);
    b.lastAddedSpecId = isNew ? newSpecId : undefined;
    return newSpecId;
  }
  const schema = requireCurrentSchema(b, 'partition spec');
  checkSpecCompatibility(spec, schema);
  if (b.formatVersion <= 1 && !hasSequentialIds(spec)) {
    throw fail('VALIDATION_FAILED', `Spec does not use sequential IDs that are required in v1: ${describeSpec(spec)}`);
  }
  const newSpec: PartitionSpec = { specId: newSpecId, fields: spec.fields };
  b.lastAssignedPartitionId = Math.max(b.lastAssignedPartitionId, specLastAssignedFieldId(newSpec));
  b.specs.push(newSpec);
  b.record({ kind: 'add-spec', specId: newSpecId });
  b.lastAddedSpecId = newSpecId;
  return newSpecId;
}

function reuseOrCreateNewSpecId(b: MetadataBuilder, spec: PartitionSpec): number {
  let newSpecId = 0;
  for (const existing of b.specs) {
    if (specCompatibleWith(spec, existing)) return existing.specId;
    if (newSpecId <= existing.specId) newSpecId = existing.specId + 1;
  }
  return newSpecId;
}

function describeSpec(spec: PartitionSpec): string {
  return `[${spec.fields.map((f) => `${f.fieldId}: ${f.name}: ${f.transform}(${f.sourceId})`).join(', ')}]`;
}

export function setDefaultSpec(b: MetadataBuilder, specId: number): void {
  if (specId === LAST_ADDED) {
    if (b.lastAddedSpecId === undefined) throw fail('VALIDATION_FAILED', 'Cannot set last added spec: no spec has been added');
    setDefaultSpec(b, b.lastAddedSpecId);
    return;
  }
  if (b.defaultSpecId === specId) return;
  // Java does not look the id up here and fails later with a NullPointerException
  if (!b.specs.some((s) => s.specId === specId)) throw fail('ILLEGAL_ARGUMENT', `Cannot set default partition spec to unknown spec: ${specId}`);
  b.defaultSpecId = specId;
  b.other('set-default-spec');
}

/** Java Builder.removeSpecs: never the default one; any non-empty set counts as a change. */
export function removeSpecs(b: MetadataBuilder, specIds: readonly number[]): void {
  if (specIds.includes(b.defaultSpecId)) throw fail('ILLEGAL_ARGUMENT', 'Cannot remove the default partition spec');
  if (specIds.length === 0) return;
  b.specs = b.specs.filter((s) => !specIds.includes(s.specId));
  b.other('remove-partition-specs');
}

/** Java Builder.addSortOrder(UnboundSortOrder): bound to the current schema, then added. */
export function addSortOrder(b: MetadataBuilder, order: SortOrder): number {
  return addSortOrderInternal(b, bindSortOrder(order, requireCurrentSchema(b, 'sort order')));
}

/** Java Builder.addSortOrderInternal: the unsorted order is always id 0; others reuse or take the next id from 1. */
export function addSortOrderInternal(b: MetadataBuilder, order: SortOrder): number {
  const newOrderId = reuseOrCreateNewSortOrderId(b, order);
  if (b.sortOrders.some((o) => o.orderId === newOrderId)) {
    const lastAdded = b.lastAddedOrderId;
    const isNew = lastAdded !== undefined && b.changes.some((c) => c.kind === 'add-sort-order' && c.orderId === lastAdded);
    b.lastAddedOrderId = isNew ? newOrderId : undefined;
    return newOrderId;
  }
  checkSortOrderCompatibility(order, requireCurrentSchema(b, 'sort order'));
  const newOrder: SortOrder = order.fields.length === 0 ? UNSORTED_ORDER : { orderId: newOrderId, fields: order.fields };
  b.sortOrders.push(newOrder);
  b.record({ kind: 'add-sort-order', orderId: newOrderId });
  b.lastAddedOrderId = newOrderId;
  return newOrderId;
}

function reuseOrCreateNewSortOrderId(b: MetadataBuilder, order: SortOrder): number {
  if (order.fields.length === 0) return UNSORTED_ORDER.orderId;
  let newOrderId = INITIAL_SORT_ORDER_ID;
  for (const existing of b.sortOrders) {
    if (sameOrder(existing, order)) return existing.orderId;
    if (newOrderId <= existing.orderId) newOrderId = existing.orderId + 1;
  }
  return newOrderId;
}

export function setDefaultSortOrder(b: MetadataBuilder, orderId: number): void {
  if (orderId === LAST_ADDED) {
    if (b.lastAddedOrderId === undefined) {
      throw fail('VALIDATION_FAILED', 'Cannot set last added sort order: no sort order has been added');
    }
    setDefaultSortOrder(b, b.lastAddedOrderId);
    return;
  }
  if (b.defaultSortOrderId === orderId) return;
  if (!b.sortOrders.some((o) => o.orderId === orderId)) {
    throw fail('ILLEGAL_ARGUMENT', `Cannot set default sort order to unknown sort order: ${orderId}`);
  }
  b.defaultSortOrderId = orderId;
  b.other('set-default-sort-order');
}
