import { fail } from '../../errors/index.js';
import { bind, termRef, type BoundPredicate } from '../expressions/index.js';
import { visit, type Expr, type Expression, type Schema, type UnboundPredicate } from '../../iceberg/index.js';

/** Every predicate of a filter tree, bound or not, in order. */
function forEachPredicate<P>(e: Expr<P>, each: (p: P) => void): void {
  const nothing = () => undefined;
  visit<P, void>(e, { alwaysTrue: nothing, alwaysFalse: nothing, not: nothing, and: nothing, or: nothing, predicate: each });
}

/** Field ids a bound filter reads (their stats drive metrics pruning). */
export function filterFieldIds(filter: Expression, schema: Schema, caseSensitive: boolean): Set<number> {
  const ids = new Set<number>();
  forEachPredicate<BoundPredicate>(bind(filter, schema.asStruct(), caseSensitive), (p) => ids.add(termRef(p.term).fieldId));
  return ids;
}

/**
 * Iceberg's metadata columns (Java `MetadataColumns`): Spark names them in `select` for
 * `SELECT _file` and for the scans of row-level DELETE/UPDATE/MERGE (`_file`, `_pos`, `_spec_id`,
 * `_partition.<field>`). They are no schema column; the file tasks carry what they need.
 */
const METADATA_COLUMNS = new Set(['_file', '_pos', '_deleted', '_spec_id', '_partition', '_row_id', '_last_updated_sequence_number', '_change_type', '_change_ordinal', '_commit_snapshot_id']);

function isMetadataColumn(name: string): boolean {
  const lower = name.toLowerCase();
  return METADATA_COLUMNS.has(lower) || lower.startsWith('_partition.');
}

/**
 * Field ids of column names (REST `select` / `stats-fields`: full dotted names). An unknown name
 * is a 400 naming it; in `select`, a metadata column that is not also a schema column adds none.
 */
export function columnIds(names: readonly string[], schema: Schema, caseSensitive: boolean, key: 'select' | 'stats-fields'): Set<number> {
  const ids = new Set<number>();
  for (const name of names) {
    const field = schema.findFieldByName(name, caseSensitive);
    if (!field && key === 'select' && isMetadataColumn(name)) continue;
    if (!field) throw fail('INVALID_SCAN', `Invalid ${key}: no column '${name}' in schema ${schema.schemaId}`);
    ids.add(field.id);
  }
  return ids;
}

/** Column names an unbound filter references (transforms name their source column). */
export function filterColumnNames(filter: Expression): string[] {
  const names: string[] = [];
  forEachPredicate<UnboundPredicate>(filter, (p) => names.push(p.term.kind === 'ref' ? p.term.name : p.term.ref.name));
  return names;
}

/** Whether every column a scan names (select, stats-fields, filter) is a column of `schema`. */
export function scanNamesResolve(
  scan: { readonly select?: readonly string[]; readonly statsFields?: readonly string[]; readonly filter: Expression; readonly caseSensitive: boolean },
  schema: Schema,
): boolean {
  const known = (name: string): boolean => schema.findFieldByName(name, scan.caseSensitive) !== undefined;
  return (
    (scan.select ?? []).every((n) => known(n) || isMetadataColumn(n)) &&
    (scan.statsFields ?? []).every(known) &&
    filterColumnNames(scan.filter).every(known)
  );
}
