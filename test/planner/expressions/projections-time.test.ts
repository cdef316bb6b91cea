/**
 * Inclusive and strict projections through year/month/day/hour, case by case from Java's
 * TestTimestampsProjection and TestDatesProjection (expected operations and human-readable
 * values copied from those tests).
 */
import t from 'tap';
import { inclusiveProjection, strictProjection } from '../../../src/planner/expressions/index.js';
import { describeProjection, p, schemaOf, specOf, T } from './projections-helpers.js';

type Row = readonly [op: string, expectedOp: string, expected: string, other?: string];
interface Group {
  readonly name: string;
  readonly transform: 'year' | 'month' | 'day' | 'hour';
  readonly mode: 'inclusive' | 'strict';
  readonly value: string;
  readonly rows: readonly Row[];
}

const TS = schemaOf([1, 'timestamp', T.timestamp]);
const DATE = schemaOf([1, 'date', T.date]);

function check(group: Group, column: string, schema: typeof TS): void {
  t.test(group.name, async (t) => {
    const spec = specOf([1, group.transform, `${column}_${group.transform}`]);
    const project = group.mode === 'inclusive' ? inclusiveProjection : strictProjection;
    for (const [op, expectedOp, expected, other] of group.rows) {
      const value = op === 'in' || op === 'not-in' ? [group.value, other] : group.value;
      const [gotOp, got] = describeProjection(project(p(op, column, value), spec, schema), group.transform);
      t.same([gotOp, got], [expectedOp, expected], `${op} ${group.value}${other === undefined ? '' : `, ${other}`}`);
    }
  });
}

const timestampGroups: Group[] = [
  { name: 'day strict at the epoch', transform: 'day', mode: 'strict', value: '1970-01-01T00:00:00', rows: [
    ['lt', 'lt', '1970-01-01'], ['lt-eq', 'lt', '1970-01-01'], ['gt', 'gt', '1970-01-02'], ['gt-eq', 'gt', '1970-01-01'],
    ['not-eq', 'not-eq', '1970-01-01'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[1970-01-01, 1970-01-02]', '1970-01-02T00:00:00'], ['in', 'false', '', '1970-01-02T00:00:00'],
  ] },
  { name: 'day inclusive at the epoch', transform: 'day', mode: 'inclusive', value: '1970-01-01T00:00:00', rows: [
    ['lt', 'lt-eq', '1970-01-01'], ['lt-eq', 'lt-eq', '1970-01-01'], ['gt', 'gt-eq', '1970-01-01'], ['gt-eq', 'gt-eq', '1970-01-01'],
    ['eq', 'eq', '1970-01-01'], ['not-eq', 'true', ''],
    ['in', 'in', '[1970-01-01, 1970-01-02]', '1970-01-02T00:00:00'], ['not-in', 'true', '', '1970-01-02T00:00:00'],
  ] },
  { name: 'month strict, lower bound of a month', transform: 'month', mode: 'strict', value: '2017-12-01T00:00:00', rows: [
    ['lt', 'lt', '2017-12'], ['lt-eq', 'lt', '2017-12'], ['gt', 'gt', '2017-12'], ['gt-eq', 'gt', '2017-11'],
    ['not-eq', 'not-eq', '2017-12'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[2017-12, 2017-12]', '2017-12-02T00:00:00'], ['in', 'false', '', '2017-12-02T00:00:00'],
  ] },
  { name: 'month strict, pre-1970 lower bound (fixStrictTimeProjection)', transform: 'month', mode: 'strict', value: '1969-01-01T00:00:00', rows: [
    ['lt', 'lt', '1969-01'], ['lt-eq', 'lt', '1969-01'], ['gt', 'gt', '1969-02'], ['gt-eq', 'gt', '1969-01'],
    ['not-eq', 'not-in', '[1969-01, 1969-02]'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[1969-01, 1969-02, 1969-03, 1969-04]', '1969-03-01T00:00:00'], ['in', 'false', '', '1969-03-01T00:00:00'],
  ] },
  { name: 'month strict, upper bound of a month', transform: 'month', mode: 'strict', value: '2017-12-31T23:59:59.999999', rows: [
    ['lt', 'lt', '2017-12'], ['lt-eq', 'lt', '2018-01'], ['gt', 'gt', '2017-12'], ['gt-eq', 'gt', '2017-12'],
    ['not-eq', 'not-eq', '2017-12'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[2017-11, 2017-12]', '2017-11-02T00:00:00'],
  ] },
  { name: 'month strict, pre-1970 upper bound', transform: 'month', mode: 'strict', value: '1969-12-31T23:59:59.999999', rows: [
    ['lt', 'lt', '1969-12'], ['lt-eq', 'lt', '1970-01'], ['gt', 'gt', '1970-01'], ['gt-eq', 'gt', '1970-01'],
    ['not-eq', 'not-in', '[1969-12, 1970-01]'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[1969-12, 1970-01, 1970-02]', '1970-02-01T00:00:00'],
  ] },
  { name: 'month inclusive, lower bound of a month', transform: 'month', mode: 'inclusive', value: '2017-12-01T00:00:00', rows: [
    ['lt', 'lt-eq', '2017-11'], ['lt-eq', 'lt-eq', '2017-12'], ['gt', 'gt-eq', '2017-12'], ['gt-eq', 'gt-eq', '2017-12'],
    ['eq', 'eq', '2017-12'], ['not-eq', 'true', ''],
    ['in', 'in', '[2017-12, 2017-12]', '2017-12-02T00:00:00'], ['not-in', 'true', '', '2017-12-02T00:00:00'],
  ] },
  { name: 'month inclusive, pre-1970 lower bound (fixInclusiveTimeProjection)', transform: 'month', mode: 'inclusive', value: '1969-01-01T00:00:00', rows: [
    ['lt', 'lt-eq', '1969-01'], ['lt-eq', 'lt-eq', '1969-02'], ['gt', 'gt-eq', '1969-01'], ['gt-eq', 'gt-eq', '1969-01'],
    ['eq', 'in', '[1969-01, 1969-02]'], ['not-eq', 'true', ''],
    ['in', 'in', '[1969-01, 1969-02, 1969-03, 1969-04]', '1969-03-01T00:00:00'], ['not-in', 'true', '', '1969-03-01T00:00:00'],
  ] },
  { name: 'month inclusive, upper bound of a month', transform: 'month', mode: 'inclusive', value: '2017-12-01T23:59:59.999999', rows: [
    ['lt', 'lt-eq', '2017-12'], ['lt-eq', 'lt-eq', '2017-12'], ['gt', 'gt-eq', '2017-12'], ['gt-eq', 'gt-eq', '2017-12'],
    ['eq', 'eq', '2017-12'], ['not-eq', 'true', ''],
    ['in', 'in', '[2017-11, 2017-12]', '2017-11-02T00:00:00'],
  ] },
  { name: 'month inclusive, pre-1970 upper bound', transform: 'month', mode: 'inclusive', value: '1969-12-31T23:59:59.999999', rows: [
    ['lt', 'lt-eq', '1970-01'], ['lt-eq', 'lt-eq', '1970-01'], ['gt', 'gt-eq', '1970-01'], ['gt-eq', 'gt-eq', '1969-12'],
    ['eq', 'in', '[1969-12, 1970-01]'], ['not-eq', 'true', ''],
    ['in', 'in', '[1969-12, 1970-01]', '1970-01-01T00:00:00'],
  ] },
  { name: 'day strict, lower bound of a day', transform: 'day', mode: 'strict', value: '2017-12-01T00:00:00', rows: [
    ['lt', 'lt', '2017-12-01'], ['lt-eq', 'lt', '2017-12-01'], ['gt', 'gt', '2017-12-01'], ['gt-eq', 'gt', '2017-11-30'],
    ['not-eq', 'not-eq', '2017-12-01'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[2017-12-01, 2017-12-02]', '2017-12-02T00:00:00'], ['in', 'false', '', '2017-12-02T00:00:00'],
  ] },
  { name: 'day strict, pre-1970 lower bound', transform: 'day', mode: 'strict', value: '1969-01-01T00:00:00', rows: [
    ['lt', 'lt', '1969-01-01'], ['lt-eq', 'lt', '1969-01-01'], ['gt', 'gt', '1969-01-02'], ['gt-eq', 'gt', '1969-01-01'],
    ['not-eq', 'not-in', '[1969-01-01, 1969-01-02]'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[1969-01-01, 1969-01-02, 1969-01-03]', '1969-01-02T00:00:00'],
  ] },
  { name: 'day strict, upper bound of a day', transform: 'day', mode: 'strict', value: '2017-12-01T23:59:59.999999', rows: [
    ['lt', 'lt', '2017-12-01'], ['lt-eq', 'lt', '2017-12-02'], ['gt', 'gt', '2017-12-01'], ['gt-eq', 'gt', '2017-12-01'],
    ['not-eq', 'not-eq', '2017-12-01'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[2017-11-02, 2017-12-01]', '2017-11-02T00:00:00'],
  ] },
  { name: 'day strict, pre-1970 upper bound', transform: 'day', mode: 'strict', value: '1969-12-31T23:59:59.999999', rows: [
    ['lt', 'lt', '1969-12-31'], ['lt-eq', 'lt', '1970-01-01'], ['gt', 'gt', '1970-01-01'], ['gt-eq', 'gt', '1970-01-01'],
    ['not-eq', 'not-in', '[1969-12-31, 1970-01-01]'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[1969-12-31, 1970-01-01]', '1970-01-01T00:00:00'],
  ] },
  { name: 'day inclusive, lower bound of a day', transform: 'day', mode: 'inclusive', value: '2017-12-01T00:00:00', rows: [
    ['lt', 'lt-eq', '2017-11-30'], ['lt-eq', 'lt-eq', '2017-12-01'], ['gt', 'gt-eq', '2017-12-01'], ['gt-eq', 'gt-eq', '2017-12-01'],
    ['eq', 'eq', '2017-12-01'], ['not-eq', 'true', ''],
    ['in', 'in', '[2017-12-01, 2017-12-02]', '2017-12-02T00:00:00'],
  ] },
  { name: 'day inclusive, pre-1970 lower bound', transform: 'day', mode: 'inclusive', value: '1969-01-01T00:00:00', rows: [
    ['lt', 'lt-eq', '1969-01-01'], ['lt-eq', 'lt-eq', '1969-01-02'], ['gt', 'gt-eq', '1969-01-01'], ['gt-eq', 'gt-eq', '1969-01-01'],
    ['eq', 'in', '[1969-01-01, 1969-01-02]'], ['not-eq', 'true', ''],
    ['in', 'in', '[1969-01-01, 1969-01-02, 1969-01-03]', '1969-01-02T00:00:00'],
  ] },
  { name: 'day inclusive, upper bound of a day', transform: 'day', mode: 'inclusive', value: '2017-12-01T23:59:59.999999', rows: [
    ['lt', 'lt-eq', '2017-12-01'], ['lt-eq', 'lt-eq', '2017-12-01'], ['gt', 'gt-eq', '2017-12-02'], ['gt-eq', 'gt-eq', '2017-12-01'],
    ['eq', 'eq', '2017-12-01'], ['not-eq', 'true', ''],
    ['in', 'in', '[2017-12-01, 2017-12-02]', '2017-12-02T00:00:00'],
  ] },
  { name: 'day inclusive, pre-1970 upper bound', transform: 'day', mode: 'inclusive', value: '1969-12-31T23:59:59.999999', rows: [
    ['lt', 'lt-eq', '1970-01-01'], ['lt-eq', 'lt-eq', '1970-01-01'], ['gt', 'gt-eq', '1970-01-01'], ['gt-eq', 'gt-eq', '1969-12-31'],
    ['eq', 'in', '[1969-12-31, 1970-01-01]'], ['not-eq', 'true', ''],
    ['in', 'in', '[1969-12-31, 1970-01-01]', '1970-01-01T00:00:00'],
  ] },
  { name: 'year strict, lower bound of a year', transform: 'year', mode: 'strict', value: '2017-01-01T00:00:00', rows: [
    ['lt', 'lt', '2017'], ['lt-eq', 'lt', '2017'], ['gt', 'gt', '2017'], ['gt-eq', 'gt', '2016'], ['not-eq', 'not-eq', '2017'],
    ['eq', 'false', ''], ['not-in', 'not-in', '[2016, 2017]', '2016-12-02T00:00:00'], ['in', 'false', '', '2016-12-02T00:00:00'],
  ] },
  { name: 'year strict, upper bound of a year', transform: 'year', mode: 'strict', value: '2017-12-31T23:59:59.999999', rows: [
    ['lt', 'lt', '2017'], ['lt-eq', 'lt', '2018'], ['gt', 'gt', '2017'], ['gt-eq', 'gt', '2017'], ['not-eq', 'not-eq', '2017'],
    ['eq', 'false', ''], ['not-in', 'not-in', '[2016, 2017]', '2016-12-31T23:59:59.999999'],
  ] },
  { name: 'year inclusive, lower bound of a year', transform: 'year', mode: 'inclusive', value: '2017-01-01T00:00:00', rows: [
    ['lt', 'lt-eq', '2016'], ['lt-eq', 'lt-eq', '2017'], ['gt', 'gt-eq', '2017'], ['gt-eq', 'gt-eq', '2017'], ['eq', 'eq', '2017'],
    ['not-eq', 'true', ''], ['in', 'in', '[2016, 2017]', '2016-12-02T00:00:00'], ['not-in', 'true', '', '2016-12-02T00:00:00'],
  ] },
  { name: 'year inclusive, upper bound of a year', transform: 'year', mode: 'inclusive', value: '2017-12-31T23:59:59.999999', rows: [
    ['lt', 'lt-eq', '2017'], ['lt-eq', 'lt-eq', '2017'], ['gt', 'gt-eq', '2018'], ['gt-eq', 'gt-eq', '2017'], ['eq', 'eq', '2017'],
    ['not-eq', 'true', ''], ['in', 'in', '[2016, 2017]', '2016-12-31T23:59:59.999999'],
  ] },
  { name: 'hour strict, lower bound of an hour', transform: 'hour', mode: 'strict', value: '2017-12-01T10:00:00', rows: [
    ['lt', 'lt', '2017-12-01-10'], ['lt-eq', 'lt', '2017-12-01-10'], ['gt', 'gt', '2017-12-01-10'], ['gt-eq', 'gt', '2017-12-01-09'],
    ['not-eq', 'not-eq', '2017-12-01-10'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[2016-12-02-00, 2017-12-01-10]', '2016-12-02T00:00:00'], ['in', 'false', '', '2016-12-02T00:00:00'],
  ] },
  { name: 'hour strict, upper bound of an hour', transform: 'hour', mode: 'strict', value: '2017-12-01T10:59:59.999999', rows: [
    ['lt', 'lt', '2017-12-01-10'], ['lt-eq', 'lt', '2017-12-01-11'], ['gt', 'gt', '2017-12-01-10'], ['gt-eq', 'gt', '2017-12-01-10'],
    ['not-eq', 'not-eq', '2017-12-01-10'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[2016-12-31-23, 2017-12-01-10]', '2016-12-31T23:59:59.999999'],
  ] },
  { name: 'hour inclusive, lower bound of an hour', transform: 'hour', mode: 'inclusive', value: '2017-12-01T10:00:00', rows: [
    ['lt', 'lt-eq', '2017-12-01-09'], ['lt-eq', 'lt-eq', '2017-12-01-10'], ['gt', 'gt-eq', '2017-12-01-10'], ['gt-eq', 'gt-eq', '2017-12-01-10'],
    ['eq', 'eq', '2017-12-01-10'], ['not-eq', 'true', ''],
    ['in', 'in', '[2016-12-02-00, 2017-12-01-10]', '2016-12-02T00:00:00'], ['not-in', 'true', '', '2016-12-02T00:00:00'],
  ] },
  { name: 'hour inclusive, upper bound of an hour', transform: 'hour', mode: 'inclusive', value: '2017-12-01T10:59:59.999999', rows: [
    ['lt', 'lt-eq', '2017-12-01-10'], ['lt-eq', 'lt-eq', '2017-12-01-10'], ['gt', 'gt-eq', '2017-12-01-11'], ['gt-eq', 'gt-eq', '2017-12-01-10'],
    ['eq', 'eq', '2017-12-01-10'], ['not-eq', 'true', ''],
    ['in', 'in', '[2016-12-31-23, 2017-12-01-10]', '2016-12-31T23:59:59.999999'],
  ] },
];

const dateGroups: Group[] = [
  { name: 'date month strict, lower bound', transform: 'month', mode: 'strict', value: '2017-01-01', rows: [
    ['lt', 'lt', '2017-01'], ['lt-eq', 'lt', '2017-01'], ['gt', 'gt', '2017-01'], ['gt-eq', 'gt', '2016-12'],
    ['not-eq', 'not-eq', '2017-01'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[2017-01, 2017-12]', '2017-12-02'], ['in', 'false', '', '2017-12-02'],
  ] },
  { name: 'date month strict, upper bound', transform: 'month', mode: 'strict', value: '2017-12-31', rows: [
    ['lt', 'lt', '2017-12'], ['lt-eq', 'lt', '2018-01'], ['gt', 'gt', '2017-12'], ['gt-eq', 'gt', '2017-12'],
    ['not-eq', 'not-eq', '2017-12'], ['eq', 'false', ''], ['not-in', 'not-in', '[2017-01, 2017-12]', '2017-01-01'],
  ] },
  { name: 'date month inclusive, lower bound', transform: 'month', mode: 'inclusive', value: '2017-12-01', rows: [
    ['lt', 'lt-eq', '2017-11'], ['lt-eq', 'lt-eq', '2017-12'], ['gt', 'gt-eq', '2017-12'], ['gt-eq', 'gt-eq', '2017-12'],
    ['eq', 'eq', '2017-12'], ['not-eq', 'true', ''],
    ['in', 'in', '[2017-01, 2017-12]', '2017-01-01'], ['not-in', 'true', '', '2017-01-01'],
  ] },
  { name: 'date month inclusive, upper bound', transform: 'month', mode: 'inclusive', value: '2017-12-31', rows: [
    ['lt', 'lt-eq', '2017-12'], ['lt-eq', 'lt-eq', '2017-12'], ['gt', 'gt-eq', '2018-01'], ['gt-eq', 'gt-eq', '2017-12'],
    ['eq', 'eq', '2017-12'], ['not-eq', 'true', ''], ['in', 'in', '[2017-01, 2017-12]', '2017-01-01'],
  ] },
  { name: 'date day strict', transform: 'day', mode: 'strict', value: '2017-01-01', rows: [
    ['lt', 'lt', '2017-01-01'], ['lt-eq', 'lt', '2017-01-02'], ['gt', 'gt', '2017-01-01'], ['gt-eq', 'gt', '2016-12-31'],
    ['not-eq', 'not-eq', '2017-01-01'], ['eq', 'false', ''],
    ['not-in', 'not-in', '[2017-01-01, 2017-12-31]', '2017-12-31'], ['in', 'false', '', '2017-12-31'],
  ] },
  { name: 'date day inclusive', transform: 'day', mode: 'inclusive', value: '2017-01-01', rows: [
    ['lt', 'lt-eq', '2016-12-31'], ['lt-eq', 'lt-eq', '2017-01-01'], ['gt', 'gt-eq', '2017-01-02'], ['gt-eq', 'gt-eq', '2017-01-01'],
    ['eq', 'eq', '2017-01-01'], ['not-eq', 'true', ''],
    ['in', 'in', '[2017-01-01, 2017-12-31]', '2017-12-31'], ['not-in', 'true', '', '2017-12-31'],
  ] },
  { name: 'date year strict, lower bound', transform: 'year', mode: 'strict', value: '2017-01-01', rows: [
    ['lt', 'lt', '2017'], ['lt-eq', 'lt', '2017'], ['gt', 'gt', '2017'], ['gt-eq', 'gt', '2016'], ['not-eq', 'not-eq', '2017'],
    ['eq', 'false', ''], ['not-in', 'not-in', '[2016, 2017]', '2016-12-31'], ['in', 'false', '', '2016-12-31'],
  ] },
  { name: 'date year strict, upper bound', transform: 'year', mode: 'strict', value: '2017-12-31', rows: [
    ['lt', 'lt', '2017'], ['lt-eq', 'lt', '2018'], ['gt', 'gt', '2017'], ['gt-eq', 'gt', '2017'], ['not-eq', 'not-eq', '2017'],
    ['eq', 'false', ''], ['not-in', 'not-in', '[2016, 2017]', '2016-01-01'],
  ] },
  { name: 'date year inclusive, lower bound', transform: 'year', mode: 'inclusive', value: '2017-01-01', rows: [
    ['lt', 'lt-eq', '2016'], ['lt-eq', 'lt-eq', '2017'], ['gt', 'gt-eq', '2017'], ['gt-eq', 'gt-eq', '2017'], ['eq', 'eq', '2017'],
    ['not-eq', 'true', ''], ['in', 'in', '[2016, 2017]', '2016-12-31'],
  ] },
  { name: 'date year inclusive, upper bound', transform: 'year', mode: 'inclusive', value: '2017-12-31', rows: [
    ['lt', 'lt-eq', '2017'], ['lt-eq', 'lt-eq', '2017'], ['gt', 'gt-eq', '2018'], ['gt-eq', 'gt-eq', '2017'], ['eq', 'eq', '2017'],
    ['not-eq', 'true', ''], ['in', 'in', '[2016, 2017]', '2016-01-01'],
  ] },
  // Dates.project / projectStrict: day on a date column is the date itself, so the pre-1970 fix is skipped
  { name: 'date day keeps pre-1970 values exact (no fix)', transform: 'day', mode: 'inclusive', value: '1969-12-31', rows: [
    ['eq', 'eq', '1969-12-31'], ['lt-eq', 'lt-eq', '1969-12-31'], ['in', 'in', '[1969-12-30, 1969-12-31]', '1969-12-30'],
  ] },
  { name: 'date day strict keeps pre-1970 values exact (no fix)', transform: 'day', mode: 'strict', value: '1969-12-31', rows: [
    ['not-eq', 'not-eq', '1969-12-31'], ['gt', 'gt', '1969-12-31'],
  ] },
  { name: 'date month applies the pre-1970 fix', transform: 'month', mode: 'inclusive', value: '1969-12-31', rows: [
    ['eq', 'in', '[1969-12, 1970-01]'],
  ] },
];

for (const group of timestampGroups) check(group, 'timestamp', TS);
for (const group of dateGroups) check(group, 'date', DATE);

t.test('timestamptz and timestamp_ns columns project like timestamps', async (t) => {
  const tz = schemaOf([1, 'ts', T.timestamptz]);
  const [op, text] = describeProjection(inclusiveProjection(p('lt', 'ts', '1969-01-01T00:00:00+00:00'), specOf([1, 'month', 'm']), tz), 'month');
  t.same([op, text], ['lt-eq', '1969-01']);
  const ns = schemaOf([1, 'ts', { kind: 'timestamp_ns' }]);
  const [op2, text2] = describeProjection(
    inclusiveProjection(p('eq', 'ts', '2017-12-01T10:00:00.000000001'), specOf([1, 'hour', 'h']), ns),
    'hour',
  );
  t.same([op2, text2], ['eq', '2017-12-01-10']);
});
