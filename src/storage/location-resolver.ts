import path from 'node:path';
import type { LocationRemap } from '../config/index.js';
import { normalizeLocation, stripPrefix, type NormalLocation } from './location.js';
import { outside } from './warehouse-roots.js';

interface Mapping {
  readonly prefix: NormalLocation;
  readonly dir: string;
}

/**
 * Turns a recorded location into the local paths it may live at, most specific first:
 * 1. under the table's recorded `location` → below the directory where the table was found;
 * 2. under a configured `locations` prefix → below its directory (longest prefix first);
 * 3. only when nothing above matched, a local absolute path as is.
 * The caller reads the first candidate that exists (a table whose files were partly moved still
 * resolves) and confines every candidate to the warehouse roots.
 */
export class LocationResolver {
  private readonly remaps: readonly Mapping[];
  private readonly table: Mapping | undefined;

  constructor(remaps: readonly LocationRemap[], table?: { location: string; dir: string }) {
    this.remaps = remaps
      .map((r) => ({ prefix: normalizeLocation(r.prefix), dir: path.resolve(r.dir) }))
      .filter((m) => m.prefix.text !== '')
      .sort((a, b) => b.prefix.text.length - a.prefix.text.length);
    const tablePrefix = table ? normalizeLocation(table.location) : undefined;
    this.table =
      table && tablePrefix && tablePrefix.text !== '' ? { prefix: tablePrefix, dir: path.resolve(table.dir) } : undefined;
  }

  /** Candidate local paths (not yet confined); refuses locations nothing maps. */
  candidates(location: string): string[] {
    if (location === '' || location.includes('\0')) throw outside(JSON.stringify(location));
    const normal = normalizeLocation(location);
    const out: string[] = [];
    for (const m of this.table ? [this.table, ...this.remaps] : this.remaps) {
      const rest = stripPrefix(normal, m.prefix);
      if (rest !== undefined) out.push(path.join(m.dir, rest));
    }
    if (out.length === 0 && normal.kind === 'local') out.push(normal.text);
    if (out.length === 0) throw outside(location);
    return out;
  }
}
