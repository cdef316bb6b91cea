/**
 * What a view commit requires of the view it changes (REST spec `ViewRequirement`; Java
 * UpdateRequirement.AssertViewUUID). A failed requirement is COMMIT_FAILED: the view changed
 * under the client, which may reload and retry.
 */
import { fail } from '../../errors/index.js';
import type { ViewMetadata } from '../../iceberg/index.js';
import { badRequest, at, reqString, requestObject } from './request-fields.js';

export interface AssertViewUuid {
  readonly type: 'assert-view-uuid';
  readonly uuid: string;
}

export type ViewRequirement = AssertViewUuid;

// Java UpdateRequirementParser reads these too; UpdateRequirement.validate(ViewMetadata) then refuses them
const TABLE_REQUIREMENTS: ReadonlySet<string> = new Set([
  'assert-create',
  'assert-table-uuid',
  'assert-ref-snapshot-id',
  'assert-last-assigned-field-id',
  'assert-current-schema-id',
  'assert-last-assigned-partition-id',
  'assert-default-spec-id',
  'assert-default-sort-order-id',
]);

/** Java UpdateRequirementParser.fromJson: `type` is read case-insensitively. */
export function parseViewRequirement(json: unknown, path: string): ViewRequirement {
  const obj = requestObject(json, path);
  const type = reqString(obj, 'type', path).toLowerCase();
  if (type === 'assert-view-uuid') return { type, uuid: reqString(obj, 'uuid', path) };
  // Java UpdateRequirement.validate(ViewMetadata): ValidationException "Cannot validate … against a view"
  if (TABLE_REQUIREMENTS.has(type)) throw fail('VALIDATION_FAILED', `Cannot validate ${type} against a view (${path})`);
  throw badRequest(at(path, 'type'), `is not a view requirement: ${JSON.stringify(type)}`);
}

/** Java AssertViewUUID.validate: the UUIDs match ignoring case, else CommitFailedException. */
export function checkViewRequirements(base: ViewMetadata, requirements: readonly ViewRequirement[]): void {
  for (const req of requirements) {
    if (req.uuid.toLowerCase() !== base.viewUuid.toLowerCase()) {
      throw fail('COMMIT_FAILED', `Requirement failed: view UUID does not match: expected ${base.viewUuid} != ${req.uuid}`);
    }
  }
}
