import { fail } from '../../errors/index.js';
import { floorDiv, floorMod } from './value.js';

/**
 * ISO-8601 text for Iceberg date/time values, matching Java `DateTimeUtil` (java.time
 * `ISO_LOCAL_DATE`, `ISO_LOCAL_TIME`, `ISO_LOCAL_DATE_TIME`, `ISO_DATE_TIME`), proleptic
 * Gregorian, UTC only. Dates are days (number); times are µs of day; timestamps are µs or ns
 * from 1970-01-01T00:00 (bigint).
 */

export const MICROS_PER_SECOND = 1_000_000n;
export const MICROS_PER_HOUR = 3_600_000_000n;
export const MICROS_PER_DAY = 86_400_000_000n;
export const NANOS_PER_MICRO = 1_000n;
export const NANOS_PER_DAY = 86_400_000_000_000n;
const NANOS_PER_SECOND = 1_000_000_000n;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** Days from 1970-01-01 of a proleptic Gregorian date (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The proleptic Gregorian date of a day count from 1970-01-01. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const DATE_RE = /^([+-]?)(\d{4,9})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
/**
 * The offset that ends a timestamptz: `Z`, `±HH`, `±HHMM`, `±HH:MM`, `±HHMMSS`, `±HH:MM:SS`, as
 * Java 9+'s ISO_OFFSET_DATE_TIME parses it (leniently: minutes and seconds optional); the
 * separator, when there is one, is the same throughout.
 */
const OFFSET_RE = /(?:([Zz])|([+-])(\d{2})(?:(:?)(\d{2})(?:\4(\d{2}))?)?)$/;

function bad(kind: string, text: string): Error {
  return fail('INVALID_VALUE', `Invalid ${kind} value: ${JSON.stringify(text)}`);
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** `YYYY-MM-DD` (years beyond 9999 need a sign, as in ISO_LOCAL_DATE) → days from 1970-01-01. */
export function isoDateToDays(text: string): number {
  const m = DATE_RE.exec(text);
  if (!m || (m[1] === '' && m[2]!.length > 4)) throw bad('date', text);
  const year = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  const month = Number(m[3]);
  const day = Number(m[4]);
  const monthDays = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > monthDays[month - 1]!) throw bad('date', text);
  return daysFromCivil(year, month, day);
}

/** Days from 1970-01-01 → `YYYY-MM-DD` (ISO_LOCAL_DATE: `+` before years past 9999). */
export function daysToIsoDate(days: number): string {
  const { year, month, day } = civilFromDays(days);
  const abs = Math.abs(year);
  const yearText = (year < 0 ? '-' : abs > 9999 ? '+' : '') + String(abs).padStart(4, '0');
  return `${yearText}-${pad2(month)}-${pad2(day)}`;
}

function parseNanoOfDay(text: string, kind: string, whole: string): bigint {
  const m = TIME_RE.exec(text);
  if (!m) throw bad(kind, whole);
  const h = Number(m[1]);
  const min = Number(m[2]);
  const s = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 23 || min > 59 || s > 59) throw bad(kind, whole);
  const fraction = BigInt((m[4] ?? '').padEnd(9, '0'));
  return BigInt(h * 3600 + min * 60 + s) * NANOS_PER_SECOND + fraction;
}

/** `HH:MM[:SS[.fffffffff]]` → µs of day (sub-µs digits are dropped, as `toNanoOfDay() / 1000`). */
export function isoTimeToMicros(text: string): bigint {
  return parseNanoOfDay(text, 'time', text) / NANOS_PER_MICRO;
}

/** µs of day → `HH:MM:SS[.fraction]`, fraction trimmed of trailing zeros (ISO_LOCAL_TIME). */
export function microsToIsoTime(micros: bigint): string {
  if (micros < 0n || micros >= MICROS_PER_DAY) throw fail('INVALID_VALUE', `Invalid time value: ${micros} µs is outside one day`);
  return formatNanoOfDay(micros * NANOS_PER_MICRO);
}

function formatNanoOfDay(nanos: bigint): string {
  const secs = Number(nanos / NANOS_PER_SECOND);
  const frac = nanos % NANOS_PER_SECOND;
  const base = `${pad2(Math.floor(secs / 3600))}:${pad2(Math.floor(secs / 60) % 60)}:${pad2(secs % 60)}`;
  if (frac === 0n) return base;
  return `${base}.${frac.toString().padStart(9, '0').replace(/0+$/, '')}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Splits `date[Tt]time` and returns ns from the epoch, read as UTC wall time. */
function parseLocalDateTimeNanos(text: string, kind: string, whole: string): bigint {
  const t = text.search(/[Tt]/);
  if (t < 0) throw bad(kind, whole);
  let days: number;
  try {
    days = isoDateToDays(text.slice(0, t));
  } catch {
    throw bad(kind, whole);
  }
  return BigInt(days) * NANOS_PER_DAY + parseNanoOfDay(text.slice(t + 1), kind, whole);
}

/** A date-time with a required offset (OFFSET_RE): ns from the epoch in UTC and the offset. */
export function parseOffsetDateTime(text: string): { nanos: bigint; offsetSeconds: number } {
  const m = OFFSET_RE.exec(text);
  if (!m) throw bad('timestamptz', text);
  let offsetSeconds = 0;
  if (m[1] === undefined) {
    const hh = Number(m[3]);
    const mm = m[5] === undefined ? 0 : Number(m[5]);
    const ss = m[6] === undefined ? 0 : Number(m[6]);
    if (hh > 18 || mm > 59 || ss > 59) throw bad('timestamptz', text);
    offsetSeconds = (m[2] === '-' ? -1 : 1) * (hh * 3600 + mm * 60 + ss);
  }
  const local = parseLocalDateTimeNanos(text.slice(0, m.index), 'timestamptz', text);
  return { nanos: local - BigInt(offsetSeconds) * NANOS_PER_SECOND, offsetSeconds };
}

function inLong(v: bigint, kind: string, text: string): bigint {
  if (v < LONG_MIN || v > LONG_MAX) throw bad(kind, text);
  return v;
}

/**
 * `YYYY-MM-DDTHH:MM[:SS[.f]]` without offset → µs from the epoch. Sub-µs digits are dropped
 * toward zero, as Java's `ChronoUnit.MICROS.between` does.
 */
export function isoTimestampToMicros(text: string): bigint {
  return inLong(parseLocalDateTimeNanos(text, 'timestamp', text) / NANOS_PER_MICRO, 'timestamp', text);
}

/** `YYYY-MM-DDTHH:MM[:SS[.f]]` without offset → ns from the epoch. */
export function isoTimestampToNanos(text: string): bigint {
  return inLong(parseLocalDateTimeNanos(text, 'timestamp_ns', text), 'timestamp_ns', text);
}

/** A timestamp with any offset, normalised to UTC → µs from the epoch. */
export function isoTimestamptzToMicros(text: string): bigint {
  return inLong(parseOffsetDateTime(text).nanos / NANOS_PER_MICRO, 'timestamptz', text);
}

/** A timestamp with any offset, normalised to UTC → ns from the epoch. */
export function isoTimestamptzToNanos(text: string): bigint {
  return inLong(parseOffsetDateTime(text).nanos, 'timestamptz_ns', text);
}

/** True when the text parses with an offset of zero (`Z`, `+00:00`, `-00:00`), Java `isUTCTimestamptz`. */
export function isUtcTimestamptz(text: string): boolean {
  return parseOffsetDateTime(text).offsetSeconds === 0;
}

function formatEpochNanos(nanos: bigint): string {
  const days = floorDiv(nanos, NANOS_PER_DAY);
  return `${daysToIsoDate(Number(days))}T${formatNanoOfDay(floorMod(nanos, NANOS_PER_DAY))}`;
}

/** µs → `2024-01-01T10:15:30.123456`, no fraction when zero (ISO_LOCAL_DATE_TIME). */
export function microsToIsoTimestamp(micros: bigint): string {
  return formatEpochNanos(micros * NANOS_PER_MICRO);
}

/** µs → `2024-01-01T10:15:30.123456+00:00`. */
export function microsToIsoTimestamptz(micros: bigint): string {
  return `${microsToIsoTimestamp(micros)}+00:00`;
}

/** ns → `2024-01-01T10:15:30.123456789`, fraction trimmed. */
export function nanosToIsoTimestamp(nanos: bigint): string {
  return formatEpochNanos(nanos);
}

/** ns → `2024-01-01T10:15:30.123456789+00:00`. */
export function nanosToIsoTimestamptz(nanos: bigint): string {
  return `${formatEpochNanos(nanos)}+00:00`;
}
