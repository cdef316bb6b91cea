/**
 * How a catalog Icefront keeps itself writes its metadata files: on a local disk
 * (local-file-writer.ts) or to S3 (s3/s3-file-writer.ts). Every location must lie inside the
 * writer's roots (its warehouse and configured locations). Failures: PATH_OUTSIDE_WAREHOUSE,
 * FORBIDDEN (S3 refused the credentials), STORAGE_FAILURE (including an outcome that cannot be
 * known: a write that got no answer).
 */
export interface FileWriter {
  /**
   * Creates `location` holding `bytes`, unless a file is already there: then nothing changes and
   * the answer is false. Of writers racing for one name exactly one gets true, and a reader never
   * sees a part-written file (issue #40: the atomic version step a commit's swap relies on).
   */
  createExclusive(location: string, bytes: Uint8Array): Promise<boolean>;
  /**
   * Writes `location` whole, replacing what is there atomically. `durable: false` allows skipping
   * flushes, for a file that only speeds readers up and that a crash may leave old or empty
   * (HadoopCatalog's version hint: readers look past it).
   */
  replace(location: string, bytes: Uint8Array, options?: { readonly durable?: boolean }): Promise<void>;
  /** Removes a file; one already gone is not an error. */
  deleteFile(location: string): Promise<void>;
  /** Creates a directory (and its parents); false when it already existed. */
  makeDirectory(location: string): Promise<boolean>;
  /** Removes an empty directory; false when it holds anything (nothing is removed). */
  removeEmptyDirectory(location: string): Promise<boolean>;
  /** Removes a directory and everything below it; one already gone is not an error. */
  removeTree(location: string): Promise<void>;
}
