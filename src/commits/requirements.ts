/**
 * Commit requirements (REST spec `TableRequirement`), read as Java's UpdateRequirementParser and
 * checked as UpdateRequirement.validate does: a requirement that no longer holds is a
 * CommitFailedException (409 COMMIT_FAILED), which a client answers by refreshing and retrying.
 */
import { fail } from '../errors/index.js';
import type { TableMetadata } from '../iceberg/index.js';
import { asObject, at, badRequest, optLong, reqInt, reqString } from './request-json.js';

export type TableRequirement =
  | { readonly type: 'assert-create' }
  | { readonly type: 'assert-table-uuid'; readonly uuid: string }
  /** `snapshotId: null`: the ref must not exist yet. */
  | { readonly type: 'assert-ref-snapshot-id'; readonly ref: string; readonly snapshotId: bigint | null }
  | { readonly type: 'assert-last-assigned-field-id'; readonly lastAssignedFieldId: number }
  | { readonly type: 'assert-current-schema-id'; readonly currentSchemaId: number }
  | { readonly type: 'assert-last-assigned-partition-id'; readonly lastAssignedPartitionId: number }
  | { readonly type: 'assert-default-spec-id'; readonly defaultSpecId: number }
  | { readonly type: 'assert-default-sort-order-id'; readonly defaultSortOrderId: number };

/**
 * One requirement from its JSON form. Java lower-cases `type`; `assert-view-uuid` belongs to views
 * and, like an unknown type, is refused here as a bad request.
 */
export function parseRequirement(json: unknown, path: string): TableRequirement {
  const obj = asObject(json, path);
  const type = reqString(obj, 'type', path).toLowerCase();
  switch (type) {
    case 'assert-create':
      return { type };
    case 'assert-table-uuid':
      return { type, uuid: reqString(obj, 'uuid', path) };
    case 'assert-ref-snapshot-id':
      // Java JsonUtil.getLongOrNull: absent and null both mean "the ref must not exist"
      return { type, ref: reqString(obj, 'ref', path), snapshotId: optLong(obj, 'snapshot-id', path) ?? null };
    case 'assert-last-assigned-field-id':
      return { type, lastAssignedFieldId: reqInt(obj, 'last-assigned-field-id', path) };
    case 'assert-current-schema-id':
      return { type, currentSchemaId: reqInt(obj, 'current-schema-id', path) };
    case 'assert-last-assigned-partition-id':
      return { type, lastAssignedPartitionId: reqInt(obj, 'last-assigned-partition-id', path) };
    case 'assert-default-spec-id':
      return { type, defaultSpecId: reqInt(obj, 'default-spec-id', path) };
    case 'assert-default-sort-order-id':
      return { type, defaultSortOrderId: reqInt(obj, 'default-sort-order-id', path) };
    default:
      throw badRequest(at(path, 'type'), `is not a table requirement: ${JSON.stringify(type)}`);
  }
}

/**
 * Java CatalogHandlers.isCreate: a change that asserts the table does not exist creates it, and
 * may carry no other requirement (IllegalArgumentException "Invalid create requirements").
 */
export function isCreate(requirements: readonly TableRequirement[]): boolean {
  const create = requirements.some((r) => r.type === 'assert-create');
  if (create) {
    const others = requirements.filter((r) => r.type !== 'assert-create').map((r) => r.type);
    if (others.length > 0) throw fail('ILLEGAL_ARGUMENT', `Invalid create requirements: ${others.join(', ')}`);
  }
  return create;
}

/**
 * Java UpdateRequirement.validate, in order, against the table as it is now (`undefined`: it does
 * not exist). A create (see isCreate) fails COMMIT_FAILED when the table exists. Any other change
 * on a missing table is NO_SUCH_TABLE: Java's CatalogHandlers.updateTable loads the table first,
 * so a store should answer NO_SUCH_TABLE with the table's name before calling this; the check here
 * only keeps a caller that did not from applying updates to nothing.
 */
export function checkRequirements(base: TableMetadata | undefined, requirements: readonly TableRequirement[]): void {
  if (isCreate(requirements)) {
    if (base !== undefined) throw fail('COMMIT_FAILED', 'Requirement failed: table already exists');
    return;
  }
  if (base === undefined) throw fail('NO_SUCH_TABLE', 'Table does not exist');
  for (const requirement of requirements) checkRequirement(base, requirement);
}

function checkRequirement(base: TableMetadata, r: TableRequirement): void {
  switch (r.type) {
    case 'assert-create':
      throw fail('COMMIT_FAILED', 'Requirement failed: table already exists');
    case 'assert-table-uuid':
      // Java: uuid.equalsIgnoreCase(base.uuid()); a v1 table without a uuid never matches
      if (base.tableUuid === undefined || r.uuid.toLowerCase() !== base.tableUuid.toLowerCase()) {
        throw failed(`UUID does not match: expected ${base.tableUuid ?? null} != ${r.uuid}`);
      }
      return;
    case 'assert-ref-snapshot-id': {
      const ref = Object.hasOwn(base.refs, r.ref) ? base.refs[r.ref] : undefined;
      if (ref !== undefined) {
        if (r.snapshotId === null) throw failed(`${ref.type} ${r.ref} was created concurrently`);
        if (r.snapshotId !== ref.snapshotId) {
          throw failed(`${ref.type} ${r.ref} has changed: expected id ${r.snapshotId} != ${ref.snapshotId}`);
        }
      } else if (r.snapshotId !== null) {
        throw failed(`branch or tag ${r.ref} is missing, expected ${r.snapshotId}`);
      }
      return;
    }
    case 'assert-last-assigned-field-id':
      if (base.lastColumnId !== r.lastAssignedFieldId) {
        throw failed(`last assigned field id changed: expected id ${r.lastAssignedFieldId} != ${base.lastColumnId}`);
      }
      return;
    case 'assert-current-schema-id':
      if (base.currentSchemaId !== r.currentSchemaId) {
        throw failed(`current schema changed: expected id ${r.currentSchemaId} != ${base.currentSchemaId}`);
      }
      return;
    case 'assert-last-assigned-partition-id':
      if (base.lastPartitionId !== r.lastAssignedPartitionId) {
        throw failed(
          `last assigned partition id changed: expected id ${r.lastAssignedPartitionId} != ${base.lastPartitionId}`,
        );
      }
      return;
    case 'assert-default-spec-id':
      if (base.defaultSpecId !== r.defaultSpecId) {
        throw failed(`default partition spec changed: expected id ${r.defaultSpecId} != ${base.defaultSpecId}`);
      }
      return;
    case 'assert-default-sort-order-id':
      if (base.defaultSortOrderId !== r.defaultSortOrderId) {
        throw failed(`default sort order changed: expected id ${r.defaultSortOrderId} != ${base.defaultSortOrderId}`);
      }
      return;
  }
}

function failed(problem: string) {
  return fail('COMMIT_FAILED', `Requirement failed: ${problem}`);
}
