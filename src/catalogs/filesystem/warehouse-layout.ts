import path from 'node:path';
import pLimit from 'p-limit';
import { fail, isIcefrontError } from '../../errors/index.js';
import type { DirEntry, FileIO } from '../../storage/index.js';
import type { Namespace } from '../../iceberg/index.js';
import { displayName, isHidden } from './names.js';

/** A directory of the warehouse and its (already fetched) entries. */
export interface DirView {
  readonly dir: string;
  readonly entries: readonly DirEntry[];
}

/** The metadata directory of a table and the `*.metadata.json` file names it holds. */
export interface TableFiles {
  /** The `metadata/` directory. */
  readonly dir: string;
  readonly metadataFiles: readonly string[];
}

const METADATA_SUFFIX = '.metadata.json';
const CLASSIFY_CONCURRENCY = 8;

/**
 * Hadoop-catalog layout: a directory holding `metadata/` with at least one `*.metadata.json` is a
 * table; every other (non-hidden) directory is a namespace level. Table directories are never
 * descended into as namespaces. Lookups walk the tree by listing, so a name matches only an
 * entry that listing would show (exact name, not hidden, symlinks confined to the warehouse).
 */
export class WarehouseLayout {
  constructor(
    private readonly io: FileIO,
    private readonly root: string,
  ) {}

  /**
   * The namespace directory; NO_SUCH_NAMESPACE when a level is missing or is a table. A missing
   * level holding a `.` whose parts name a namespace that exists was most likely sent unencoded:
   * the message says how levels are separated (REST spec: %1F in paths, `namespace` parameter).
   */
  async openNamespace(namespace: Namespace): Promise<DirView> {
    try {
      return await this.#openNamespace(namespace);
    } catch (err) {
      const dotted = namespace.findIndex((level) => level.includes('.') && !level.startsWith('.'));
      if (dotted === -1 || !isIcefrontError(err, 'NO_SUCH_NAMESPACE')) throw err;
      const split = namespace.flatMap((level, i) => (i === dotted ? level.split('.') : [level]));
      if (split.some((level) => level === '') || !(await this.#openNamespace(split).then(() => true, () => false))) throw err;
      const levels = split.map((level) => JSON.stringify(level)).join(', ');
      throw fail(
        'NO_SUCH_NAMESPACE',
        `${err.message}. The namespace of levels ${levels} exists: a '.' inside a level is part of its name; separate levels with %1F in the URL (${split.map(encodeURIComponent).join('%1F')})`,
      );
    }
  }

  async #openNamespace(namespace: Namespace): Promise<DirView> {
    const rootEntries = await this.listOrUndefined(this.root);
    if (!rootEntries) throw fail('NO_SUCH_WAREHOUSE', 'The warehouse directory does not exist');
    let view: DirView = { dir: this.root, entries: rootEntries };
    for (let i = 0; i < namespace.length; i++) {
      const level = namespace[i]!;
      const missing = () => fail('NO_SUCH_NAMESPACE', `Namespace does not exist: ${displayName(namespace.slice(0, i + 1))}`);
      if (!hasDirectory(view, level)) throw missing();
      const dir = path.join(view.dir, level);
      const entries = await this.listOrUndefined(dir);
      if (!entries) throw missing();
      view = { dir, entries };
      if (hasDirectory(view, 'metadata') && (await this.tableFiles(path.join(dir, 'metadata')))) throw missing();
    }
    return view;
  }

  /**
   * The `metadata/` folder a table `name` of the namespace view would have: undefined unless the
   * view lists a directory of that name (whether it is a table, `tableFiles` tells).
   */
  tableMetadataDir(namespace: DirView, name: string): string | undefined {
    return hasDirectory(namespace, name) ? path.join(namespace.dir, name, 'metadata') : undefined;
  }

  /** Child namespaces and tables of a namespace view, each sorted by name. */
  async children(view: DirView): Promise<{ namespaces: string[]; tables: string[] }> {
    const limit = pLimit(CLASSIFY_CONCURRENCY);
    const dirs = view.entries.filter((e) => e.kind === 'directory' && !isHidden(e.name)).map((e) => e.name);
    const kinds = await Promise.all(
      dirs.map((name) => limit(async () => ((await this.tableFiles(path.join(view.dir, name, 'metadata'))) ? 'table' : 'namespace'))),
    );
    return {
      namespaces: dirs.filter((_, i) => kinds[i] === 'namespace'),
      tables: dirs.filter((_, i) => kinds[i] === 'table'),
    };
  }

  /** The metadata files of a table's `metadata/` folder `dir`; undefined when it holds none (no table). */
  async tableFiles(dir: string): Promise<TableFiles | undefined> {
    const metadataEntries = await this.listOrUndefined(dir);
    if (!metadataEntries) return undefined;
    const metadataFiles = metadataEntries
      .filter((e) => e.kind === 'file' && e.name.endsWith(METADATA_SUFFIX) && !isHidden(e.name))
      .map((e) => e.name);
    return metadataFiles.length > 0 ? { dir, metadataFiles } : undefined;
  }

  /** A directory's entries; undefined when it is missing, not a directory or outside the warehouse. */
  private async listOrUndefined(dir: string): Promise<DirEntry[] | undefined> {
    try {
      return await this.io.list(dir);
    } catch (err) {
      if (isIcefrontError(err, 'FILE_NOT_FOUND') || isIcefrontError(err, 'PATH_OUTSIDE_WAREHOUSE')) return undefined;
      throw err;
    }
  }
}

function hasDirectory(view: DirView, name: string): boolean {
  return !isHidden(name) && view.entries.some((e) => e.kind === 'directory' && e.name === name);
}
