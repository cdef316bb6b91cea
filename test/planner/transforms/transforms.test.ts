import t from 'tap';
import { applyTransform, canTransform, preservesOrder, truncateCodePoints } from '../../../src/planner/transforms/index.js';
import {
  formatDecimal,
  isoDateToDays,
  isoTimestampToMicros,
  isoTimestamptzToMicros,
  isoTimestamptzToNanos,
  parseDecimalText,
  parseTransform,
  type IcebergType,
} from '../../../src/iceberg/index.js';
import { loadVectors, SKIP_NO_SHARED, vectorTypes, vectorValue } from '../../iceberg/literals/vectors.js';

interface TransformVector {
  transform: string;
  source_type: string;
  input: unknown;
  result: unknown;
  from: string;
}

const file = loadVectors<{ vectors: TransformVector[] }>('transform_vectors.json');
const apply = (transform: string, type: IcebergType, value: unknown): unknown => applyTransform(parseTransform(transform), type, value);

t.test('every transform vector gives its result', { skip: !file && SKIP_NO_SHARED }, async (t) => {
  for (const [i, v] of file!.vectors.entries()) {
    for (const listed of vectorTypes(v.source_type)) {
      const name = `#${i} ${v.transform}(${listed.kind} ${JSON.stringify(v.input)}) = ${JSON.stringify(v.result)} (${v.from})`;
      if (listed.kind === 'decimal') {
        // pyiceberg Decimal inputs carry their own scale ("0.0" has scale 1)
        const { unscaled, scale } = parseDecimalText(String(v.input));
        const got = apply(v.transform, { ...listed, scale }, unscaled) as bigint;
        t.equal(formatDecimal(got, scale), v.result, name);
      } else if (/^(year|month|day|hour)$/.test(v.transform)) {
        t.equal(apply(v.transform, listed, vectorValue(listed, v.input)), v.result, name);
      } else {
        t.equal(apply(v.transform, listed, vectorValue(listed, v.input)), vectorValue(listed, v.result), name);
      }
    }
  }
});

t.test('wire-format §12.3 worked examples: 2024-01-01T00:00Z and 1969-12-31T23:00', async (t) => {
  const sources: Array<[IcebergType, bigint]> = [
    [{ kind: 'timestamptz' }, isoTimestamptzToMicros('2024-01-01T00:00:00Z')],
    [{ kind: 'timestamp' }, isoTimestampToMicros('2024-01-01T00:00:00')],
    [{ kind: 'timestamptz_ns' }, isoTimestamptzToNanos('2024-01-01T00:00:00+00:00')],
  ];
  for (const [type, v] of sources) {
    t.equal(apply('year', type, v), 54, `year ${type.kind}`);
    t.equal(apply('month', type, v), 648, `month ${type.kind}`);
    t.equal(apply('day', type, v), 19723, `day ${type.kind}`);
    t.equal(apply('day', type, v), isoDateToDays('2024-01-01'), `day is the date ${type.kind}`);
    t.equal(apply('hour', type, v), 473352, `hour ${type.kind}`);
  }
  const before = isoTimestampToMicros('1969-12-31T23:00:00');
  t.equal(apply('day', { kind: 'timestamp' }, before), -1, 'day floors before the epoch');
  t.equal(apply('hour', { kind: 'timestamp' }, before), -1, 'hour floors before the epoch');
  t.equal(apply('hour', { kind: 'timestamp' }, before - 1n), -2, 'one µs earlier is the hour before');
  t.equal(apply('month', { kind: 'timestamp' }, isoTimestampToMicros('1969-11-30T23:59:59.999999')), -2);
  t.equal(apply('year', { kind: 'date' }, isoDateToDays('1968-12-31')), -2);
});

t.test('truncate keeps code points for strings, bytes for binary, and floors numbers', async (t) => {
  t.equal(apply('truncate[2]', { kind: 'string' }, '😀😃😄'), '😀😃', 'surrogate pairs are not split');
  t.equal(truncateCodePoints('a😀b', 2), 'a😀');
  t.same([...(apply('truncate[2]', { kind: 'binary' }, Uint8Array.of(1, 2, 3)) as Uint8Array)], [1, 2]);
  t.equal(apply('truncate[10]', { kind: 'long' }, -1n), -10n);
  t.equal(apply('truncate[50]', { kind: 'decimal', precision: 9, scale: 2 }, 1065n), 1050n, 'spec example 10.65 → 10.50');
  t.equal(apply('truncate[3]', { kind: 'string' }, 'iceberg'), 'ice', 'spec example');
});

t.test('null and void give null; identity keeps the value; unknown transforms cannot be applied', async (t) => {
  t.equal(apply('bucket[4]', { kind: 'int' }, null), null);
  t.equal(apply('void', { kind: 'string' }, 'x'), null);
  t.equal(apply('identity', { kind: 'long' }, 5n), 5n);
  t.throws(() => apply('zorder', { kind: 'int' }, 1), { code: 'UNSUPPORTED_OPERATION' });
  t.throws(() => apply('hour', { kind: 'date' }, 1), { code: 'INVALID_VALUE' }, 'hour needs a timestamp');
  t.throws(() => apply('truncate[4]', { kind: 'fixed', length: 4 }, Uint8Array.of(1)), { code: 'INVALID_VALUE' });
});

t.test('canTransform follows the spec source-type table', async (t) => {
  const can = (transform: string, kind: string): boolean => canTransform(parseTransform(transform), { kind } as IcebergType);
  t.ok(can('bucket[8]', 'uuid'));
  t.notOk(can('bucket[8]', 'float'), 'floats are not bucketable');
  t.notOk(can('bucket[8]', 'boolean'));
  t.ok(can('truncate[3]', 'binary'));
  t.notOk(can('truncate[3]', 'date'));
  t.ok(can('day', 'date'));
  t.notOk(can('hour', 'date'));
  t.ok(can('hour', 'timestamptz_ns'));
  t.notOk(can('identity', 'variant'));
  t.notOk(can('identity', 'geometry'));
  t.ok(can('void', 'variant'));
  t.ok(can('some_future_transform', 'int'), 'unknown transforms are assumed to apply');
});

t.test('preservesOrder is true for identity, truncate and time transforms only', async (t) => {
  const order = (s: string): boolean => preservesOrder(parseTransform(s));
  t.same(['identity', 'truncate[4]', 'year', 'month', 'day', 'hour'].map(order), [true, true, true, true, true, true]);
  t.same(['bucket[16]', 'void', 'zorder'].map(order), [false, false, false]);
});
