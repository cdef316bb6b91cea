/**
 * The demo warehouse (fixtures/warehouse, served to tests by fixtures/test-config.yaml) for row-level tests:
 * its catalog and the tables its README lists, with their live row counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFilesystemCatalog, type Catalog, type LoadedTable } from '../../../src/catalogs/index.js';
import { loadConfigFile, type FilesystemCatalogConfig } from '../../../src/config/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');

export interface DemoTable {
  /** `namespace.table` */
  readonly name: string;
  /** Rows a correct reader returns for the current snapshot after every delete (README "live rows"). */
  readonly liveRows: number;
}

let catalog: Catalog | undefined;

export function demoCatalog(): Catalog {
  catalog ??= createFilesystemCatalog(loadConfigFile(path.join(REPO, 'fixtures/test-config.yaml')).catalogs.get('demo') as FilesystemCatalogConfig);
  return catalog;
}

export function loadDemoTable(name: string): Promise<LoadedTable> {
  const [ns, table] = name.split('.') as [string, string];
  return demoCatalog().loadTable({ namespace: [ns], name: table });
}

/** The README's table rows: | `ns.table` | format | snapshots | live rows | contents | */
export function demoTables(): DemoTable[] {
  const readme = fs.readFileSync(path.join(REPO, 'fixtures/warehouse/README.md'), 'utf8');
  return [...readme.matchAll(/^\| `([\w.]+)` \| \d+ \| \d+ \| (\d+) \|/gm)].map((m) => ({ name: m[1]!, liveRows: Number(m[2]) }));
}
