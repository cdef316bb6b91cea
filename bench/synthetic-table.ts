/**
 * Benchmark tables: metadata-only synthetic tables made by the project's writer
 * (tools/iceberg-writer), cached under bench/.work keyed by their parameters.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeSyntheticTable } from '../tools/iceberg-writer/index.js';

export const WORK = path.resolve(import.meta.dirname, '.work');

export interface SyntheticSpec {
  readonly manifests: number;
  readonly entriesPerManifest: number;
  readonly columns: number;
  /**
   * How the table's own locations are written: `s3` (default) records
   * `s3://bench/warehouse/bench/<name>/…` (read back through a remap); `file` records the
   * absolute `file:///…` URI of the folder it is written to, so Java Iceberg (HadoopFileIO) and a
   * `rest` catalog's `storage.local` roots read it where it lies.
   */
  readonly scheme?: 's3' | 'file';
}

export interface SyntheticTableRef {
  readonly warehouse: string;
  readonly namespace: string[];
  readonly name: string;
  /** The table's folder on disk. */
  readonly root: string;
  /** The table location recorded in its metadata. */
  readonly location: string;
  /** True when this call wrote the table, false when a complete earlier copy was reused. */
  readonly written: boolean;
}

/** The warehouse dir holding `bench/<name>`; written once per parameter set. */
export function ensureSyntheticTable(spec: SyntheticSpec): SyntheticTableRef {
  const scheme = spec.scheme ?? 's3';
  const name = `t_${spec.manifests}x${spec.entriesPerManifest}x${spec.columns}${scheme === 'file' ? '_file' : ''}`;
  const warehouse = path.join(WORK, 'warehouse');
  const root = path.join(warehouse, 'bench', name);
  // pathToFileURL percent-encodes what a URI must; the bench folder has no such characters.
  const location = scheme === 'file' ? pathToFileURL(root).href : `s3://bench/warehouse/bench/${name}`;
  const marker = path.join(root, '.complete');
  let written = false;
  if (!fs.existsSync(marker)) {
    fs.rmSync(root, { recursive: true, force: true });
    const started = performance.now();
    writeSyntheticTable({ root, location, manifests: spec.manifests, entriesPerManifest: spec.entriesPerManifest, columns: spec.columns });
    fs.writeFileSync(marker, JSON.stringify(spec));
    console.error(`wrote ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    written = true;
  }
  return { warehouse, namespace: ['bench'], name, root, location, written };
}

/** The current metadata file of a table written by the builder (Hadoop layout: version-hint.text). */
export function currentMetadataFile(root: string): string {
  const version = fs.readFileSync(path.join(root, 'metadata', 'version-hint.text'), 'utf8').trim();
  return path.join(root, 'metadata', `v${version}.metadata.json`);
}
