import t from 'tap';
import { fromHex, isoDateToDays, isoTimestampToMicros, isoTimestamptzToMicros, isoTimeToMicros, parseExpression } from '../../../src/iceberg/index.js';
import { parseJson } from '../../../src/json/index.js';
import { bind, type BoundExpression, type BoundLiteralPredicate } from '../../../src/planner/expressions/index.js';
import { STRUCT } from './schema.js';

function bound(text: string, caseSensitive = true): BoundExpression {
  return bind(parseExpression(parseJson(text)), STRUCT, caseSensitive);
}

/** `column op value` bound; `value` is JSON text. */
function cmp(column: string, value: string, op = 'eq'): BoundExpression {
  return bound(`{"type":"${op}","term":"${column}","value":${value}}`);
}

/** The converted literal of `column == value`. */
function converted(column: string, value: string): unknown {
  const e = cmp(column, value) as BoundLiteralPredicate;
  if (e.kind !== 'literal') throw new Error(`expected a literal predicate, got ${e.kind}`);
  return e.literal;
}

const OPS = ['lt', 'lt-eq', 'gt', 'gt-eq', 'eq', 'not-eq'] as const;

t.test('integral JSON literals (Java Long) convert to every numeric and temporal type', async (t) => {
  t.equal(converted('i', '5'), 5, 'int');
  t.equal(converted('l', '9007199254740993'), 9007199254740993n, 'long keeps 64 bits');
  t.equal(converted('f', '16777217'), Math.fround(16777217), 'float rounds');
  // 2^60 + 2^36 + 1: one rounding step to binary32 goes up; rounding through a double would go down
  t.equal(converted('f', '1152921573326323713'), 2 ** 60 + 2 ** 37, 'long → float rounds once, like Java');
  t.equal(converted('dbl', '5'), 5, 'double');
  t.equal(converted('dt', '19723'), 19723, 'date as days (Spark)');
  t.equal(converted('tm', '3600000000'), 3600000000n, 'time as µs');
  t.equal(converted('ts', '1704067200000000'), 1704067200000000n, 'timestamp as µs (Spark)');
  t.equal(converted('tstz', '1704067200000000'), 1704067200000000n, 'timestamptz as µs');
  t.equal(converted('tsns', '1704067200000000'), 1704067200000000000n, 'timestamp_ns: micros × 1000');
  t.equal(converted('dec', '5'), 500n, 'decimal(9,2): setScale(2)');
  t.throws(() => cmp('tsns', '9223372036854775807'), { code: 'INVALID_FILTER' }, 'µs → ns overflow');
  t.throws(() => cmp('s', '5'), { code: 'INVALID_FILTER' }, 'no conversion to string');
  t.throws(() => cmp('b', '1'), { code: 'INVALID_FILTER' }, 'no conversion to boolean');
});

t.test('an integral literal outside the int range folds each comparison to a constant', async (t) => {
  const above = { lt: true, 'lt-eq': true, 'not-eq': true, gt: false, 'gt-eq': false, eq: false };
  const below = { lt: false, 'lt-eq': false, 'not-eq': true, gt: true, 'gt-eq': true, eq: false };
  for (const op of OPS) {
    t.same(cmp('i', '2147483648', op), { kind: above[op] ? 'true' : 'false' }, `i ${op} 2^31`);
    t.same(cmp('i', '-2147483649', op), { kind: below[op] ? 'true' : 'false' }, `i ${op} -2^31-1`);
    t.same(cmp('dt', '2147483648', op), { kind: above[op] ? 'true' : 'false' }, `date ${op} 2^31`);
  }
  t.equal(converted('i', '2147483647'), 2147483647, 'the maximum itself is kept');
});

t.test('floating JSON literals (Java Double) convert to float, double and decimal', async (t) => {
  t.equal(converted('f', '0.1'), Math.fround(0.1), 'float');
  t.equal(converted('dbl', '0.1'), 0.1, 'double');
  t.same(cmp('f', '3.5e38', 'lt'), { kind: 'true' }, 'beyond Float.MAX_VALUE is aboveMax');
  t.same(cmp('f', '-3.5e38', 'lt'), { kind: 'false' }, 'below -Float.MAX_VALUE is belowMin');
  // BigDecimal.valueOf(1.005) is 1.005 (Double.toString), then HALF_UP to 2 places
  t.equal(converted('dec', '1.005'), 101n, 'decimal HALF_UP from the shortest text');
  t.equal(converted('dec', '-1.005'), -101n, 'HALF_UP rounds ties away from zero');
  t.equal(converted('dec', '2.344'), 234n, 'below half rounds down');
  t.throws(() => cmp('i', '1.0'), { code: 'INVALID_FILTER' }, 'a double never becomes an int');
  t.throws(() => cmp('l', '1.5'), { code: 'INVALID_FILTER' }, 'a double never becomes a long');
  t.throws(() => cmp('ts', '1.5'), { code: 'INVALID_FILTER' }, 'a double never becomes a timestamp');
});

t.test('string literals parse as ISO dates and times, with Java\'s offset rules', async (t) => {
  t.equal(converted('dt', '"2024-01-01"'), isoDateToDays('2024-01-01'), 'date');
  t.equal(converted('tm', '"10:15:30.123456"'), isoTimeToMicros('10:15:30.123456'), 'time');
  t.equal(converted('ts', '"2024-01-01T10:00:00"'), isoTimestampToMicros('2024-01-01T10:00:00'), 'timestamp without offset');
  t.equal(
    converted('tstz', '"2024-01-01T10:00:00+02:00"'),
    isoTimestampToMicros('2024-01-01T08:00:00'),
    'timestamptz: any offset, normalised to UTC',
  );
  t.equal(converted('tsns', '"2024-01-01T00:00:00.123456789"'), isoTimestampToMicros('2024-01-01T00:00:00') * 1000n + 123456789n, 'timestamp_ns keeps ns');
  t.equal(converted('tstzns', '"1970-01-01T00:00:00.000000001Z"'), 1n, 'timestamptz_ns with Z');
  t.throws(() => cmp('ts', '"2024-01-01T10:00:00+00:00"'), { code: 'INVALID_FILTER' }, 'timestamp rejects an offset');
  t.throws(() => cmp('tstz', '"2024-01-01T10:00:00"'), { code: 'INVALID_FILTER' }, 'timestamptz requires an offset');
  t.throws(() => cmp('dt', '"2024-02-30"'), { code: 'INVALID_FILTER' }, 'an impossible date');
  t.throws(() => cmp('dt', '"2024-01-01T00:00:00"'), { code: 'INVALID_FILTER' }, 'a date-time for a date');
});

t.test('string literals convert to uuid, decimal (scale as written), fixed and binary (hex)', async (t) => {
  t.equal(converted('u', '"F79C3E09-677C-4BBD-A479-3F349CB785E7"'), 'f79c3e09-677c-4bbd-a479-3f349cb785e7', 'uuid');
  t.throws(() => cmp('u', '"not-a-uuid"'), { code: 'INVALID_FILTER' }, 'a bad uuid');
  t.equal(converted('dec', '"3.14"'), 314n, 'same scale');
  t.equal(converted('dec', '"3.1"'), 310n, 'smaller scale widens exactly');
  t.equal(converted('dec', '"3.14E+4"'), 3140000n, 'negative written scale');
  t.same(converted('fx', '"010203"'), fromHex('010203'), 'fixed[3] from hex');
  t.throws(() => cmp('fx', '"0102"'), { code: 'INVALID_FILTER' }, 'fixed of the wrong length');
  t.throws(() => cmp('fx', '"zz0102"'), { code: 'INVALID_FILTER' }, 'bad hex');
  t.same(converted('bin', '"0A0b"'), Uint8Array.of(10, 11), 'binary, either case');
  t.equal(converted('s', '"x"'), 'x', 'string');
  t.throws(() => cmp('i', '"5"'), { code: 'INVALID_FILTER' }, 'no string → int');
});

t.test('decimal text converts to float and double (pyiceberg sends `amount > 30.0` as "30.0")', async (t) => {
  t.equal(converted('dbl', '"30.0"'), 30, 'plain decimal text');
  t.equal(converted('dbl', '"-1.5E-3"'), -0.0015, 'scientific, as BigDecimal.toString writes it');
  t.equal(converted('f', '"0.1"'), Math.fround(0.1), 'binary32 for a float');
  for (const bad of ['"30.0x"', '"1,5"', '""', '"0x10"', '" 1"', '"."', '"NaN"', '"Infinity"']) {
    t.throws(() => cmp('dbl', bad), { code: 'INVALID_FILTER' }, `${bad} is not decimal text`);
  }
});

t.test('a decimal literal with more digits than the column scale compares numerically', async (t) => {
  // 3.145 lies strictly between 3.14 and 3.15 for decimal(9,2)
  t.same(cmp('dec', '"3.145"', 'eq'), { kind: 'false' });
  t.same(cmp('dec', '"3.145"', 'not-eq'), { kind: 'true' });
  t.same(cmp('dec', '"3.145"', 'lt'), cmp('dec', '"3.15"', 'lt'), 'x < 3.145 ⇔ x < 3.15');
  t.same(cmp('dec', '"3.145"', 'lt-eq'), cmp('dec', '"3.14"', 'lt-eq'), 'x <= 3.145 ⇔ x <= 3.14');
  t.same(cmp('dec', '"3.145"', 'gt'), cmp('dec', '"3.14"', 'gt'), 'x > 3.145 ⇔ x > 3.14');
  t.same(cmp('dec', '"-3.145"', 'gt-eq'), cmp('dec', '"-3.14"', 'gt-eq'), 'x >= -3.145 ⇔ x >= -3.14');
  t.same(cmp('dec', '"1E+100"', 'lt'), { kind: 'true' }, 'far beyond any decimal(9,2)');
  t.same(bound('{"type":"in","term":"dec","values":["3.145","3.146"]}'), { kind: 'false' }, 'in of unequal values is false');
});

t.test('booleans and typed literals', async (t) => {
  t.equal(converted('b', 'true'), true);
  t.throws(() => cmp('s', 'true'), { code: 'INVALID_FILTER' }, 'no boolean → string');
  const typed = (value: string, dataType: string): string => `{"type":"literal","value":${value},"data-type":"${dataType}"}`;
  t.equal(converted('l', typed('5', 'int')), 5n, 'typed int widens to long');
  t.equal(converted('dt', typed('"2024-01-01T23:00:00"', 'timestamp')), isoDateToDays('2024-01-01'), 'typed timestamp → date');
  t.equal(converted('tstz', typed('"2024-01-01T00:00:00+00:00"', 'timestamptz')), isoTimestamptzToMicros('2024-01-01T00:00:00Z'));
  t.throws(() => cmp('ts', typed('"2024-01-01"', 'date')), { code: 'INVALID_FILTER' }, 'a typed date is only a date');
  t.throws(() => cmp('i', typed('"5"', 'string')), { code: 'INVALID_FILTER' }, 'a typed string is not an int');
  t.same(cmp('dec', typed('"1.234"', 'decimal(9,3)'), 'eq'), { kind: 'false' }, 'typed decimal keeps its scale');
});

t.test('in / not-in fold to eq / not-eq, constants, or a deduplicated set', async (t) => {
  const inOne = bound('{"type":"in","term":"l","values":[7,7]}') as BoundLiteralPredicate;
  t.equal(inOne.kind, 'literal');
  t.equal(inOne.op, 'eq');
  t.equal(inOne.literal, 7n);
  t.equal((bound('{"type":"not-in","term":"i","values":[5,2147483648]}') as BoundLiteralPredicate).op, 'not-eq', 'out-of-range values drop first');
  t.same(bound('{"type":"in","term":"i","values":[2147483648,-2147483649]}'), { kind: 'false' }, 'in of nothing');
  t.same(bound('{"type":"not-in","term":"i","values":[2147483648]}'), { kind: 'true' }, 'not-in of nothing');
  t.same(bound('{"type":"in","term":"i","values":[]}'), { kind: 'false' }, 'empty in');
  const set = bound('{"type":"in","term":"dec","values":["1.1","1.10",1.1,2]}');
  t.same(set, { kind: 'set', op: 'in', term: (set as { term: unknown }).term, literals: [110n, 200n] }, 'equal values after conversion count once');
  const zeros = bound('{"type":"in","term":"dbl","values":[0.0,-0.0]}');
  t.equal(zeros.kind, 'set', '-0.0 and 0.0 are distinct, as Double.equals says');
});

t.test('is-null / not-null fold when the term can never be null', async (t) => {
  t.same(bound('{"type":"is-null","term":"l"}'), { kind: 'false' }, 'required top-level column');
  t.same(bound('{"type":"not-null","term":"l"}'), { kind: 'true' });
  t.same(bound('{"type":"is-null","term":"rs.x"}'), { kind: 'false' }, 'required inside a required struct');
  t.equal(bound('{"type":"is-null","term":"st.req"}').kind, 'unary', 'required inside an optional struct can still be null');
  t.equal(bound('{"type":"is-null","term":"st.inner.deep"}').kind, 'unary', 'an optional grandparent counts too');
  t.equal(bound('{"type":"not-null","term":"i"}').kind, 'unary', 'optional column');
  t.same(bound('{"type":"is-null","term":{"type":"transform","transform":"truncate[10]","term":"l"}}'), { kind: 'false' }, 'order-preserving transform of a required column');
  t.equal(bound('{"type":"is-null","term":{"type":"transform","transform":"bucket[4]","term":"l"}}').kind, 'unary', 'bucket may produce null (Java producesNull)');
  t.same(bound('{"type":"is-null","term":"unk"}'), { kind: 'true' }, 'an unknown-typed column is always null');
  t.same(bound('{"type":"not-null","term":"unk"}'), { kind: 'false' });
  t.same(bound('{"type":"and","left":{"type":"is-null","term":"l"},"right":{"type":"eq","term":"i","value":1}}'), { kind: 'false' }, 'folded constants simplify the tree');
});

t.test('type rules: is-nan needs a float, starts-with a string, transforms their source types', async (t) => {
  t.equal(bound('{"type":"is-nan","term":"f"}').kind, 'unary');
  t.equal(bound('{"type":"not-nan","term":"dbl"}').kind, 'unary');
  t.throws(() => bound('{"type":"is-nan","term":"i"}'), { code: 'INVALID_FILTER' });
  t.throws(() => bound('{"type":"not-nan","term":"dec"}'), { code: 'INVALID_FILTER' });
  t.equal(cmp('s', '"ab"', 'starts-with').kind, 'literal');
  t.throws(() => cmp('i', '"1"', 'starts-with'), { code: 'INVALID_FILTER' });
  t.throws(() => cmp('dt', '"2024"', 'not-starts-with'), { code: 'INVALID_FILTER' });
  t.throws(() => bound('{"type":"eq","term":{"type":"transform","transform":"year","term":"s"},"value":1}'), { code: 'INVALID_FILTER' }, 'year of a string');
  t.throws(() => bound('{"type":"eq","term":{"type":"transform","transform":"bucket[2]","term":"f"},"value":1}'), { code: 'INVALID_FILTER' }, 'bucket of a float');
});

t.test('transform terms bind to the source field and convert literals to the result type', async (t) => {
  const bucket = bound('{"type":"eq","term":{"type":"transform","transform":"bucket[16]","term":"s"},"value":3}') as BoundLiteralPredicate;
  t.equal(bucket.term.kind, 'transform');
  t.equal(bucket.term.kind === 'transform' && bucket.term.ref.fieldId, 12, 'the source field id');
  t.equal(bucket.term.type.kind, 'int', 'bucket gives int');
  t.equal(bucket.literal, 3, 'the literal is an int');
  const day = bound('{"type":"eq","term":{"type":"transform","transform":"day","term":"ts"},"value":"2024-01-02"}') as BoundLiteralPredicate;
  t.equal(day.term.type.kind, 'date', 'day gives a date');
  t.equal(day.literal, isoDateToDays('2024-01-02'));
  const year = bound('{"type":"gt","term":{"type":"transform","transform":"year","term":"tstz"},"value":54}') as BoundLiteralPredicate;
  t.equal(year.literal, 54);
  const trunc = bound('{"type":"eq","term":{"type":"transform","transform":"truncate[4]","term":"dec"},"value":"1.00"}') as BoundLiteralPredicate;
  t.equal(trunc.term.type.kind, 'decimal', 'truncate keeps the source type');
});

t.test('names resolve through nested structs, optionally case-insensitively', async (t) => {
  const deep = cmp('st.inner.deep', '"x"') as BoundLiteralPredicate;
  t.equal(deep.term.kind === 'ref' && deep.term.fieldId, 20);
  t.same(deep.term.kind === 'ref' && deep.term.accessor, [16, 1, 0], 'positions through each struct');
  t.throws(() => bound('{"type":"eq","term":"ST.Inner.DEEP","value":"x"}'), { code: 'INVALID_FILTER' }, 'case-sensitive by default');
  const ci = bound('{"type":"eq","term":"ST.Inner.DEEP","value":"x"}', false) as BoundLiteralPredicate;
  t.equal(ci.term.kind === 'ref' && ci.term.fieldId, 20, 'case-insensitive binding');
  t.equal(ci.term.kind === 'ref' && ci.term.name, 'ST.Inner.DEEP', 'the name is kept as written');
  const element = bound('{"type":"eq","term":"tags.element","value":"a"}') as BoundLiteralPredicate;
  t.equal(element.term.kind === 'ref' && element.term.accessor, null, 'a list element binds without a row accessor');
  t.throws(() => cmp('nope', '1'), { code: 'INVALID_FILTER', message: /'nope'/ }, 'an unknown field is named');
});
