/**
 * The commit of one or more tables, the same for every store (REST spec updateTable,
 * commitTransaction): as Iceberg Java's CatalogHandlers.commit, each attempt reads the tables as
 * they are now, checks every requirement (a failed one is the client's 409, never retried), applies
 * every update, and asks the store to swap all current metadata at once. A swap lost to another
 * writer is tried again from fresh state while the requirements still hold.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { fail, isIcefrontError } from '../errors/index.js';
import type { TableIdentifier, TableMetadata } from '../iceberg/index.js';
import type { CommitClock, TableCommit, TableVersion } from './api.js';
import { checkRequirements } from './requirements.js';
import { applyUpdates } from './metadata-builder.js';

/** One table's swap: from `base` (undefined: the table is created) to `next`. */
export interface TableSwap {
  readonly identifier: TableIdentifier;
  readonly base: TableVersion | undefined;
  readonly next: TableMetadata;
}

/** Runs work on a set of keys one at a time per key, in arrival order (cache/turns.ts). */
export interface CommitTurns {
  run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T>;
}

/** What a store does for a commit: read the tables fresh, and swap their current metadata. */
export interface CommitStore {
  /**
   * The store's commits in this process, one at a time per table (the store keeps one for all of
   * its commits). Of concurrent commits to one table at most one can win; in turn, the others
   * read the winner's version and fail their requirements at once (an append's
   * assert-ref-snapshot-id: 409, the client retries) instead of each building and writing a
   * version that then loses the swap. Other processes are still decided by the swap.
   */
  readonly turns: CommitTurns;
  /** The table as it is now (never a reused resolution); undefined when it does not exist. */
  current(identifier: TableIdentifier): Promise<TableVersion | undefined>;
  /**
   * Writes each `next` and makes it its table's current metadata in place of `base`, all or
   * nothing. COMMIT_FAILED when another writer moved a table first (nothing of this commit is
   * visible then); COMMIT_STATE_UNKNOWN when the outcome cannot be known.
   */
  swap(swaps: readonly TableSwap[]): Promise<TableVersion[]>;
}

export interface CommitOptions {
  /** Attempts in all (Java: 1 + COMMIT_NUM_RETRIES_DEFAULT 4). */
  readonly attempts?: number;
  /** The first pause after a lost swap, doubled each time (Java: 100 ms); jittered. */
  readonly backoffMs?: number;
}

/** spec TableRequirement assert-create: the commit creates the table (Java CatalogHandlers.isCreate). */
function creates(commit: TableCommit): boolean {
  return commit.change.requirements.some((r) => r.type === 'assert-create');
}

/** Commits every table of `commits` at once; the tables as committed, in order. */
export function commitTables(store: CommitStore, commits: readonly TableCommit[], clock: CommitClock, options: CommitOptions = {}): Promise<TableVersion[]> {
  const tables = commits.map(({ identifier }) => JSON.stringify([...identifier.namespace, identifier.name]));
  return store.turns.run(tables, () => attemptCommits(store, commits, clock, options));
}

async function attemptCommits(store: CommitStore, commits: readonly TableCommit[], clock: CommitClock, options: CommitOptions): Promise<TableVersion[]> {
  const attempts = options.attempts ?? 5;
  let pause = options.backoffMs ?? 100;
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1) {
      // after a lost swap the requirements decide first: most commits (an append's
      // assert-ref-snapshot-id) now fail them, and that 409 needs no wait; only one that still
      // holds pauses before it is tried again
      for (const commit of commits) {
        const base = await store.current(commit.identifier);
        if (base !== undefined || creates(commit)) checkRequirements(base?.metadata, commit.change.requirements);
      }
      await sleep(pause * (0.5 + Math.random()));
      pause *= 2;
    }
    const swaps: TableSwap[] = [];
    const unchanged = new Map<number, TableVersion>();
    for (const [i, commit] of commits.entries()) {
      const base = await store.current(commit.identifier);
      // Java CatalogHandlers.updateTable: a commit that does not create the table needs it to exist
      if (base === undefined && !creates(commit)) throw fail('NO_SUCH_TABLE', `Table does not exist: ${[...commit.identifier.namespace, commit.identifier.name].join('.')}`);
      checkRequirements(base?.metadata, commit.change.requirements);
      const { metadata, changed } = applyUpdates(base, commit.change.updates, clock);
      // Java: a commit whose updates change nothing writes nothing
      if (!changed && base !== undefined) unchanged.set(i, base);
      else swaps.push({ identifier: commit.identifier, base, next: metadata });
    }
    try {
      const swapped = swaps.length > 0 ? await store.swap(swaps) : [];
      let next = 0;
      return commits.map((_, i) => unchanged.get(i) ?? swapped[next++]!);
    } catch (err) {
      if (!isIcefrontError(err, 'COMMIT_FAILED') || attempt >= attempts) throw err;
    }
  }
}
