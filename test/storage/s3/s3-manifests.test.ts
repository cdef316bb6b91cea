import t from 'tap';
import path from 'node:path';
import { currentSchema, metadataFileText, parseTableMetadata } from '../../../src/iceberg/index.js';
import { readManifest, readManifestList } from '../../../src/planner/manifests/index.js';
import { createLocalFileIO, createS3FileIO } from '../../../src/storage/index.js';
import { startS3Server, type S3TestServer } from '../../helpers/s3-server.js';

// the demo table records s3://icefront-demo/warehouse/sales/orders: serve it from that very place
const WAREHOUSE = path.resolve(import.meta.dirname, '../../../fixtures/warehouse');
const TABLE_LOCATION = 's3://icefront-demo/warehouse/sales/orders';

let server: S3TestServer;
t.before(async () => {
  server = await startS3Server({ bucket: 'icefront-demo', uploads: [{ dir: path.join(WAREHOUSE, 'sales/orders'), prefix: 'warehouse/sales/orders' }] });
});
t.teardown(() => server?.close());

t.test('the demo table metadata, manifest lists and manifests read from S3 as from disk', async (t) => {
  const s3io = createS3FileIO({ endpoint: server.endpoint, region: server.region, pathStyle: true, credentials: server.credentials });
  const diskIo = createLocalFileIO({ roots: [WAREHOUSE], remaps: [{ prefix: 's3://icefront-demo/warehouse', dir: WAREHOUSE }] });
  const metadata = parseTableMetadata(metadataFileText(await s3io.readFile(`${TABLE_LOCATION}/metadata/v4.metadata.json`)));
  t.equal(metadata.location, TABLE_LOCATION);
  t.ok(metadata.snapshots.length > 0);
  const specsById = new Map(metadata.partitionSpecs.map((s) => [s.specId, s] as const));
  const schema = currentSchema(metadata);
  for (const snapshot of metadata.snapshots) {
    const list = snapshot.manifestList!;
    const options = { formatVersion: metadata.formatVersion, snapshotId: snapshot.snapshotId };
    const manifests = await readManifestList(s3io, list, options);
    t.ok(manifests.length > 0, `${list} names manifests`);
    t.same(manifests, await readManifestList(diskIo, list, options), list);
    for (const manifest of manifests) {
      const { entries } = await readManifest(s3io, manifest, { specsById, schema });
      t.ok(entries.length > 0, `${manifest.path} has entries`);
      t.same(entries, (await readManifest(diskIo, manifest, { specsById, schema })).entries, manifest.path);
    }
  }
});
