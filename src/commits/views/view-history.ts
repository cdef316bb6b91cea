/**
 * How many view versions a view keeps and which (Java ViewMetadata.Builder.build,
 * expireVersions, updateHistory; ViewProperties), and the view properties the builder reads.
 */
import { fail } from '../../errors/index.js';
import type { ViewHistoryEntry, ViewVersion } from '../../iceberg/index.js';

/** ViewProperties.VERSION_HISTORY_SIZE and its default. */
export const VERSION_HISTORY_SIZE = 'version.history.num-entries';
export const VERSION_HISTORY_SIZE_DEFAULT = 10;
/** ViewProperties.REPLACE_DROP_DIALECT_ALLOWED (default false). */
export const REPLACE_DROP_DIALECT_ALLOWED = 'replace.drop-dialect.allowed';

/** PropertyUtil.propertyAsInt (Integer.parseInt: a sign, decimal digits, an int); must be positive. */
export function versionHistorySize(properties: Readonly<Record<string, string>>): number {
  if (!Object.hasOwn(properties, VERSION_HISTORY_SIZE)) return VERSION_HISTORY_SIZE_DEFAULT;
  const text = properties[VERSION_HISTORY_SIZE]!;
  const n = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  // NumberFormatException is an IllegalArgumentException
  if (!Number.isInteger(n) || n < -(2 ** 31) || n > 2 ** 31 - 1) {
    throw fail('ILLEGAL_ARGUMENT', `For input string: "${text}" (${VERSION_HISTORY_SIZE})`);
  }
  if (n <= 0) throw fail('ILLEGAL_ARGUMENT', `${VERSION_HISTORY_SIZE} must be positive but was ${n}`);
  return n;
}

/** PropertyUtil.propertyAsBoolean: Boolean.parseBoolean, true only for "true" in any case. */
export function dropDialectAllowed(properties: Readonly<Record<string, string>>): boolean {
  return Object.hasOwn(properties, REPLACE_DROP_DIALECT_ALLOWED) && properties[REPLACE_DROP_DIALECT_ALLOWED]!.toLowerCase() === 'true';
}

/**
 * Java Builder.expireVersions: the current version first, then the highest version ids (ids are
 * assigned in sequence) among the `keep` highest, until `keep` versions are retained.
 */
export function expireVersions(versions: readonly ViewVersion[], keep: number, current: ViewVersion): ViewVersion[] {
  const ids = versions.map((v) => v.versionId).sort((a, b) => b - a);
  const byId = new Map(versions.map((v) => [v.versionId, v]));
  const retained = [current];
  for (const id of ids.slice(0, keep)) {
    if (retained.length === keep) break;
    if (id !== current.versionId) retained.push(byId.get(id)!);
  }
  return retained;
}

/** Java Builder.updateHistory: entries of retained versions, the log cleared past any version not retained. */
export function retainHistory(history: readonly ViewHistoryEntry[], retainedIds: ReadonlySet<number>): ViewHistoryEntry[] {
  let retained: ViewHistoryEntry[] = [];
  for (const entry of history) {
    if (retainedIds.has(entry.versionId)) retained.push(entry);
    else retained = [];
  }
  return retained;
}
