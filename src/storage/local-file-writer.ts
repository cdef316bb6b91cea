import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fail, isIcefrontError } from '../errors/index.js';
import { normalizeLocation } from './location.js';
import type { FileWriter } from './file-writer.js';
import { isMissing, outside, WarehouseRoots } from './warehouse-roots.js';

/**
 * How a catalog Icefront keeps itself writes its metadata on a local disk (FileWriter,
 * file-writer.ts). Every location (`/abs`, `file:/abs`, `file:///abs`) must lie inside the
 * writer's roots, lexically and after symlinks, as reads must (warehouse-roots.ts). A new file is
 * written to a temporary file and flushed first, then linked into place (link(2) never replaces),
 * so a racing writer of the same name loses cleanly and a reader never sees a part-written file
 * (issue #40: HadoopCatalog's atomic version step); `replace` renames a temporary file over the
 * old one.
 */
export function createLocalFileWriter(roots: readonly string[]): FileWriter {
  return new LocalFileWriter(new WarehouseRoots(roots));
}

class LocalFileWriter implements FileWriter {
  constructor(private readonly roots: WarehouseRoots) {}

  async createExclusive(location: string, bytes: Uint8Array): Promise<boolean> {
    // link(2) creates the name or fails EEXIST, following no link at it: only the folder needs confining
    const file = await this.newFile(location);
    const temp = await this.writeTemporary(file, bytes, location);
    try {
      await fs.promises.link(temp, file);
    } catch (err) {
      await fs.promises.unlink(temp).catch(() => undefined);
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw writeFailure(location, err);
    }
    // the new entry made durable (POSIX: an fsync of the folder) while the temporary name goes
    await Promise.all([syncDirectory(path.dirname(file)), fs.promises.unlink(temp).catch(() => undefined)]);
    return true;
  }

  async replace(location: string, bytes: Uint8Array, options: { readonly durable?: boolean } = {}): Promise<void> {
    const durable = options.durable ?? true;
    const file = await this.local(location);
    const temp = await this.writeTemporary(file, bytes, location, durable);
    try {
      await fs.promises.rename(temp, file);
      if (durable) await syncDirectory(path.dirname(file));
    } catch (err) {
      await fs.promises.unlink(temp).catch(() => undefined);
      throw writeFailure(location, err);
    }
  }

  async deleteFile(location: string): Promise<void> {
    const file = await this.local(location);
    try {
      await fs.promises.unlink(file);
    } catch (err) {
      if (!isMissing(err)) throw writeFailure(location, err);
    }
  }

  async makeDirectory(location: string): Promise<boolean> {
    const dir = await this.local(location);
    try {
      await fs.promises.mkdir(path.dirname(dir), { recursive: true });
      await fs.promises.mkdir(dir);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw writeFailure(location, err);
    }
  }

  async removeEmptyDirectory(location: string): Promise<boolean> {
    const dir = await this.local(location);
    try {
      await fs.promises.rmdir(dir);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
      if (isMissing(err)) return true;
      throw writeFailure(location, err);
    }
  }

  async removeTree(location: string): Promise<void> {
    const dir = await this.local(location);
    try {
      await fs.promises.rm(dir, { recursive: true, force: true });
    } catch (err) {
      throw writeFailure(location, err);
    }
  }

  /** The local path of `location`, confined to the roots (it need not exist yet). */
  private async local(location: string): Promise<string> {
    const file = localPathOf(location);
    const confined = await this.roots.confine(file, location);
    return confined.found ? confined.real : file;
  }

  /**
   * The local path of a file to be created with O_EXCL, which follows no link at its last step:
   * only its folder needs resolving to stay confined (one realpath where `local` makes two for a
   * file that does not exist yet).
   */
  private async newFile(location: string): Promise<string> {
    const file = path.resolve(localPathOf(location));
    const folder = await this.roots.confine(path.dirname(file), location);
    return path.join(folder.found ? folder.real : path.dirname(file), path.basename(file));
  }

  /** `file`, new, open for writing (EEXIST when a name is there); its folder made on the folder's first file. */
  private async openNew(file: string, location: string): Promise<fs.promises.FileHandle> {
    try {
      return await fs.promises.open(file, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    try {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
    } catch (err) {
      throw writeFailure(location, err);
    }
    return fs.promises.open(file, 'wx');
  }

  /** A temporary file beside `file` (flushed unless `durable` is false), named so no listing takes it for metadata. */
  private async writeTemporary(file: string, bytes: Uint8Array, location: string, durable = true): Promise<string> {
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
    let handle: fs.promises.FileHandle | undefined;
    try {
      handle = await this.openNew(temp, location);
      await handle.writeFile(bytes);
      if (durable) await handle.sync();
      return temp;
    } catch (err) {
      await fs.promises.unlink(temp).catch(() => undefined);
      throw writeFailure(location, err);
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }
}

/** The local path `location` names; a remote one, or one holding NUL, is outside every root. */
function localPathOf(location: string): string {
  const normal = normalizeLocation(location);
  if (normal.kind !== 'local' || location.includes('\0')) throw outside(location);
  return normal.text;
}

/** Makes a new directory entry durable (POSIX: fsync of the directory). */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch {
    // some filesystems refuse fsync on a directory; the entry is still there
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function writeFailure(location: string, err: unknown) {
  if (isIcefrontError(err)) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'EIO';
  return fail('STORAGE_FAILURE', `Cannot write ${location} (${code})`, err);
}
