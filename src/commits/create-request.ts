/**
 * REST spec CreateTableRequest, read as Java's CreateTableRequest (Jackson) and its validate():
 * `name` and `schema` required, `stage-create` a boolean, properties a string map. The schema,
 * spec and write order are parsed here so a malformed one is a 400 before anything is created;
 * the request keeps their JSON for newTableMetadata.
 */
import { JsonFloat } from '../json/index.js';
import type { CreateTableRequest } from './api.js';
import { asObject, at, badRequest, hasMember, optString, reqString, reqValue, setKey, type JsonObject } from './request-json.js';
import { parseRequestSchema, parseRequestSortOrder, parseRequestSpec } from './update-parse.js';

export function parseCreateTableRequest(body: unknown): CreateTableRequest {
  const obj = asObject(body, '');
  const name = reqString(obj, 'name', '');
  if (name === '') throw badRequest('name', 'must not be empty');
  const location = optString(obj, 'location', '');
  const schema = reqValue(obj, 'schema', '');
  parseRequestSchema(schema, 'schema');
  const partitionSpec = optionalMember(obj, 'partition-spec');
  if (partitionSpec !== undefined) parseRequestSpec(partitionSpec, 'partition-spec');
  const writeOrder = optionalMember(obj, 'write-order');
  if (writeOrder !== undefined) parseRequestSortOrder(writeOrder, 'write-order');
  return {
    name,
    ...(location !== undefined && { location }),
    schema,
    ...(partitionSpec !== undefined && { partitionSpec }),
    ...(writeOrder !== undefined && { writeOrder }),
    stageCreate: readStageCreate(obj),
    properties: readProperties(obj),
  };
}

function optionalMember(obj: JsonObject, key: string): unknown {
  const v = obj[key];
  return v === null || !hasMember(obj, key) ? undefined : v;
}

// Java: a missing flag is false; an explicit null fails validate() ("Invalid stageCreate flag: null")
function readStageCreate(obj: JsonObject): boolean {
  if (!hasMember(obj, 'stage-create')) return false;
  const v = obj['stage-create'];
  if (typeof v !== 'boolean') throw badRequest('stage-create', `must be a boolean, got ${v === null ? 'null' : typeof v}`);
  return v;
}

/**
 * Jackson reads a Map<String, String> leniently: numbers and booleans become their text. A null
 * value is refused (Java's ImmutableMap would not hold it), as is a nested value.
 */
function readProperties(obj: JsonObject): Record<string, string> {
  const raw = optionalMember(obj, 'properties');
  const out: Record<string, string> = {};
  if (raw === undefined) return out;
  for (const [k, v] of Object.entries(asObject(raw, 'properties'))) {
    if (typeof v === 'string') setKey(out, k, v);
    else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') setKey(out, k, String(v));
    else if (v instanceof JsonFloat) setKey(out, k, v.text);
    else throw badRequest(at('properties', k), 'must be a string');
  }
  return out;
}
