import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromBinary, type PrimitiveType } from '../../../src/iceberg/index.js';
import { parseJson } from '../../../src/json/index.js';
import { writeSyntheticTable } from '../../../tools/iceberg-writer/index.js';
import { avroMap, readAvro } from '../helpers/read-back.js';

t.test('a metadata-only synthetic table has full statistics and no data files', async (tt) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-syn-'));
  tt.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  const location = 's3://bench/synthetic';
  const { snapshot, entries } = writeSyntheticTable({ root, location, manifests: 3, entriesPerManifest: 40, columns: 20 });
  tt.equal(entries, 120);
  tt.notOk(fs.existsSync(path.join(root, 'data')), 'no data files are written');

  const version = fs.readFileSync(path.join(root, 'metadata/version-hint.text'), 'utf8');
  const metadata = parseJson(fs.readFileSync(path.join(root, `metadata/v${version}.metadata.json`), 'utf8')) as any;
  const columns = metadata.schemas[0].fields as Array<{ id: number; type: string }>;
  tt.equal(columns.length, 20);
  tt.equal(metadata.snapshots[0].summary['added-data-files'], '120');

  const local = (p: string): string => path.join(root, p.slice(location.length + 1));
  const list = await readAvro(fs.readFileSync(local(snapshot.manifestList!)));
  tt.equal(list.rows.length, 3);
  const days = new Set<number>();
  for (const m of list.rows) {
    tt.equal(m.added_files_count, 40);
    const [day] = m.partitions;
    const lo = fromBinary({ kind: 'date' }, day.lower_bound) as number;
    tt.equal(fromBinary({ kind: 'date' }, day.upper_bound), lo, 'one day per manifest');
    days.add(lo);
    for (const e of (await readAvro(fs.readFileSync(local(m.manifest_path)))).rows) {
      const f = e.data_file;
      tt.equal(f.partition.event_ts_day, lo);
      const lower = avroMap<Buffer>(f.lower_bounds);
      const upper = avroMap<Buffer>(f.upper_bounds);
      tt.equal(avroMap(f.value_counts).size, 20);
      tt.equal(lower.size, 20);
      for (const c of columns) {
        const type = { kind: c.type.replace(/\(.*/, '') } as PrimitiveType;
        if (type.kind === 'decimal' || type.kind === 'boolean' || type.kind === 'string') continue;
        tt.ok(fromBinary(type, lower.get(c.id)!) <= fromBinary(type, upper.get(c.id)!), `column ${c.id}: lower <= upper`);
      }
    }
  }
  tt.equal(days.size, 3, 'each manifest covers its own day');
});
