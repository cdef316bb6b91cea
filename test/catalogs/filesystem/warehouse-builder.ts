/** Builds small Hadoop-layout warehouses in temp dirs for filesystem-catalog tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FilesystemCatalogConfig } from '../../../src/config/index.js';

export interface MetadataOptions {
  readonly location: string;
  readonly uuid?: string;
  readonly lastUpdatedMs?: number;
  /** Recorded in a table property so tests can tell files apart. */
  readonly tag?: string;
  /** Adds one snapshot whose manifest list is `<location>/metadata/snap-1.avro`. */
  readonly withSnapshot?: boolean;
}

/** A minimal valid format-v2 metadata.json. */
export function metadataJson(o: MetadataOptions): string {
  const snapshotId = '3051729675574597004';
  const snapshots = o.withSnapshot
    ? `[{"snapshot-id":${snapshotId},"sequence-number":1,"timestamp-ms":${o.lastUpdatedMs ?? 1000},` +
      `"manifest-list":"${o.location}/metadata/snap-1.avro","summary":{"operation":"append"},"schema-id":0}]`
    : '[]';
  return `{
  "format-version": 2,
  "table-uuid": "${o.uuid ?? '9c12d441-03fe-4693-9a96-a0705ddf69c1'}",
  "location": "${o.location}",
  "last-sequence-number": ${o.withSnapshot ? 1 : 0},
  "last-updated-ms": ${o.lastUpdatedMs ?? 1000},
  "last-column-id": 1,
  "current-schema-id": 0,
  "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "x", "required": false, "type": "long"}]}],
  "default-spec-id": 0,
  "partition-specs": [{"spec-id": 0, "fields": []}],
  "last-partition-id": 999,
  "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}],
  "properties": {"tag": "${o.tag ?? ''}"},
  "current-snapshot-id": ${o.withSnapshot ? snapshotId : -1},
  "snapshots": ${snapshots},
  "snapshot-log": [],
  "metadata-log": []
}`;
}

export function gzip(text: string): Buffer {
  return zlib.gzipSync(Buffer.from(text));
}

/** Write `files` (paths relative to `dir`), creating folders as needed. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** A fresh temp dir holding `warehouse/` and an `outside/` sibling; removed at teardown. */
export function tempWarehouse(t: { teardown(fn: () => void): void }): { warehouse: string; outside: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-fscat-')));
  t.teardown(() => fs.rmSync(base, { recursive: true, force: true }));
  const warehouse = path.join(base, 'warehouse');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(warehouse);
  fs.mkdirSync(outside);
  return { warehouse, outside };
}

export function catalogConfig(warehouse: string): FilesystemCatalogConfig {
  return { type: 'filesystem', name: 'test', warehouse, locations: [], planning: 'on' };
}
