/**
 * REST spec CommitTableRequest and CommitTransactionRequest, read as Java's
 * UpdateTableRequestParser and CommitTransactionRequestParser (+ validate()): `requirements` and
 * `updates` may be absent (read as empty), a transaction has at least one change and each names
 * its table. Every refusal is BAD_REQUEST naming the field.
 */
import type { TableIdentifier } from '../iceberg/index.js';
import type { TableChange } from './api.js';
import { asArray, asObject, at, badRequest, reqArray, reqString, stringList, type JsonObject } from './request-json.js';
import { parseRequirement } from './requirements.js';
import { parseUpdate } from './update-parse.js';

/** `requireIdentifier`: a transaction's entries must name their table; a single commit's table is in the path. */
export function parseTableChange(body: unknown, path: string, requireIdentifier: boolean): TableChange {
  const obj = asObject(body, path);
  const identifier = present(obj, 'identifier') ? parseTableIdentifier(obj['identifier'], at(path, 'identifier')) : undefined;
  if (requireIdentifier && identifier === undefined) throw badRequest(at(path, 'identifier'), 'is missing: a table change in a transaction names its table');
  const requirements = present(obj, 'requirements')
    ? asArray(obj['requirements'], at(path, 'requirements')).map((r, i) => parseRequirement(r, at(at(path, 'requirements'), i)))
    : [];
  const updates = present(obj, 'updates')
    ? asArray(obj['updates'], at(path, 'updates')).map((u, i) => parseUpdate(u, at(at(path, 'updates'), i)))
    : [];
  return { ...(identifier !== undefined && { identifier }), requirements, updates };
}

/** CommitTransactionRequest `table-changes`: one or more changes, each with its identifier. */
export function parseTransaction(body: unknown): TableChange[] {
  const obj = asObject(body, '');
  const changes = reqArray(obj, 'table-changes', '');
  if (changes.length === 0) throw badRequest('table-changes', 'is empty: a transaction changes at least one table');
  return changes.map((c, i) => parseTableChange(c, at('table-changes', i), true));
}

/** REST spec TableIdentifier (Java TableIdentifierParser): `namespace` levels (absent: none) and `name`. */
export function parseTableIdentifier(json: unknown, path: string): TableIdentifier {
  const obj = asObject(json, path);
  const namespace = present(obj, 'namespace') ? stringList(obj['namespace'], at(path, 'namespace')) : [];
  return { namespace, name: reqString(obj, 'name', path) };
}

function present(obj: JsonObject, key: string): boolean {
  return Object.hasOwn(obj, key) && obj[key] !== null && obj[key] !== undefined;
}
