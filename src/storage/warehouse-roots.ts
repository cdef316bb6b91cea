import fs from 'node:fs';
import path from 'node:path';
import { fail } from '../errors/index.js';

/** Where a candidate path landed after `..` and symlinks were resolved. */
export type Confined = { readonly found: true; readonly real: string } | { readonly found: false };

/**
 * The directories reads may touch. A path is allowed only when it is inside a root both
 * lexically (after `..` is resolved) and really (after `fs.realpath`), so neither
 * `s3://b/t/../../../etc/passwd` nor a symlink pointing out of the warehouse can be read.
 */
export class WarehouseRoots {
  private readonly lexical: readonly string[];
  private real: readonly string[] | undefined;

  constructor(roots: readonly string[]) {
    if (roots.length === 0) throw fail('INTERNAL', 'A local FileIO needs at least one warehouse root');
    this.lexical = [...new Set(roots.map((r) => path.resolve(r)))];
  }

  /** Whether `p` (absolute) lies lexically inside a root. */
  lexicallyInside(p: string): boolean {
    return this.lexical.some((root) => isInside(p, root));
  }

  /** Whether a real path (symlinks resolved) lies inside a root's real path. */
  async reallyInside(realPath: string): Promise<boolean> {
    const roots = await this.realRoots();
    return roots.some((root) => isInside(realPath, root));
  }

  /**
   * Resolve `candidate` to its real path, refusing it (PATH_OUTSIDE_WAREHOUSE, naming only
   * `location`) when it escapes the roots. A missing file is `{ found: false }`, unless the
   * nearest existing ancestor already escapes (then it is refused too).
   */
  async confine(candidate: string, location: string): Promise<Confined> {
    const abs = path.resolve(candidate);
    if (!this.lexicallyInside(abs)) throw outside(location);
    let real: string;
    try {
      real = await fs.promises.realpath(abs);
    } catch (err) {
      if (!isMissing(err)) throw storageFailure(location, err);
      const ancestor = await this.nearestExistingAncestor(abs, location);
      if (ancestor !== undefined && !(await this.reallyInside(ancestor))) throw outside(location);
      return { found: false };
    }
    if (!(await this.reallyInside(real))) throw outside(location);
    return { found: true, real };
  }

  private async nearestExistingAncestor(abs: string, location: string): Promise<string | undefined> {
    for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
      try {
        return await fs.promises.realpath(dir);
      } catch (err) {
        if (!isMissing(err)) throw storageFailure(location, err);
        if (dir === path.dirname(dir)) return undefined;
      }
    }
  }

  /** Real paths of the roots; a root that does not exist (yet) counts by its lexical path. */
  private async realRoots(): Promise<readonly string[]> {
    if (this.real) return this.real;
    const resolved = await Promise.all(
      this.lexical.map(async (root) => {
        try {
          return { root: await fs.promises.realpath(root), ok: true };
        } catch {
          return { root, ok: false };
        }
      }),
    );
    const roots = resolved.map((r) => r.root);
    if (resolved.every((r) => r.ok)) this.real = roots;
    return roots;
  }
}

function isInside(p: string, root: string): boolean {
  if (p === root) return true;
  const withSep = root.endsWith(path.sep) ? root : root + path.sep;
  return p.startsWith(withSep);
}

export function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function outside(location: string) {
  return fail('PATH_OUTSIDE_WAREHOUSE', `Location is outside the configured warehouse roots: ${location}`);
}

export function notFound(location: string, cause?: unknown) {
  return fail('FILE_NOT_FOUND', `File not found: ${location}`, cause);
}

/** An I/O failure; the message names the location and the error code, never a local path. */
export function storageFailure(location: string, err: unknown) {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'EIO';
  return fail('STORAGE_FAILURE', `Cannot read ${location} (${code})`, err);
}
