/**
 * Reads a Hadoop-layout Iceberg table from disk with the independent readers in read-back.ts and
 * returns the rows of its current snapshot after applying every delete (position deletes and DVs
 * when delete seq >= data seq; equality deletes when delete seq > data seq in the same partition).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseJson } from '../../../src/json/index.js';
import { decodeDvBlob, readAvro, readParquet } from './read-back.js';

export interface ScannedEntry {
  readonly status: number;
  readonly dataSequenceNumber: bigint;
  readonly manifestContent: number;
  readonly file: any;
}

export interface ScannedTable {
  readonly metadata: any;
  readonly entries: ScannedEntry[];
  readonly rows: Array<Record<string, unknown>>;
}

export async function scanTable(dir: string): Promise<ScannedTable> {
  const version = fs.readFileSync(path.join(dir, 'metadata/version-hint.text'), 'utf8').trim();
  const metadata = parseJson(fs.readFileSync(path.join(dir, `metadata/v${version}.metadata.json`), 'utf8')) as any;
  const local = (p: string): string => {
    if (!p.startsWith(`${metadata.location}/`)) throw new Error(`${p} is outside the table location`);
    return path.join(dir, p.slice(metadata.location.length + 1));
  };
  const snapshot = metadata.snapshots.find((s: any) => s['snapshot-id'] === metadata['current-snapshot-id']);
  // v1 snapshots may list manifests inline; those read as spec 0, sequence number 0
  const manifests: Array<{ path: string; seq: bigint; content: number }> = snapshot['manifest-list']
    ? (await readAvro(fs.readFileSync(local(snapshot['manifest-list'])))).rows.map((m) => ({
        path: m.manifest_path,
        seq: m.sequence_number ?? 0n,
        content: m.content ?? 0,
      }))
    : snapshot.manifests.map((p: string) => ({ path: p, seq: 0n, content: 0 }));
  const entries: ScannedEntry[] = [];
  for (const m of manifests) {
    for (const e of (await readAvro(fs.readFileSync(local(m.path)))).rows) {
      entries.push({ status: e.status, dataSequenceNumber: e.sequence_number ?? m.seq, manifestContent: m.content, file: e.data_file });
    }
  }
  const live = entries.filter((e) => e.status !== 2);
  const schema = metadata.schemas.find((s: any) => s['schema-id'] === metadata['current-schema-id']);
  const nameOf = new Map<number, string>(schema.fields.map((f: any) => [f.id, f.name]));
  const spec = metadata['partition-specs'].find((s: any) => s['spec-id'] === metadata['default-spec-id']);

  const positionDeletes: Array<{ seq: bigint; path: string; pos: bigint }> = [];
  const equalityDeletes: Array<{ seq: bigint; partition: string; columns: string[]; rows: Array<Record<string, unknown>> }> = [];
  for (const e of live.filter((x) => (x.file.content ?? 0) !== 0)) {
    const bytes = fs.readFileSync(local(e.file.file_path));
    if (e.file.file_format === 'PUFFIN') {
      const offset = Number(e.file.content_offset);
      const blob = decodeDvBlob(bytes.subarray(offset, offset + Number(e.file.content_size_in_bytes)));
      for (const pos of blob.positions) positionDeletes.push({ seq: e.dataSequenceNumber, path: e.file.referenced_data_file, pos });
    } else if (e.file.content === 1) {
      for (const r of (await readParquet(bytes)).rows) positionDeletes.push({ seq: e.dataSequenceNumber, path: r.file_path as string, pos: r.pos as bigint });
    } else {
      const columns = (e.file.equality_ids as number[]).map((id) => nameOf.get(id)!);
      equalityDeletes.push({ seq: e.dataSequenceNumber, partition: key(e.file.partition), columns, rows: (await readParquet(bytes)).rows });
    }
  }
  const rows: Array<Record<string, unknown>> = [];
  for (const e of live.filter((x) => (x.file.content ?? 0) === 0)) {
    const data = (await readParquet(fs.readFileSync(local(e.file.file_path)))).rows;
    data.forEach((row, i) => {
      const byPosition = positionDeletes.some(
        (d) => d.path === e.file.file_path && d.pos === BigInt(i) && d.seq >= e.dataSequenceNumber,
      );
      const byEquality = equalityDeletes.some(
        (d) =>
          d.seq > e.dataSequenceNumber &&
          (spec.fields.length === 0 || d.partition === key(e.file.partition)) &&
          d.rows.some((del) => d.columns.every((c) => del[c] === row[c])),
      );
      if (!byPosition && !byEquality) rows.push(row);
    });
  }
  return { metadata, entries, rows };
}

function key(partition: unknown): string {
  return JSON.stringify(partition, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}
