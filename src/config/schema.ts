/** JSON Schema of the YAML configuration (validated with ajv after `${ENV}` substitution). */
const catalogName = '^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$';

const filesystemCatalog = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'warehouse'],
  properties: {
    type: { const: 'filesystem' },
    warehouse: { type: 'string', minLength: 1 },
    locations: {
      type: 'object',
      propertyNames: { minLength: 1 },
      additionalProperties: { type: 'string', minLength: 1 },
    },
    planning: { enum: ['on', 'off', true, false] },
  },
} as const;

export const CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['catalogs'],
  properties: {
    server: {
      type: 'object',
      additionalProperties: false,
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
        'body-limit': { type: 'integer', minimum: 1024, maximum: 1073741824 },
      },
    },
    planning: {
      type: 'object',
      additionalProperties: false,
      properties: {
        'batch-size': { type: 'integer', minimum: 0 },
        'max-response-bytes': { type: 'integer', minimum: 4096 },
        'cache-bytes': { type: 'integer', minimum: 0 },
        'token-secret': { type: 'string', minLength: 16 },
      },
    },
    logging: {
      type: 'object',
      additionalProperties: false,
      properties: { level: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] } },
    },
    catalogs: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: catalogName },
      additionalProperties: {
        type: 'object',
        required: ['type'],
        properties: { type: { enum: ['filesystem'] } },
        if: { properties: { type: { const: 'filesystem' } } },
        then: filesystemCatalog,
      },
    },
  },
} as const;
