import fs from 'node:fs';
import path from 'node:path';
import { fail, isIcefrontError } from '../errors/index.js';
import type { LocationRemap } from '../config/index.js';
import type { DirEntry, FileIO, FileStat, WarehouseFileIO } from './file-io.js';
import { LocationResolver } from './location-resolver.js';
import { isMissing, notFound, outside, storageFailure, WarehouseRoots } from './warehouse-roots.js';

export interface LocalFileIOOptions {
  /** Directories reads may touch. The `dir` of every remap is allowed as well. */
  readonly roots: readonly string[];
  /** Configured prefix remaps (`locations` in the config); longest prefix wins. */
  readonly remaps?: readonly LocationRemap[];
}

/** A FileIO over the local filesystem for `file://`, `file:/`, plain and remapped locations. */
export function createLocalFileIO(options: LocalFileIOOptions): WarehouseFileIO {
  const remaps = options.remaps ?? [];
  const roots = new WarehouseRoots([...options.roots, ...remaps.map((r) => r.dir)]);
  return new LocalFileIO(roots, remaps, new LocationResolver(remaps));
}

class LocalFileIO implements WarehouseFileIO {
  constructor(
    private readonly roots: WarehouseRoots,
    private readonly remaps: readonly LocationRemap[],
    private readonly resolver: LocationResolver,
  ) {}

  forTable(tableLocation: string, tableDir: string): FileIO {
    const resolver = new LocationResolver(this.remaps, { location: tableLocation, dir: tableDir });
    return new LocalFileIO(this.roots, this.remaps, resolver);
  }

  async readFile(location: string): Promise<Buffer> {
    return readLocalFile(await this.locate(location), location);
  }

  async readRange(location: string, offset: number, length: number): Promise<Buffer> {
    checkRange(location, offset, length);
    return readLocalRange(await this.locate(location), location, offset, length);
  }

  localPath(location: string): Promise<string> {
    return this.locate(location);
  }

  async stat(location: string): Promise<FileStat> {
    const real = await this.locate(location);
    try {
      const s = await fs.promises.stat(real);
      return { size: s.size, mtimeMs: s.mtimeMs };
    } catch (err) {
      throw ioError(location, err);
    }
  }

  async exists(location: string): Promise<boolean> {
    try {
      const real = await this.locate(location);
      return (await fs.promises.stat(real)).isFile();
    } catch (err) {
      if (isIcefrontError(err, 'FILE_NOT_FOUND') || isMissing(err)) return false;
      throw isIcefrontError(err) ? err : ioError(location, err);
    }
  }

  async list(location: string, names?: readonly string[]): Promise<DirEntry[]> {
    const real = await this.locate(location);
    if (names) return this.listNames(real, location, names);
    let dirents: fs.Dirent[];
    try {
      dirents = await fs.promises.readdir(real, { withFileTypes: true });
    } catch (err) {
      throw ioError(location, err);
    }
    const entries: DirEntry[] = [];
    for (const d of dirents) {
      const kind = d.isSymbolicLink() ? await this.symlinkKind(path.join(real, d.name)) : direntKind(d);
      if (kind) entries.push({ name: d.name, kind });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The entries of `names` in the directory `real` (confined already): one lstat each, all at once, classified as `list` does. */
  private async listNames(real: string, location: string, names: readonly string[]): Promise<DirEntry[]> {
    // an entry's own name, never a path through it
    const own = [...new Set(names)].filter((n) => n !== '' && n !== '.' && n !== '..' && !/[/\\\0]/.test(n)).sort();
    const kinds = await Promise.all(
      own.map(async (name): Promise<DirEntry['kind'] | undefined> => {
        const file = path.join(real, name);
        let stats: fs.Stats;
        try {
          stats = await fs.promises.lstat(file);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
          // ENOTDIR: `location` is a file, which `list` refuses as well
          throw ioError(location, err);
        }
        return stats.isSymbolicLink() ? this.symlinkKind(file) : stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : undefined;
      }),
    );
    return own.flatMap((name, i) => (kinds[i] ? [{ name, kind: kinds[i] }] : []));
  }

  /** A symlink is listed only when its target exists inside the roots. */
  private async symlinkKind(link: string): Promise<DirEntry['kind'] | undefined> {
    try {
      const target = await fs.promises.realpath(link);
      if (!(await this.roots.reallyInside(target))) return undefined;
      const s = await fs.promises.stat(target);
      return s.isDirectory() ? 'directory' : s.isFile() ? 'file' : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The real path of the first candidate that exists: direct mappings, then suffixes below the
   * table's folder. FILE_NOT_FOUND when none does; PATH_OUTSIDE_WAREHOUSE when nothing maps it.
   */
  private async locate(location: string): Promise<string> {
    const { direct, bySuffix } = this.resolver.candidates(location);
    for (const candidate of [...direct, ...bySuffix]) {
      const confined = await this.roots.confine(candidate, location);
      if (confined.found) return confined.real;
    }
    throw direct.length > 0 ? notFound(location) : outside(location);
  }
}

/**
 * The bytes of `real` (a path FileIO.localPath gave for `location`), with the errors a read of
 * `location` gives: a planning worker reads local manifests itself with these.
 */
export async function readLocalFile(real: string, location: string): Promise<Buffer> {
  try {
    return await fs.promises.readFile(real);
  } catch (err) {
    throw ioError(location, err);
  }
}

/** `length` bytes of `real` from `offset` (fewer only at end of file), as readLocalFile. */
export async function readLocalRange(real: string, location: string, offset: number, length: number): Promise<Buffer> {
  checkRange(location, offset, length);
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(real, 'r');
    const buf = Buffer.alloc(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buf, filled, length - filled, offset + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === length ? buf : buf.subarray(0, filled);
  } catch (err) {
    throw ioError(location, err);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function checkRange(location: string, offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0)
    throw fail('STORAGE_FAILURE', `Invalid range ${offset}+${length} for ${location}`);
}

function direntKind(d: fs.Dirent): DirEntry['kind'] | undefined {
  return d.isDirectory() ? 'directory' : d.isFile() ? 'file' : undefined;
}

function ioError(location: string, err: unknown) {
  return isMissing(err) ? notFound(location, err) : storageFailure(location, err);
}
