export type { LiteralValue, PrimitiveValue, StructValue, ListValue, MapValue } from './value.js';
export { floorDiv, floorMod } from './value.js';
export { toBinary, fromBinary } from './binary.js';
export { toJsonSingleValue, fromJsonSingleValue, floatJson } from './json-value.js';
export { compareValues, compareFloats, compareStrings, compareBytes } from './compare.js';
export { hexUpper, fromHex } from './hex.js';
export { normalizeUuid, uuidToBytes, uuidFromBytes, compareUuidsJava, compareUuidsRfc } from './uuid.js';
export { decimalToBytes, decimalFromBytes, parseDecimalText, decimalFromString, formatDecimal } from './decimal.js';
export {
  MICROS_PER_SECOND,
  MICROS_PER_HOUR,
  MICROS_PER_DAY,
  NANOS_PER_MICRO,
  NANOS_PER_DAY,
  daysFromCivil,
  civilFromDays,
  isoDateToDays,
  daysToIsoDate,
  isoTimeToMicros,
  microsToIsoTime,
  parseOffsetDateTime,
  isoTimestampToMicros,
  isoTimestampToNanos,
  isoTimestamptzToMicros,
  isoTimestamptzToNanos,
  isUtcTimestamptz,
  microsToIsoTimestamp,
  microsToIsoTimestamptz,
  nanosToIsoTimestamp,
  nanosToIsoTimestamptz,
} from './datetime.js';
