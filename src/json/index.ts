/**
 * Lossless JSON for the whole project. Iceberg ids and sequence numbers are int64 (often above
 * 2^53) and float single values must keep their decimal point (wire-format.md §17), so
 * `JSON.parse`/`JSON.stringify` are not enough.
 */
export { JsonFloat, jsonFloat } from './float.js';
export { parseJson } from './parse.js';
export { RawJson } from './raw.js';
export { joinedParts, jsonBody, jsonIntegerLength, jsonParts, jsonLength, jsonStringLength, partsByteLength, stringifyJson } from './stringify.js';
