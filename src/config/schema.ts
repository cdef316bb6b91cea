/**
 * JSON Schema of the YAML configuration (validated with ajv after `${ENV}` substitution, every
 * error at once). An `if` names its discriminator as required: without it a block missing its
 * `type` (or `mode`) would match every branch and be reported against all of them.
 */
import { AUTH_SCHEMA } from './auth.js';

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
    'refresh-ms': { type: 'integer', minimum: 0, maximum: 60000 },
    'read-only': { type: 'boolean' },
    'metadata-cache-bytes': { type: 'integer', minimum: 0 },
  },
} as const;

/** `storage.s3`: how Icefront reaches S3 (a `rest` catalog's tables when it plans; a `sql` catalog's S3 warehouse). */
const s3Storage = {
  type: 'object',
  additionalProperties: false,
  properties: {
    endpoint: { type: 'string', pattern: '^https?://[^\\s]+$' },
    region: { type: 'string', minLength: 1 },
    'path-style': { type: 'boolean' },
    'access-key-id': { type: 'string', minLength: 1 },
    'secret-access-key': { type: 'string', minLength: 1 },
    'session-token': { type: 'string', minLength: 1 },
  },
} as const;

const sqlCatalog = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'uri', 'warehouse-location'],
  properties: {
    type: { const: 'sql' },
    uri: { type: 'string', pattern: '^(postgres(ql)?://|sqlite:)' },
    'catalog-name': { type: 'string', minLength: 1, maxLength: 255 },
    'warehouse-location': {
      type: 'string',
      minLength: 1,
      pattern: '^(file:|s3[an]?://[^/\\s?#@]+(/\\S*)?$|[^:]*$)',
      description: 'must be a local folder (a path, or a file: URI) or s3://bucket/prefix: Icefront writes metadata files to local disk or S3 only',
    },
    locations: {
      type: 'object',
      propertyNames: { minLength: 1 },
      additionalProperties: { type: 'string', minLength: 1 },
    },
    planning: { enum: ['on', 'off', true, false] },
    'read-only': { type: 'boolean' },
    'metadata-cache-bytes': { type: 'integer', minimum: 0 },
    'schema-version': { enum: ['V0', 'V1'] },
    storage: { type: 'object', additionalProperties: false, properties: { s3: s3Storage } },
  },
} as const;

const restCatalog = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'uri'],
  properties: {
    type: { const: 'rest' },
    uri: { type: 'string', pattern: '^https?://[^\\s]+$' },
    warehouse: { type: 'string', minLength: 1 },
    planning: { enum: ['auto', 'upstream', 'upstream-paged', 'local'] },
    auth: {
      type: 'object',
      required: ['mode'],
      properties: { mode: { enum: ['forward', 'bearer', 'oauth2', 'sigv4'] } },
      allOf: [
        {
          if: { required: ['mode'], properties: { mode: { const: 'forward' } } },
          then: { additionalProperties: false, properties: { mode: {} } },
        },
        {
          if: { required: ['mode'], properties: { mode: { const: 'bearer' } } },
          then: { additionalProperties: false, required: ['token'], properties: { mode: {}, token: { type: 'string', minLength: 1 } } },
        },
        {
          if: { required: ['mode'], properties: { mode: { const: 'oauth2' } } },
          then: {
            additionalProperties: false,
            required: ['token-url', 'client-id', 'client-secret'],
            properties: {
              mode: {},
              'token-url': { type: 'string', pattern: '^https?://[^\\s]+$' },
              'client-id': { type: 'string', minLength: 1 },
              'client-secret': { type: 'string', minLength: 1 },
              scope: { type: 'string', minLength: 1 },
            },
          },
        },
        {
          if: { required: ['mode'], properties: { mode: { const: 'sigv4' } } },
          then: {
            additionalProperties: false,
            required: ['signing-name'],
            properties: {
              mode: {},
              'signing-name': { type: 'string', pattern: '^[a-z0-9-]+$' },
              region: { type: 'string', pattern: '^[a-z0-9-]+$' },
              profile: { type: 'string', minLength: 1 },
              'role-arn': { type: 'string', pattern: '^arn:[\\w-]+:iam::\\d{12}:role/\\S+$' },
              'role-session-name': { type: 'string', pattern: '^[\\w+=,.@-]{2,64}$' },
              'external-id': { type: 'string', minLength: 2 },
            },
          },
        },
      ],
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        'config-bytes': { type: 'integer', minimum: 4096 },
        'load-table-bytes': { type: 'integer', minimum: 4096 },
        'max-in-flight': { type: 'integer', minimum: 1, maximum: 100000 },
        'max-queued': { type: 'integer', minimum: 0, maximum: 1000000 },
      },
    },
    tls: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        'ca-file': { type: 'string', minLength: 1 },
        'cert-file': { type: 'string', minLength: 1 },
        'key-file': { type: 'string', minLength: 1 },
        'server-name': { type: 'string', minLength: 1, pattern: '^[^\\s/:]+$' },
      },
      dependencies: { 'cert-file': ['key-file'], 'key-file': ['cert-file'] },
    },
    timeouts: {
      type: 'object',
      additionalProperties: false,
      properties: {
        'connect-ms': { type: 'integer', minimum: 1, maximum: 600000 },
        'request-ms': { type: 'integer', minimum: 1, maximum: 3600000 },
      },
    },
    storage: {
      type: 'object',
      additionalProperties: false,
      properties: {
        s3: s3Storage,
        local: {
          type: 'object',
          additionalProperties: false,
          required: ['roots'],
          properties: {
            roots: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
            locations: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
          },
        },
      },
    },
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
        'public-url': { type: 'string', pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$' },
        'upstream-buffer-bytes': { type: 'integer', minimum: 1048576 },
        'shutdown-grace-ms': { type: 'integer', minimum: 0, maximum: 3600000 },
        'readiness-interval-ms': { type: 'integer', minimum: 50, maximum: 3600000 },
        tls: {
          type: 'object',
          additionalProperties: false,
          required: ['cert-file', 'key-file'],
          properties: {
            'cert-file': { type: 'string', minLength: 1 },
            'key-file': { type: 'string', minLength: 1 },
            'ca-file': { type: 'string', minLength: 1 },
          },
        },
        'trusted-proxies': {
          type: 'array',
          items: { type: 'string', pattern: '^[0-9a-fA-F:.]+(/[0-9]{1,3})?$' },
        },
      },
    },
    planning: {
      type: 'object',
      additionalProperties: false,
      properties: {
        'batch-size': { type: 'integer', minimum: 0 },
        'max-response-bytes': { type: 'integer', minimum: 4096 },
        'gzip-page-bytes': { type: 'integer', minimum: 4096, maximum: 268435456 },
        'cache-bytes': { type: 'integer', minimum: 0 },
        'cache-idle-seconds': { type: 'integer', minimum: 0, maximum: 31536000 },
        'token-secret': { type: 'string', minLength: 16 },
        workers: { anyOf: [{ type: 'integer', minimum: 0, maximum: 64 }, { const: 'auto' }] },
      },
    },
    auth: AUTH_SCHEMA,
    tracing: {
      type: 'object',
      additionalProperties: false,
      properties: {
        'otlp-endpoint': { type: 'string', pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$' },
        'service-name': { type: 'string', minLength: 1 },
        'sample-ratio': { type: 'number', minimum: 0, maximum: 1 },
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
        properties: { type: { enum: ['filesystem', 'sql', 'rest'] } },
        allOf: [
          { if: { required: ['type'], properties: { type: { const: 'filesystem' } } }, then: filesystemCatalog },
          { if: { required: ['type'], properties: { type: { const: 'sql' } } }, then: sqlCatalog },
          { if: { required: ['type'], properties: { type: { const: 'rest' } } }, then: restCatalog },
        ],
      },
    },
  },
} as const;

/** The keys of the top level (`planning`, `server`…): an entry under `catalogs` named so, without a `type`, is that block misplaced. */
export const TOP_LEVEL_KEYS: readonly string[] = Object.keys(CONFIG_SCHEMA.properties);

/** The keys a catalog may have, of either type: an entry under `catalogs` named so, without a `type`, is a catalog's key one level too high. */
export const CATALOG_KEYS: readonly string[] = [...new Set([...Object.keys(filesystemCatalog.properties), ...Object.keys(sqlCatalog.properties), ...Object.keys(restCatalog.properties)])];
