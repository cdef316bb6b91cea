import type { Schema } from '../../iceberg/index.js';
import { fail } from '../../errors/index.js';
import { bind, termRef, type BoundExpression, type BoundPredicate } from '../expressions/index.js';
import type { Expression } from '../../iceberg/index.js';

/** Field ids a bound filter reads (their stats drive metrics pruning). */
export function filterFieldIds(filter: Expression, schema: Schema, caseSensitive: boolean): Set<number> {
  const ids = new Set<number>();
  const visit = (e: BoundExpression): void => {
    switch (e.kind) {
      case 'true':
      case 'false':
        return;
      case 'and':
      case 'or':
        visit(e.left);
        visit(e.right);
        return;
      case 'not':
        visit(e.child);
        return;
      default:
        ids.add(termRef((e as BoundPredicate).term).fieldId);
    }
  };
  visit(bind(filter, schema.asStruct(), caseSensitive));
  return ids;
}

/**
 * Field ids of column names (REST `select` / `stats-fields`: full dotted names). An unknown name
 * is a 400 naming it.
 */
export function columnIds(names: readonly string[], schema: Schema, caseSensitive: boolean, key: string): Set<number> {
  const ids = new Set<number>();
  for (const name of names) {
    const field = schema.findFieldByName(name, caseSensitive);
    if (!field) throw fail('INVALID_SCAN', `Invalid ${key}: no column '${name}' in schema ${schema.schemaId}`);
    ids.add(field.id);
  }
  return ids;
}
