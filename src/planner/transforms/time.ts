import {
  civilFromDays,
  floorDiv,
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  NANOS_PER_MICRO,
  type IcebergType,
} from '../../iceberg/index.js';
import { fail } from '../../errors/index.js';

export type TimeUnit = 'year' | 'month' | 'day' | 'hour';

/**
 * year/month/day/hour as floor counts from 1970-01-01T00:00 (spec "Partition Transforms"; Java
 * `DateTimeUtil.convertDays/convertMicros/convertNanos`, whose negative branch yields the floor):
 * 1969-12-31T23:00 is day -1 and hour -1. Dates count in days, timestamps in µs, and
 * timestamp_ns is floor-divided to µs first. The day of a date is the date itself.
 */
export function timeTransform(unit: TimeUnit, type: IcebergType, value: unknown): number {
  if (type.kind === 'date') {
    if (typeof value !== 'number' || unit === 'hour') throw cannot(unit, type, value);
    return fromDays(unit, value);
  }
  let micros: bigint;
  switch (type.kind) {
    case 'timestamp':
    case 'timestamptz':
      if (typeof value !== 'bigint') throw cannot(unit, type, value);
      micros = value;
      break;
    case 'timestamp_ns':
    case 'timestamptz_ns':
      if (typeof value !== 'bigint') throw cannot(unit, type, value);
      micros = floorDiv(value, NANOS_PER_MICRO);
      break;
    default:
      throw cannot(unit, type, value);
  }
  if (unit === 'hour') return Number(floorDiv(micros, MICROS_PER_HOUR));
  return fromDays(unit, Number(floorDiv(micros, MICROS_PER_DAY)));
}

function fromDays(unit: Exclude<TimeUnit, 'hour'>, days: number): number {
  if (unit === 'day') return days;
  const { year, month } = civilFromDays(days);
  return unit === 'year' ? year - 1970 : (year - 1970) * 12 + (month - 1);
}

function cannot(unit: TimeUnit, type: IcebergType, value: unknown): Error {
  return fail('INVALID_VALUE', `Cannot apply ${unit} to a ${typeof value} of type ${type.kind}`);
}
