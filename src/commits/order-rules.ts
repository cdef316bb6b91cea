/**
 * Sort orders as Java's SortOrder.Builder builds them against a schema: binding a client's order
 * (UnboundSortOrder.bind), SortOrder.checkCompatibility and sameOrder.
 */
import { fail } from '../errors/index.js';
import type { Schema, SortField, SortOrder } from '../iceberg/index.js';
import { isJavaPrimitive } from './schema-rules.js';
import { bindTransform, canTransform, transformText, typeText } from './transform-rules.js';

/**
 * Java UnboundSortOrder.bind(schema): transforms bound to their source types
 * (IllegalArgumentException), order id 0 reserved for the unsorted order and required by it
 * (SortOrder.Builder.buildUnchecked), then checked against the schema (ValidationException).
 */
export function bindSortOrder(order: SortOrder, schema: Schema): SortOrder {
  const fields: SortField[] = order.fields.map((f) => ({
    transform: bindTransform(f.transform, schema.findField(f.sourceId)?.type).text,
    sourceId: f.sourceId,
    direction: f.direction,
    nullOrder: f.nullOrder,
  }));
  if (fields.length === 0 && order.orderId !== 0) throw fail('ILLEGAL_ARGUMENT', 'Unsorted order ID must be 0');
  if (fields.length > 0 && order.orderId === 0) throw fail('ILLEGAL_ARGUMENT', 'Sort order ID 0 is reserved for unsorted order');
  const bound: SortOrder = { orderId: order.orderId, fields };
  checkSortOrderCompatibility(bound, schema);
  return bound;
}

/** Java SortOrder.checkCompatibility: each field needs a primitive source column its transform accepts (ValidationException). */
export function checkSortOrderCompatibility(order: SortOrder, schema: Schema): void {
  for (const f of order.fields) {
    const source = schema.findField(f.sourceId)?.type;
    const described = `${f.transform}(${f.sourceId}) ${f.direction} ${f.nullOrder}`;
    if (source === undefined) throw fail('VALIDATION_FAILED', `Cannot find source column for sort field: ${described}`);
    if (!isJavaPrimitive(source)) throw fail('VALIDATION_FAILED', `Cannot sort by non-primitive source field: ${typeText(source)}`);
    const bound = bindTransform(transformText(f.transform), undefined);
    if (!canTransform(bound.name, source)) {
      throw fail('VALIDATION_FAILED', `Invalid source type ${typeText(source)} for transform: ${bound.text}`);
    }
  }
}

/** Java SortOrder.sameOrder: the same fields (transform text, source id, direction, null order), ids aside. */
export function sameOrder(a: SortOrder, b: SortOrder): boolean {
  return (
    a.fields.length === b.fields.length &&
    a.fields.every((f, i) => {
      const g = b.fields[i]!;
      return (
        transformText(f.transform) === transformText(g.transform) &&
        f.sourceId === g.sourceId &&
        f.direction === g.direction &&
        f.nullOrder === g.nullOrder
      );
    })
  );
}
