/**
 * Validates values against a schema of the Iceberg REST OpenAPI spec in ../shared/spec
 * (`validateAgainst('TableMetadata', value)` → error strings, empty when valid).
 *
 * The spec is OpenAPI 3.1 (JSON Schema 2020-12) with `#/components/schemas/X` refs: the whole
 * document is registered under an id, so every ref resolves inside it. Values may hold bigint
 * and JsonFloat (int64 ids): they are validated as `JSON.parse(stringifyJson(value))`, i.e. as a
 * JSON client would see them.
 *
 * Two spec schemas are read as `anyOf` instead of `oneOf`, because their alternatives overlap
 * and `oneOf` would reject every value of the overlap: `Type` ("variant" is both a VariantType
 * and a PrimitiveType) and `PrimitiveTypeValue` (an integer is both an IntegerTypeValue and a
 * LongTypeValue, a string is a StringTypeValue, a UUIDTypeValue, a DateTypeValue, ...).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { stringifyJson } from '../../src/json/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');
export const OPENAPI_SPEC_PATH = path.resolve(REPO, '../shared/spec/rest-catalog-open-api.yaml');

/** Message for `t.skip` / `{ skip }` when the shared spec is absent. */
export const OPENAPI_SKIP = `REST OpenAPI spec not found at ${OPENAPI_SPEC_PATH} (../shared is absent)`;

export function openApiAvailable(): boolean {
  return fs.existsSync(OPENAPI_SPEC_PATH);
}

const OVERLAPPING_ONE_OF = ['Type', 'PrimitiveTypeValue'];
const DOC_ID = 'https://iceberg.apache.org/rest-catalog-open-api.json';
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function compiler(): Ajv2020 {
  if (ajv !== undefined) return ajv;
  const doc = parseYaml(fs.readFileSync(OPENAPI_SPEC_PATH, 'utf8')) as Record<string, unknown>;
  const instance = new Ajv2020({ strict: false, allErrors: true, logger: false, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(instance);
  const schemas = (doc['components'] as { schemas: Record<string, Record<string, unknown>> }).schemas;
  for (const name of OVERLAPPING_ONE_OF) {
    const { oneOf, ...rest } = schemas[name]!;
    schemas[name] = { ...rest, anyOf: oneOf };
  }
  instance.addSchema({ ...doc, $id: DOC_ID });
  ajv = instance;
  return instance;
}

/** Errors of `value` against `components/schemas/<schemaName>`; an empty array means valid. */
export function validateAgainst(schemaName: string, value: unknown): string[] {
  let validate = validators.get(schemaName);
  if (validate === undefined) {
    validate = compiler().compile({ $ref: `${DOC_ID}#/components/schemas/${schemaName}` });
    validators.set(schemaName, validate);
  }
  const json: unknown = JSON.parse(stringifyJson(value));
  if (validate(json)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
}
