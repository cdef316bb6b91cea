import t from 'tap';
import {
  civilFromDays,
  daysFromCivil,
  daysToIsoDate,
  isoDateToDays,
  isoTimeToMicros,
  isoTimestampToMicros,
  isoTimestampToNanos,
  isoTimestamptzToMicros,
  isoTimestamptzToNanos,
  isUtcTimestamptz,
  microsToIsoTime,
  microsToIsoTimestamp,
  nanosToIsoTimestamptz,
} from '../../../src/iceberg/literals/index.js';

const DAY_MS = 86_400_000;

t.test('dates convert to and from days like the JS calendar, across eras', async (t) => {
  for (const iso of ['1970-01-01', '1969-12-31', '2000-02-29', '2024-01-01', '1900-03-01', '1600-02-29', '0001-01-01', '9999-12-31']) {
    const days = Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
    t.equal(isoDateToDays(iso), days, iso);
    t.equal(daysToIsoDate(days), iso, `${iso} back`);
  }
  t.equal(daysToIsoDate(daysFromCivil(12345, 6, 7)), '+12345-06-07', 'years past 9999 get a sign');
  t.equal(isoDateToDays('+12345-06-07'), daysFromCivil(12345, 6, 7));
  t.equal(daysToIsoDate(daysFromCivil(-44, 3, 15)), '-0044-03-15');
  t.same(civilFromDays(-1), { year: 1969, month: 12, day: 31 });
  t.throws(() => isoDateToDays('12345-01-01'), { code: 'INVALID_VALUE' }, 'five-digit year without a sign');
  t.throws(() => isoDateToDays('2023-13-01'), { code: 'INVALID_VALUE' });
  t.throws(() => isoDateToDays('2024-1-01'), { code: 'INVALID_VALUE' });
});

t.test('times parse with optional seconds and up to nine fraction digits', async (t) => {
  t.equal(isoTimeToMicros('22:31:08'), 81068000000n);
  t.equal(isoTimeToMicros('10:15'), 36900000000n, 'seconds are optional, as in ISO_LOCAL_TIME');
  t.equal(isoTimeToMicros('12:30:45.5'), 45045500000n);
  t.equal(isoTimeToMicros('00:00:00.000001999'), 1n, 'sub-µs digits are dropped');
  t.equal(microsToIsoTime(45045500000n), '12:30:45.5');
  t.equal(microsToIsoTime(86_399_999_999n), '23:59:59.999999');
  t.throws(() => isoTimeToMicros('24:00:00'), { code: 'INVALID_VALUE' });
  t.throws(() => microsToIsoTime(86_400_000_000n), { code: 'INVALID_VALUE' });
});

t.test('timestamps with an offset are normalised to UTC', async (t) => {
  const utc = isoTimestampToMicros('2017-11-16T22:31:08');
  t.equal(utc, BigInt(Date.UTC(2017, 10, 16, 22, 31, 8)) * 1000n);
  t.equal(isoTimestamptzToMicros('2017-11-16T14:31:08-08:00'), utc);
  t.equal(isoTimestamptzToMicros('2017-11-17T04:01:08+05:30'), utc);
  t.equal(isoTimestamptzToMicros('2017-11-16T22:31:08Z'), utc);
  t.equal(isoTimestamptzToNanos('2017-11-16T14:31:08.000001001-08:00'), utc * 1000n + 1001n);
  t.ok(isUtcTimestamptz('2017-11-16T22:31:08+00:00'));
  t.ok(isUtcTimestamptz('2017-11-16T22:31:08-00:00'));
  t.notOk(isUtcTimestamptz('2017-11-16T22:31:08+01:00'));
  t.throws(() => isoTimestamptzToMicros('2017-11-16T22:31:08'), { code: 'INVALID_VALUE' }, 'tz needs an offset');
  t.throws(() => isoTimestampToMicros('2017-11-16 22:31:08'), { code: 'INVALID_VALUE' }, 'T separator required');
});

t.test('short offsets (±HH, ±HHMM, ±HHMMSS) name the same instant as ±HH:MM, as Java 9+ parses them', async (t) => {
  const utc = isoTimestampToMicros('2023-05-15T14:30:45');
  for (const text of ['2023-05-15T16:30:45+02', '2023-05-15T16:30:45+0200', '2023-05-15T16:30:45+02:00', '2023-05-15T16:30:45+020000', '2023-05-15T16:30:45+02:00:00', '2023-05-15T14:30:45Z', '2023-05-15T14:30:45+00', '2023-05-15T09:00:45-0530', '2023-05-15T09:00:45-05:30']) {
    t.equal(isoTimestamptzToMicros(text), utc, text);
    t.equal(isoTimestamptzToNanos(text), utc * 1000n, `${text} (ns)`);
  }
  t.equal(isoTimestamptzToMicros('1985-01-31T23:00:00+00'), isoTimestampToMicros('1985-01-31T23:00:00'));
  t.equal(isoTimestamptzToMicros('2023-05-15T16:30:45.5+02'), utc + 500_000n, 'a fraction before a short offset');
  t.ok(isUtcTimestamptz('1985-01-31T23:00:00+00'));
  t.ok(isUtcTimestamptz('1985-01-31T23:00:00-0000'));
  t.notOk(isUtcTimestamptz('1985-01-31T23:00:00+01'));
  for (const garbage of ['2023-05-15T16:30:45+2', '2023-05-15T16:30:45+020', '2023-05-15T16:30:45+02:0000', '2023-05-15T16:30:45+0200:00', '2023-05-15T16:30:45+19', '2023-05-15T16:30:45+02:60', '2023-05-15T16:30:45++02', '2023-05-15+02', '2023-05-15T16:30:45 +02', '2023-05-15T16:30:45+02Z']) {
    t.throws(() => isoTimestamptzToMicros(garbage), { code: 'INVALID_VALUE' }, garbage);
    try {
      isoTimestamptzToMicros(garbage);
    } catch (err) {
      t.ok((err as Error).message.includes(garbage), `the error names ${garbage}`);
    }
  }
});

t.test('timestamps before the epoch and at nanosecond precision format exactly', async (t) => {
  t.equal(microsToIsoTimestamp(-1n), '1969-12-31T23:59:59.999999');
  t.equal(isoTimestampToMicros('1969-12-31T23:59:59.999999'), -1n);
  t.equal(isoTimestampToNanos('1677-09-21T00:12:43.145224192'), -(2n ** 63n), 'the smallest ns timestamp');
  t.throws(() => isoTimestampToNanos('1677-09-21T00:12:43.145224191'), { code: 'INVALID_VALUE' }, 'below the 64-bit range');
  t.equal(nanosToIsoTimestamptz(1n), '1970-01-01T00:00:00.000000001+00:00');
});
