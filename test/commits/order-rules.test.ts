import t from 'tap';
import { sameOrder } from '../../src/commits/order-rules.js';

const order = (direction: 'asc' | 'desc', transform = 'identity') => ({ orderId: 1, fields: [{ transform, sourceId: 1, direction, nullOrder: 'nulls-first' as const }] });

t.test('orders are the same by their fields, whatever their ids', async (t) => {
  t.equal(sameOrder(order('asc'), { ...order('asc'), orderId: 7 }), true);
  t.equal(sameOrder(order('asc', 'bucket[2]'), order('asc', 'Bucket[2]')), true, 'transforms compare as Java writes them');
  t.equal(sameOrder(order('asc'), order('desc')), false);
});
