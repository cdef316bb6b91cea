/**
 * What `npm start` serves: tools/demo-warehouse.ts writes the demo tables recording file://
 * locations of the folder they are in, so every path an engine is handed (metadata, manifest
 * lists, manifests, data and delete files) opens on this machine, with no remap configured.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { createFilesystemCatalog } from '../../src/catalogs/index.js';
import { currentSnapshot } from '../../src/iceberg/index.js';
import { DEFAULT_SCAN, fileManifestSource, planFiles } from '../../src/planner/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

t.test('the generated demo records file:// locations that open as they are, with no remap', async (t) => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-demo-')));
  t.teardown(() => fs.rmSync(base, { recursive: true, force: true }));
  const dir = path.join(base, 'warehouse');
  const { stdout } = await run(process.execPath, [path.join(REPO, 'node_modules/tsx/dist/cli.mjs'), path.join(REPO, 'tools/demo-warehouse.ts'), dir]);
  t.match(stdout, `4 tables at ${pathToFileURL(dir).href}`);

  const catalog = createFilesystemCatalog({ type: 'filesystem', name: 'demo', warehouse: dir, locations: [], planning: 'on' });
  const opens = (location: string) => location.startsWith('file:') && fs.existsSync(fileURLToPath(location));
  for (const [ns, name] of [['sales', 'orders'], ['sales', 'returns'], ['events', 'clicks'], ['legacy', 'inventory']] as const) {
    const table = await catalog.loadTable({ namespace: [ns], name });
    t.equal(table.metadata.location, pathToFileURL(path.join(dir, ns, name)).href, `${ns}.${name}: location is its own folder`);
    t.ok(opens(table.metadataLocation), `${ns}.${name}: metadata location opens`);
    const snapshot = currentSnapshot(table.metadata)!;
    t.ok(snapshot.manifestList === undefined || opens(snapshot.manifestList), `${ns}.${name}: manifest list opens`);
    const plan = await planFiles(table.metadata, DEFAULT_SCAN, { source: fileManifestSource(table.io, table.metadata) });
    const paths = plan.tasks.flatMap((task) => [task.data.file.filePath, ...task.deletes.map((d) => d.file.filePath)]);
    t.ok(paths.length > 0);
    t.same(paths.filter((p) => !opens(p)), [], `${ns}.${name}: every data and delete file path opens`);
  }
});
