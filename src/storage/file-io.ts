/**
 * How everything above storage/ reads bytes. Locations are the strings recorded in Iceberg
 * metadata (s3://…, file:/…, /abs, relative …); an implementation resolves them.
 */
export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
}

export interface FileIO {
  /** The whole object. Throws IcefrontError FILE_NOT_FOUND / PATH_OUTSIDE_WAREHOUSE / STORAGE_FAILURE. */
  readFile(location: string): Promise<Buffer>;
  /** `length` bytes from `offset` (fewer only at end of file). */
  readRange(location: string, offset: number, length: number): Promise<Buffer>;
  stat(location: string): Promise<FileStat>;
  exists(location: string): Promise<boolean>;
}
