/**
 * A view commit (REST spec `CommitViewRequest`, which Java reads as an UpdateTableRequest):
 * optional identifier, requirements and updates; and its application as Java's
 * CatalogHandlers.commit for a view does it: requirements first, then the updates in order.
 */
import type { TableIdentifier } from '../../iceberg/index.js';
import { at, member, reqString, requestArray, requestObject, stringList } from './request-fields.js';
import { checkViewRequirements, parseViewRequirement, type ViewRequirement } from './view-requirements.js';
import { parseViewUpdate, type ViewUpdate } from './view-updates.js';
import { applyViewUpdates, type StoredView, type ViewBuildResult, type ViewClock } from './view-builder.js';

export interface ViewChange {
  /** The view, when the body names it; the request path names it anyway. */
  readonly identifier?: TableIdentifier;
  readonly requirements: readonly ViewRequirement[];
  readonly updates: readonly ViewUpdate[];
}

/** Java UpdateTableRequestParser.fromJson: every member may be absent or null. */
export function parseViewChange(body: unknown): ViewChange {
  const obj = requestObject(body, '');
  const identifier = member(obj, 'identifier');
  const requirements = (requestArray(obj, 'requirements', '') ?? []).map((r, i) => parseViewRequirement(r, at('requirements', i)));
  const updates = (requestArray(obj, 'updates', '') ?? []).map((u, i) => parseViewUpdate(u, at('updates', i)));
  return {
    ...(identifier !== undefined && { identifier: parseIdentifier(identifier, 'identifier') }),
    requirements,
    updates,
  };
}

// Java TableIdentifierParser.fromJson: the namespace may be absent (the empty namespace)
function parseIdentifier(json: unknown, path: string): TableIdentifier {
  const obj = requestObject(json, path);
  const namespace = member(obj, 'namespace');
  const name = reqString(obj, 'name', path);
  return { namespace: namespace === undefined ? [] : stringList(namespace, at(path, 'namespace')), name };
}

/**
 * Java CatalogHandlers.commit for a view: COMMIT_FAILED when a requirement does not hold, then
 * the updates applied to the base; `changed` false means there is nothing to write.
 */
export function commitViewChange(base: StoredView, change: ViewChange, clock: ViewClock): ViewBuildResult {
  checkViewRequirements(base.metadata, change.requirements);
  return applyViewUpdates(base, change.updates, clock);
}
