/**
 * The bytes of planning's reads from remote storage, kept. Manifest lists, manifests and delete
 * files are never changed once written (spec "Overview": a table's files are immutable; a change
 * writes new ones), so one read of a location serves every later one. That is what a plan with a
 * new filter needs: its slices (caching-source.ts, keyed by the columns whose stats they keep)
 * are not cached yet, and it decodes every manifest again; with the bytes at hand it does so
 * without a round trip to the store for each (issue #41: "a new filter on a table Icefront has
 * read before"). Raw manifests are several times smaller than their decoded slices, so a small
 * share of the budget holds a large table's. Local files are left to the OS's page cache.
 */
import type { ComputeCache } from '../../cache/index.js';
import type { FileIO } from '../../storage/index.js';

/**
 * `io` with whole-file reads kept in `cache` under the catalog `prefix` (two catalogs may reach
 * different stores under one location) and the location; a range of a kept file is cut from it.
 * An IO with local paths is returned as it is.
 */
export function keepRemoteBytes(io: FileIO, prefix: string, cache: ComputeCache<Buffer>): FileIO {
  if (io.localPath) return io;
  const key = (location: string) => JSON.stringify([prefix, location]);
  return {
    readFile: (location) => cache.get(key(location), () => io.readFile(location)),
    readRange: (location, offset, length) => {
      const whole = cache.peek(key(location));
      return whole ? Promise.resolve(whole.subarray(offset, offset + length)) : io.readRange(location, offset, length);
    },
    stat: (location) => io.stat(location),
    exists: (location) => io.exists(location),
    list: (location, names) => io.list(location, names),
  };
}
