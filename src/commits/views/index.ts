/**
 * Iceberg views, pure semantics: what a CreateViewRequest and a CommitViewRequest mean, and the
 * next view metadata by the rules of Java's ViewMetadata.Builder. Free of files, SQL and HTTP.
 */
export { parseCreateViewRequest, newViewMetadata, type CreateViewRequest, type NewViewOptions } from './create-view.js';
export { parseViewChange, commitViewChange, type ViewChange } from './view-change.js';
export { applyViewUpdates, ViewMetadataBuilder, type StoredView, type ViewBuildResult, type ViewClock } from './view-builder.js';
export { parseViewUpdate, type ViewUpdate } from './view-updates.js';
export { checkViewRequirements, parseViewRequirement, type AssertViewUuid, type ViewRequirement } from './view-requirements.js';
export { REPLACE_DROP_DIALECT_ALLOWED, VERSION_HISTORY_SIZE, VERSION_HISTORY_SIZE_DEFAULT } from './view-history.js';
