/**
 * The bodies of the namespace and table mutations that are not commits (REST spec
 * CreateNamespaceRequest, UpdateNamespacePropertiesRequest, RegisterTableRequest,
 * RenameTableRequest), checked field by field: a bad one is a 400 naming the field.
 */
import { fail } from '../errors/index.js';
import type { Namespace, TableIdentifier } from '../iceberg/index.js';
import { checkNamespace, checkTableIdentifier } from './identifiers.js';

type Json = Record<string, unknown>;

function object(body: unknown, what: string): Json {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw fail('BAD_REQUEST', `Invalid ${what}: the body must be a JSON object`);
  return body as Json;
}

function stringList(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw fail('BAD_REQUEST', `Invalid ${field}: must be an array of strings`);
  return value as string[];
}

function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  const obj = object(value, field);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v !== 'string') throw fail('BAD_REQUEST', `Invalid ${field}.${k}: must be a string`);
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function identifier(value: unknown, field: string): TableIdentifier {
  const obj = object(value, field);
  const namespace = stringList(obj['namespace'], `${field}.namespace`);
  if (typeof obj['name'] !== 'string') throw fail('BAD_REQUEST', `Invalid ${field}.name: must be a string`);
  return checkTableIdentifier(namespace, obj['name']);
}

/** REST spec CreateNamespaceRequest. */
export function parseCreateNamespace(body: unknown): { namespace: Namespace; properties: Record<string, string> } {
  const obj = object(body, 'CreateNamespaceRequest');
  const namespace = checkNamespace(stringList(obj['namespace'], 'namespace'), false);
  return { namespace, properties: stringMap(obj['properties'], 'properties') };
}

/** REST spec UpdateNamespacePropertiesRequest; a key both removed and updated is a 422 (spec updateProperties). */
export function parseUpdateNamespace(body: unknown): { removals: string[]; updates: Record<string, string> } {
  const obj = object(body, 'UpdateNamespacePropertiesRequest');
  const removals = obj['removals'] === undefined || obj['removals'] === null ? [] : stringList(obj['removals'], 'removals');
  const updates = stringMap(obj['updates'], 'updates');
  const both = removals.filter((k) => Object.hasOwn(updates, k));
  if (both.length > 0) throw fail('UNPROCESSABLE', `Cannot both remove and update the properties ${JSON.stringify(both)}`);
  return { removals, updates };
}

/** REST spec RegisterTableRequest. */
export function parseRegisterTable(body: unknown): { name: string; metadataLocation: string; overwrite: boolean } {
  const obj = object(body, 'RegisterTableRequest');
  if (typeof obj['name'] !== 'string' || obj['name'] === '') throw fail('BAD_REQUEST', 'Invalid name: must be a non-empty string');
  if (typeof obj['metadata-location'] !== 'string' || obj['metadata-location'] === '') throw fail('BAD_REQUEST', 'Invalid metadata-location: must be a non-empty string');
  const overwrite = obj['overwrite'];
  if (overwrite !== undefined && overwrite !== null && typeof overwrite !== 'boolean') throw fail('BAD_REQUEST', 'Invalid overwrite: must be a boolean');
  return { name: obj['name'], metadataLocation: obj['metadata-location'], overwrite: overwrite === true };
}

/** REST spec RenameTableRequest. */
export function parseRename(body: unknown): { source: TableIdentifier; destination: TableIdentifier } {
  const obj = object(body, 'RenameTableRequest');
  return { source: identifier(obj['source'], 'source'), destination: identifier(obj['destination'], 'destination') };
}

/** REST spec dropTable `purgeRequested`: a boolean, default false. */
export function parsePurge(raw: string | undefined): boolean {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw fail('BAD_REQUEST', 'Invalid purgeRequested: must be true or false');
}
