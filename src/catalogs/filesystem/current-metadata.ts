import { fail } from '../../errors/index.js';
import type { TableMetadata } from '../../iceberg/index.js';

/** Hadoop tables: `v<N>.metadata.json` (and gzip `v<N>.gz.metadata.json`; BigQuery's N is an epoch). */
const HADOOP_NAME = /^v(\d+)(?:\.gz)?\.metadata\.json$/;
/** Catalog-written tables: `<N>-<uuid or tag>.metadata.json` (Java pads N to 5 digits; iceberg-rust does not). */
const SEQUENCED_NAME = /^(\d+)-.+\.metadata\.json$/;
/** A bare UUID is not a version number even when its first group is all digits. */
const BARE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:\.gz)?\.metadata\.json$/i;

export const VERSION_HINT_FILES = ['version-hint.text', 'version-hint.txt'] as const;

/** The version number a metadata file name carries, or undefined (`vfinal`, `v3.1`, bare UUIDs). */
export function metadataVersion(file: string): bigint | undefined {
  const hadoop = HADOOP_NAME.exec(file);
  if (hadoop) return BigInt(hadoop[1]!);
  if (BARE_UUID.test(file)) return undefined;
  const sequenced = SEQUENCED_NAME.exec(file);
  return sequenced ? BigInt(sequenced[1]!) : undefined;
}

/**
 * The metadata files a version hint names. Iceberg's HadoopTableOperations writes the version
 * number (`N`); some writers write `vN` or the file's stem (`00001-<uuid>`). An empty hint, or one
 * naming no existing file, names nothing (the caller falls back to version numbers).
 */
export function filesNamedByHint(hint: string, files: readonly string[]): string[] {
  const text = hint.trim();
  if (text === '') return [];
  const numeric = /^v?(\d+)$/.exec(text);
  if (numeric) {
    const version = BigInt(numeric[1]!);
    return files.filter((f) => metadataVersion(f) === version);
  }
  return files.filter((f) => f === text || f === `${text}.metadata.json` || f === `${text}.gz.metadata.json`);
}

/** The files with the highest version number; all files when none carries a number. */
export function highestVersionFiles(files: readonly string[]): string[] {
  let best: bigint | undefined;
  for (const f of files) {
    const v = metadataVersion(f);
    if (v !== undefined && (best === undefined || v > best)) best = v;
  }
  return best === undefined ? [...files] : files.filter((f) => metadataVersion(f) === best);
}

/**
 * The files carrying the version the hint names, then — as Iceberg Java's HadoopTableOperations
 * `refresh()` does — the files of version N+1 while such a file exists: the hint is written after
 * the commit, so a writer that committed again (or crashed before rewriting the hint) leaves it
 * behind. A hint naming a file stem follows that file's version number the same way.
 */
export function filesAfterHint(hint: string, files: readonly string[]): string[] {
  const named = filesNamedByHint(hint, files);
  const start = named.length > 0 ? metadataVersion(named[0]!) : undefined;
  if (start === undefined) return named;
  const versions = new Set(files.map(metadataVersion));
  let version = start;
  while (versions.has(version + 1n)) version += 1n;
  return version === start ? named : files.filter((f) => metadataVersion(f) === version);
}

/** The names HadoopTableOperations gives version `version`'s metadata file (plain and gzip). */
export function hadoopMetadataFiles(version: bigint): string[] {
  return [`v${version}.metadata.json`, `v${version}.gz.metadata.json`];
}

/** Versions asked for at once while a hint is followed: the hint's and the next, then this many more. */
const FOLLOW_BATCH = 4;

/**
 * The files of the current version as Iceberg Java's HadoopTableOperations `refresh()` finds it
 * without listing the folder: a numeric hint's `v<N>` file, then `v<N+1>` while it exists.
 * `present(names)` answers which of those names the metadata folder holds. Undefined when the
 * hint is not a version number or names no such file: the caller then lists the folder
 * (chooseCurrentMetadata), which also knows the names other writers give their files.
 */
export function followHadoopHint(hint: string, present: (names: string[]) => Promise<readonly string[]>): Promise<string[] | undefined> {
  const numeric = /^v?(\d+)$/.exec(hint.trim());
  return numeric ? followHadoopVersions(BigInt(numeric[1]!), present) : Promise.resolve(undefined);
}

/** As followHadoopHint, from version `start`; undefined when it has no `v<start>` file. */
export async function followHadoopVersions(start: bigint, present: (names: string[]) => Promise<readonly string[]>): Promise<string[] | undefined> {
  let found: readonly string[] = [];
  let next = start;
  for (let batch = 2; ; batch = FOLLOW_BATCH) {
    const versions = Array.from({ length: batch }, (_, i) => next + BigInt(i));
    const names = await present(versions.flatMap(hadoopMetadataFiles));
    for (const version of versions) {
      const files = hadoopMetadataFiles(version).filter((f) => names.includes(f));
      if (files.length === 0) return found.length > 0 ? [...found] : undefined;
      found = files;
    }
    next += BigInt(batch);
  }
}

/**
 * The current metadata: the hinted version (followed forward while the next version exists) when
 * the hint names an existing file, else the highest version number; ties (several files for one
 * version, or no numbered files) go to the newest `last-updated-ms`, then to the greatest file
 * name so the choice is deterministic.
 */
export async function chooseCurrentMetadata<T extends { readonly metadata: TableMetadata }>(
  files: readonly string[],
  hint: string | undefined,
  load: (file: string) => Promise<T>,
): Promise<T & { file: string }> {
  const hinted = hint === undefined ? [] : filesAfterHint(hint, files);
  const candidates = hinted.length > 0 ? hinted : highestVersionFiles(files);
  let best: (T & { file: string }) | undefined;
  for (const file of [...candidates].sort()) {
    const read = await load(file);
    if (!best || read.metadata.lastUpdatedMs >= best.metadata.lastUpdatedMs) best = { ...read, file };
  }
  if (!best) throw fail('INTERNAL', 'chooseCurrentMetadata needs at least one file');
  return best;
}
