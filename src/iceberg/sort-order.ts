/**
 * Sort orders (spec "Sort Orders"; REST spec `SortOrder`), read as Java's SortOrderParser does:
 * direction and null order are case-insensitive; order id 0 is the unsorted order.
 */
import { asArray, asObject, at, intList, invalid, optInt, reqInt, reqString, type JsonObject } from './json-fields.js';

export type SortDirection = 'asc' | 'desc';
export type NullOrder = 'nulls-first' | 'nulls-last';

export interface SortField {
  readonly transform: string;
  readonly sourceId: number;
  readonly sourceIds?: readonly number[];
  readonly direction: SortDirection;
  readonly nullOrder: NullOrder;
}

export interface SortOrder {
  readonly orderId: number;
  readonly fields: readonly SortField[];
}

/** Spec "Sort Orders": order id 0 is reserved for the unsorted order. */
export const UNSORTED_ORDER: SortOrder = Object.freeze({ orderId: 0, fields: Object.freeze([]) });

export function parseSortOrder(json: unknown, path = ''): SortOrder {
  const obj = asObject(json, path);
  const fieldsPath = at(path, 'fields');
  const fields = asArray(obj['fields'] ?? [], fieldsPath).map((f, i) => parseSortField(f, at(fieldsPath, i)));
  return { orderId: reqInt(obj, 'order-id', path), fields };
}

function parseSortField(json: unknown, path: string): SortField {
  const obj = asObject(json, path);
  const rawIds = obj['source-ids'];
  const sourceIds = rawIds === undefined || rawIds === null ? undefined : intList(rawIds, at(path, 'source-ids'));
  const sourceId = optInt(obj, 'source-id', path) ?? sourceIds?.[0];
  if (sourceId === undefined) throw invalid(at(path, 'source-id'), 'is missing');
  const direction = reqString(obj, 'direction', path).toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') {
    throw invalid(at(path, 'direction'), `must be "asc" or "desc", got ${JSON.stringify(direction)}`);
  }
  const nullOrder = reqString(obj, 'null-order', path).toLowerCase();
  if (nullOrder !== 'nulls-first' && nullOrder !== 'nulls-last') {
    throw invalid(at(path, 'null-order'), `must be "nulls-first" or "nulls-last", got ${JSON.stringify(nullOrder)}`);
  }
  return {
    transform: reqString(obj, 'transform', path),
    sourceId,
    ...(sourceIds !== undefined && { sourceIds }),
    direction,
    nullOrder,
  };
}

/** Java SortOrderParser.toJson: order-id, fields [transform, source-id(s), direction, null-order]. */
export function sortOrderToJson(order: SortOrder): unknown {
  return {
    'order-id': order.orderId,
    fields: order.fields.map((f) => {
      const out: JsonObject = { transform: f.transform, 'source-id': f.sourceId };
      if (f.sourceIds !== undefined) out['source-ids'] = [...f.sourceIds];
      out['direction'] = f.direction;
      out['null-order'] = f.nullOrder;
      return out;
    }),
  };
}
