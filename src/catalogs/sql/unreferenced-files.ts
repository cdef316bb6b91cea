import type { FileWriter } from '../../storage/index.js';

/**
 * Removes metadata files no row names (a lost race's), without holding up the commit's retry or
 * its answer: on S3 each is a round trip, and a commit that loses several races under load would
 * wait one per loss. One that fails leaves a file no row names, which no reader follows.
 */
export function discardUnreferenced(writer: FileWriter, locations: readonly string[]): void {
  for (const location of locations) void writer.deleteFile(location).catch(() => undefined);
}
