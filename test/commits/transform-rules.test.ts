import t from 'tap';
import { bindTransform, canTransform } from '../../src/commits/transform-rules.js';
import type { IcebergType } from '../../src/iceberg/index.js';

const type = (kind: string) => ({ kind }) as IcebergType;

t.test('transforms are written as Java writes them', async (t) => {
  t.same(bindTransform('BUCKET[16]', undefined), { name: 'bucket', text: 'bucket[16]' });
  t.same(bindTransform('Truncate[4]', type('string')), { name: 'truncate', text: 'truncate[4]' });
  t.same(bindTransform('Day', type('date')), { name: 'day', text: 'day' });
  t.same(bindTransform('zorder[2]', type('int')), { name: 'unknown', text: 'zorder[2]' });
  t.throws(() => bindTransform('bucket[0]', undefined), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => bindTransform('truncate[99999999999]', undefined), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('which source types each transform accepts (Java canTransform)', async (t) => {
  const table: Array<[Parameters<typeof canTransform>[0], string, boolean]> = [
    ['identity', 'int', true],
    ['identity', 'variant', false],
    ['identity', 'geometry', false],
    ['bucket', 'uuid', true],
    ['bucket', 'timestamptz_ns', true],
    ['bucket', 'boolean', false],
    ['bucket', 'float', false],
    ['truncate', 'decimal', true],
    ['truncate', 'date', false],
    ['year', 'date', true],
    ['month', 'timestamp', true],
    ['day', 'time', false],
    ['hour', 'date', false],
    ['hour', 'timestamptz', true],
    ['void', 'struct', true],
    ['unknown', 'list', true],
  ];
  for (const [name, kind, ok] of table) t.equal(canTransform(name, type(kind)), ok, `${name} of ${kind}`);
  t.throws(() => bindTransform('identity', type('variant')), { code: 'ILLEGAL_ARGUMENT' });
  t.doesNotThrow(() => bindTransform('identity', { kind: 'struct', fields: [] }), 'Java refuses a nested identity source later, in checkCompatibility');
});
