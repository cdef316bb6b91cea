/**
 * Benchmark tables: metadata-only synthetic tables made by the project's writer
 * (tools/iceberg-writer), cached under bench/.work keyed by their parameters.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeSyntheticTable } from '../tools/iceberg-writer/index.js';

export const WORK = path.resolve(import.meta.dirname, '.work');

export interface SyntheticSpec {
  readonly manifests: number;
  readonly entriesPerManifest: number;
  readonly columns: number;
}

/** The warehouse dir holding `bench/<name>`; written once per parameter set. */
export function ensureSyntheticTable(spec: SyntheticSpec): { warehouse: string; namespace: string[]; name: string } {
  const name = `t_${spec.manifests}x${spec.entriesPerManifest}x${spec.columns}`;
  const warehouse = path.join(WORK, 'warehouse');
  const root = path.join(warehouse, 'bench', name);
  const marker = path.join(root, '.complete');
  if (!fs.existsSync(marker)) {
    fs.rmSync(root, { recursive: true, force: true });
    const started = performance.now();
    writeSyntheticTable({ root, location: `s3://bench/warehouse/bench/${name}`, ...spec });
    fs.writeFileSync(marker, JSON.stringify(spec));
    console.error(`wrote ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return { warehouse, namespace: ['bench'], name };
}
