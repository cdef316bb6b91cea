/**
 * Lossless JSON for the whole project. Iceberg ids and sequence numbers are int64 (often above
 * 2^53) and float single values must keep their decimal point (wire-format.md §17), so
 * `JSON.parse`/`JSON.stringify` are not enough.
 */
export { JsonFloat, jsonFloat } from './json-float.js';
export { parseJson } from './json-parse.js';
export { jsonLength, stringifyJson } from './json-stringify.js';
