/**
 * When two view versions or two schemas are "the same" for Java's ViewMetadata.Builder, which
 * reuses the id of an existing one instead of adding a copy; and the SQL dialects of a version.
 */
import { schemaToJson, type Schema, type ViewRepresentation, type ViewVersion } from '../../iceberg/index.js';
import { stringifyJson } from '../../json/index.js';

/** Java Builder.sameViewVersion: all but version id, timestamp and operation. */
export function sameViewVersion(one: ViewVersion, two: ViewVersion): boolean {
  return (
    one.schemaId === two.schemaId &&
    one.defaultCatalog === two.defaultCatalog &&
    sameList(one.defaultNamespace, two.defaultNamespace) &&
    sameMap(one.summary, two.summary) &&
    one.representations.length === two.representations.length &&
    one.representations.every((r, i) => sameRepresentation(r, two.representations[i]!))
  );
}

function sameRepresentation(a: ViewRepresentation, b: ViewRepresentation): boolean {
  if (a.kind === 'sql' || b.kind === 'sql') {
    return a.kind === 'sql' && b.kind === 'sql' && a.sql === b.sql && a.dialect === b.dialect;
  }
  return stringifyJson(a.json) === stringifyJson(b.json);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameMap(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** Java Schema.sameSchema: equal structs (ids, names, types, docs, defaults) and the same identifier field ids, as a set. */
export function sameSchema(one: Schema, two: Schema): boolean {
  const ids = (s: Schema): string => [...new Set(s.identifierFieldIds)].sort((x, y) => x - y).join(',');
  return ids(one) === ids(two) && stringifyJson(fieldsJson(one)) === stringifyJson(fieldsJson(two));
}

function fieldsJson(schema: Schema): unknown {
  return (schemaToJson(schema) as { fields: unknown }).fields;
}

/** Java Builder.sqlDialectsFor: the lower-cased dialects of the SQL representations. */
export function sqlDialects(version: ViewVersion): Set<string> {
  const dialects = new Set<string>();
  for (const r of version.representations) if (r.kind === 'sql') dialects.add(r.dialect.toLowerCase());
  return dialects;
}
