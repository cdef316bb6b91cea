/**
 * The demo warehouse `npm start` serves: the same four tables as fixtures/warehouse, written into
 * `.demo/warehouse` (git-ignored) recording `file://` locations of this machine, so Spark,
 * pyiceberg and DuckDB on the same machine read every file with nothing configured but Icefront's
 * URI. fixtures/warehouse (recorded under s3://icefront-demo/…) stays what the tests read, locally
 * through a remap and over a real S3-compatible server. Regenerated on every start (about 2 s), so
 * it never lags the writer. Usage: tsx tools/demo-warehouse.ts [dir]
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWarehouse } from './make-fixtures.js';

const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', '.demo', 'warehouse'));
const location = pathToFileURL(dir).href;
const tables = buildWarehouse(dir, location);
console.log(`demo warehouse: ${tables.length} tables at ${location}`);
