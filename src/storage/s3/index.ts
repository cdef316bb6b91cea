/** S3 FileIO: SigV4-signed GET / ranged GET / HEAD / ListObjectsV2 against S3-compatible stores. */
export { createS3FileIO, DEFAULT_S3_TIMEOUT_MS, type S3FileIOOptions } from './s3-file-io.js';
/** S3 FileWriter: conditional PutObject, PutObject, DeleteObject(s), confined to its roots. */
export { createS3FileWriter, type S3FileWriterOptions } from './s3-file-writer.js';
export {
  s3FileIOFromTableConfig,
  s3OptionsFromTableConfig,
  s3ClientProperties,
  DEFAULT_S3_REGION,
  S3_PROPERTIES,
  type S3TransportOverrides,
} from './table-config.js';
export type { S3Credentials } from './s3-transport.js';
export { parseS3Location, type S3ObjectLocation } from './s3-location.js';
