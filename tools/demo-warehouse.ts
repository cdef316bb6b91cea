/**
 * The demo warehouse `npm start` serves: the same four tables as fixtures/warehouse, written into
 * `.demo/warehouse` (git-ignored) recording `file://` locations of this machine, so Spark,
 * pyiceberg and DuckDB on the same machine read every file with nothing configured but Icefront's
 * URI. fixtures/warehouse (recorded under s3://icefront-demo/…) stays what the tests read, locally
 * through a remap and over a real S3-compatible server. The four tables are regenerated on every
 * start (about 2 s), so they never lag the writer; the demo catalog is writable, and namespaces
 * and tables its users created are kept. Usage: tsx tools/demo-warehouse.ts [dir]
 * (test/interop/demo-engines.test.ts calls writeDemoWarehouse with a temp folder.)
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWarehouse, type TableReport } from './make-fixtures.js';

/** Where `npm start` writes the demo (config.example.yaml's `demo` catalog serves this folder). */
export const DEMO_WAREHOUSE_DIR = path.join(import.meta.dirname, '..', '.demo', 'warehouse');

export interface DemoWarehouse {
  /** The `file://` URI every table's location starts with. */
  readonly location: string;
  readonly tables: TableReport[];
}

/** Writes the demo tables into `dir` (replacing the demo's own tables there, keeping others), recording its file:// URI. */
export function writeDemoWarehouse(dir: string = DEMO_WAREHOUSE_DIR): DemoWarehouse {
  const abs = path.resolve(dir);
  const location = pathToFileURL(abs).href;
  return { location, tables: buildWarehouse(abs, location, { keepOthers: true }) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { location, tables } = writeDemoWarehouse(process.argv[2] ?? DEMO_WAREHOUSE_DIR);
  console.log(`demo warehouse: ${tables.length} tables at ${location}`);
}
