/**
 * An S3 FileIO from the `config` of a LoadTableResult (REST spec, LoadTableResult.config:
 * vended credentials and storage settings), falling back to the catalog's static settings.
 * Property names are Iceberg's S3FileIOProperties / AwsClientProperties.
 */
import type { S3StorageConfig } from '../../config/index.js';
import type { FileIO } from '../file-io.js';
import { createS3FileIO, type S3FileIOOptions } from './s3-file-io.js';
import type { S3Credentials } from './s3-transport.js';

export const S3_PROPERTIES = {
  accessKeyId: 's3.access-key-id',
  secretAccessKey: 's3.secret-access-key',
  sessionToken: 's3.session-token',
  endpoint: 's3.endpoint',
  pathStyle: 's3.path-style-access',
  region: 's3.region',
  clientRegion: 'client.region',
} as const;

/**
 * What a client needs besides credentials to reach a table's files on S3 as Icefront does, for a
 * LoadTableResult's `config` (REST spec: "config: table-specific configuration overriding
 * catalog configuration"): the endpoint, path-style addressing (when on) and the region, under
 * Iceberg Java's names (s3.endpoint, s3.path-style-access, client.region) and pyiceberg's
 * (s3.region). Never a credential: Icefront vends none, clients bring their own.
 */
export function s3ClientProperties(settings: S3StorageConfig): Record<string, string> {
  return {
    ...(settings.endpoint !== undefined && { [S3_PROPERTIES.endpoint]: settings.endpoint }),
    ...(settings.pathStyle && { [S3_PROPERTIES.pathStyle]: 'true' }),
    [S3_PROPERTIES.region]: settings.region,
    [S3_PROPERTIES.clientRegion]: settings.region,
  };
}

/** The region used when neither the table config nor the catalog names one. */
export const DEFAULT_S3_REGION = 'us-east-1';

/** Transport settings that are not storage properties. */
export type S3TransportOverrides = Pick<S3FileIOOptions, 'fetch' | 'timeoutMs' | 'retries'>;

/**
 * Vended values win over the catalog's static ones, setting by setting; credentials only as a
 * whole (a vended key id never pairs with a static secret). No credentials at all means
 * unsigned requests.
 */
export function s3FileIOFromTableConfig(
  config: Readonly<Record<string, string>>,
  fallback?: S3StorageConfig,
  overrides: S3TransportOverrides = {},
): FileIO {
  return createS3FileIO(s3OptionsFromTableConfig(config, fallback, overrides));
}

/** The options `s3FileIOFromTableConfig` builds its FileIO from. */
export function s3OptionsFromTableConfig(
  config: Readonly<Record<string, string>>,
  fallback?: S3StorageConfig,
  overrides: S3TransportOverrides = {},
): S3FileIOOptions {
  const get = (name: string): string | undefined => {
    const v = Object.hasOwn(config, name) ? config[name]?.trim() : undefined;
    return v === '' ? undefined : v;
  };
  const pathStyle = get(S3_PROPERTIES.pathStyle);
  return {
    endpoint: get(S3_PROPERTIES.endpoint) ?? fallback?.endpoint,
    // PyIceberg's order: s3.region, then client.region
    region: get(S3_PROPERTIES.region) ?? get(S3_PROPERTIES.clientRegion) ?? fallback?.region ?? DEFAULT_S3_REGION,
    // Java Boolean.parseBoolean: only "true" (any case) is true
    pathStyle: pathStyle !== undefined ? pathStyle.toLowerCase() === 'true' : (fallback?.pathStyle ?? false),
    credentials: vendedCredentials(get) ?? staticCredentials(fallback),
    ...overrides,
  };
}

function vendedCredentials(get: (name: string) => string | undefined): S3Credentials | undefined {
  const accessKeyId = get(S3_PROPERTIES.accessKeyId);
  const secretAccessKey = get(S3_PROPERTIES.secretAccessKey);
  if (accessKeyId === undefined || secretAccessKey === undefined) return undefined;
  return { accessKeyId, secretAccessKey, sessionToken: get(S3_PROPERTIES.sessionToken) };
}

function staticCredentials(fallback: S3StorageConfig | undefined): S3Credentials | undefined {
  if (!fallback?.accessKeyId || !fallback.secretAccessKey) return undefined;
  return { accessKeyId: fallback.accessKeyId, secretAccessKey: fallback.secretAccessKey, sessionToken: fallback.sessionToken };
}
