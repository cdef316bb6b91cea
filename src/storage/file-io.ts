/**
 * How everything above storage/ reads bytes. Locations are the strings recorded in Iceberg
 * metadata (s3://…, file:/…, /abs, relative …); an implementation resolves them.
 */
export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
}

/** One entry of a directory listing. */
export interface DirEntry {
  readonly name: string;
  readonly kind: 'file' | 'directory';
}

export interface FileIO {
  /** The whole object. Throws IcefrontError FILE_NOT_FOUND / PATH_OUTSIDE_WAREHOUSE / STORAGE_FAILURE. */
  readFile(location: string): Promise<Buffer>;
  /** `length` bytes from `offset` (fewer only at end of file). */
  readRange(location: string, offset: number, length: number): Promise<Buffer>;
  stat(location: string): Promise<FileStat>;
  /** Whether a regular file exists there (a refused location still throws PATH_OUTSIDE_WAREHOUSE). */
  exists(location: string): Promise<boolean>;
  /**
   * Entries of a directory, sorted by name; FILE_NOT_FOUND when it is not a directory. With
   * `names`, only the entries of those names, as the full listing would show them (a local
   * directory is then asked for those names alone, however many entries it holds).
   */
  list(location: string, names?: readonly string[]): Promise<DirEntry[]>;
  /**
   * Local filesystem only: the real path a read of `location` opens, confined to the warehouse
   * roots as a read is (same errors), for another thread to read it itself (`readLocalFile`,
   * `readLocalRange`). Absent where bytes come from elsewhere (S3: the credentials stay here).
   */
  localPath?(location: string): Promise<string>;
}

/** A FileIO for a whole warehouse that can hand out per-table views. */
export interface WarehouseFileIO extends FileIO {
  /**
   * A FileIO that also reads locations under `tableLocation` (the table's recorded `location`)
   * from `tableDir` (where the table was actually found).
   */
  forTable(tableLocation: string, tableDir: string): FileIO;
}
