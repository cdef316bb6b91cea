import path from 'node:path';
import type { LocationRemap } from '../config/index.js';
import { normalizeLocation, stripPrefix, type NormalLocation } from './location.js';
import { outside } from './warehouse-roots.js';

/** A suffix names a file together with its folder. */
const MIN_SUFFIX_SEGMENTS = 2;

interface Mapping {
  readonly prefix: NormalLocation;
  readonly dir: string;
}

/** Where a recorded location may live locally, in the order to try. */
export interface Candidates {
  /** What the recorded location maps to directly (table location, configured remaps, local path). */
  readonly direct: readonly string[];
  /** Below the table's own folder, by suffixes of the recorded path, longest first. */
  readonly bySuffix: readonly string[];
}

/**
 * Turns a recorded location into the local paths it may live at, most specific first:
 * 1. under the table's recorded `location` → below the directory where the table was found;
 * 2. under a configured `locations` prefix → below its directory (longest prefix first);
 * 3. only when nothing above matched, a local absolute path as is;
 * 4. when none of those exists: the longest suffix of the recorded path that exists below the
 *    table's own folder. Writers record paths relative to their working directory
 *    (`data/persistent/<table>/metadata/…`), a `location` with a typo, or a `location` ending in
 *    `/metadata`; the table's files are still where its folder says.
 * The caller reads the first candidate that exists and confines every candidate to the warehouse
 * roots; a location with no direct candidate that no suffix finds is refused as outside them.
 */
export class LocationResolver {
  private readonly remaps: readonly Mapping[];
  private readonly table: Mapping | undefined;
  private readonly tableDir: string | undefined;

  constructor(remaps: readonly LocationRemap[], table?: { location: string; dir: string }) {
    this.remaps = remaps
      .map((r) => ({ prefix: normalizeLocation(r.prefix), dir: path.resolve(r.dir) }))
      .filter((m) => m.prefix.text !== '')
      .sort((a, b) => b.prefix.text.length - a.prefix.text.length);
    const tablePrefix = table ? normalizeLocation(table.location) : undefined;
    this.tableDir = table ? path.resolve(table.dir) : undefined;
    this.table = tablePrefix && tablePrefix.text !== '' ? { prefix: tablePrefix, dir: this.tableDir! } : undefined;
  }

  /** Candidate local paths (not yet confined). */
  candidates(location: string): Candidates {
    if (location === '' || location.includes('\0')) throw outside(JSON.stringify(location));
    const normal = normalizeLocation(location);
    const direct: string[] = [];
    for (const m of this.table ? [this.table, ...this.remaps] : this.remaps) {
      const rest = stripPrefix(normal, m.prefix);
      if (rest !== undefined) direct.push(path.join(m.dir, rest));
    }
    if (direct.length === 0 && normal.kind === 'local') direct.push(normal.text);
    return { direct, bySuffix: this.suffixCandidates(normal) };
  }

  /**
   * `a/b/c/d` → `<table>/a/b/c/d`, `<table>/b/c/d`, `<table>/c/d`: a suffix keeps at least the
   * folder the file was recorded in (`metadata/…`, `data/p=1/…`), so a missing file never resolves
   * to a namesake elsewhere in the table. None when a segment is `.` or `..`.
   */
  private suffixCandidates(normal: NormalLocation): string[] {
    if (this.tableDir === undefined) return [];
    const text = normal.kind === 'remote' ? normal.text.replace(/^[^:]+:\/\/[^/]*/, '') : normal.text;
    const segments = text.split('/').filter((s) => s !== '');
    if (segments.some((s) => s === '.' || s === '..')) return [];
    const out: string[] = [];
    for (let i = 0; i + MIN_SUFFIX_SEGMENTS <= segments.length; i++) out.push(path.join(this.tableDir, ...segments.slice(i)));
    return out;
  }
}
