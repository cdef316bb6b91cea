import t from 'tap';
import type { TableMetadata } from '../../../src/iceberg/index.js';
import {
  chooseCurrentMetadata,
  filesAfterHint,
  filesNamedByHint,
  followHadoopHint,
  highestVersionFiles,
  metadataVersion,
} from '../../../src/catalogs/filesystem/current-metadata.js';

t.test('version numbers come from Hadoop, sequenced and BigQuery file names', async (t) => {
  t.equal(metadataVersion('v3.metadata.json'), 3n);
  t.equal(metadataVersion('v2.gz.metadata.json'), 2n);
  t.equal(metadataVersion('00012-6a821f7a-0eb5-4a24-8ec6-35be5261d140.metadata.json'), 12n);
  t.equal(metadataVersion('0-fb3797e1-6a8a-4bb7-9d18-e9ea5bb998d5.metadata.json'), 0n, 'iceberg-rust does not pad');
  t.equal(metadataVersion('00004-v3-upgraded-v1-null-counts.metadata.json'), 4n);
  t.equal(metadataVersion('v1749025517.metadata.json'), 1749025517n, 'BigQuery epoch versions');
  t.equal(metadataVersion('00001-abc.gz.metadata.json'), 1n);
});

t.test('names without a version number carry none', async (t) => {
  for (const name of ['vfinal.metadata.json', 'v3.1.metadata.json', 'v1.gc_disabled.metadata.json', 'fb072c92-a02b-11e9-ae9c-1bb7bc9eca94.metadata.json', '12345678-1234-1234-1234-123456789012.metadata.json']) {
    t.equal(metadataVersion(name), undefined, name);
  }
});

t.test('a version hint names files by number, by vN, or by file stem', async (t) => {
  const files = ['v1.metadata.json', 'v2.metadata.json', '00003-abc.metadata.json', 'v4.gz.metadata.json'];
  t.same(filesNamedByHint('2\n', files), ['v2.metadata.json'], 'trailing newline trimmed');
  t.same(filesNamedByHint('  v2  ', files), ['v2.metadata.json']);
  t.same(filesNamedByHint('3', files), ['00003-abc.metadata.json']);
  t.same(filesNamedByHint('4', files), ['v4.gz.metadata.json']);
  t.same(filesNamedByHint('00003-abc', files), ['00003-abc.metadata.json']);
  t.same(filesNamedByHint('', files), [], 'empty hint names nothing');
  t.same(filesNamedByHint('9', files), [], 'dangling hint names nothing');
  t.same(filesNamedByHint('../../etc/passwd', files), [], 'a hint only ever names listed files');
});

t.test('a lagging hint is followed forward while the next version exists, as HadoopTableOperations.refresh does', async (t) => {
  const files = ['v1.metadata.json', 'v2.metadata.json', 'v3.metadata.json', 'v4.gz.metadata.json', 'v6.metadata.json'];
  t.same(filesAfterHint('2', files), ['v4.gz.metadata.json'], 'v3 and v4 exist after the hinted v2; v5 does not, so v6 is not reached');
  t.same(filesAfterHint('4', files), ['v4.gz.metadata.json'], 'an up-to-date hint stays');
  t.same(filesAfterHint('6', files), ['v6.metadata.json']);
  t.same(filesAfterHint('9', files), [], 'a dangling hint names nothing');
  const sequenced = ['00001-a.metadata.json', '00002-b.metadata.json', '00003-c.metadata.json', '00003-d.metadata.json'];
  t.same(filesAfterHint('00001-a', sequenced), ['00003-c.metadata.json', '00003-d.metadata.json'], 'a stem hint follows its version number');
  t.same(filesAfterHint('00003-d', sequenced), ['00003-d.metadata.json'], 'a stem hint at the newest version names its own file');
});

t.test('a numeric hint is followed through v<N> files without a listing, as HadoopTableOperations.refresh does', async (t) => {
  const follow = async (hint: string, files: string[]) => {
    const asked: string[][] = [];
    const found = await followHadoopHint(hint, async (names) => {
      asked.push(names);
      return names.filter((n) => files.includes(n));
    });
    return { found, asks: asked.length };
  };
  const run = Array.from({ length: 12 }, (_, i) => `v${i + 1}.metadata.json`);
  t.same(await follow('12\n', run), { found: ['v12.metadata.json'], asks: 1 }, 'an up-to-date hint: one question');
  t.same(await follow('v3', run), { found: ['v12.metadata.json'], asks: 4 }, 'a lagging hint follows every later version (2, then 4 at a time)');
  t.same(await follow('2', ['v2.metadata.json', 'v3.gz.metadata.json', 'v3.metadata.json']), { found: ['v3.metadata.json', 'v3.gz.metadata.json'], asks: 2 }, 'both spellings of a version');
  t.same(await follow('2', ['v1.metadata.json', 'v3.metadata.json']), { found: undefined, asks: 1 }, 'a hint naming no file: the caller lists');
  t.same(await follow('00001-a', ['00001-a.metadata.json']), { found: undefined, asks: 0 }, 'a stem hint: the caller lists');
  t.same(await follow('', run), { found: undefined, asks: 0 });
  // what the listing decides from the same folder, for every hint above that finds a file
  t.same(filesAfterHint('v3', run), ['v12.metadata.json']);
});

t.test('the highest version wins by number, not by text', async (t) => {
  t.same(highestVersionFiles(['v9.metadata.json', 'v10.metadata.json']), ['v10.metadata.json']);
  t.same(highestVersionFiles(['2-a.metadata.json', '00010-b.metadata.json', 'vfinal.metadata.json']), ['00010-b.metadata.json']);
  t.same(highestVersionFiles(['v3.metadata.json', 'v3.gz.metadata.json', 'v2.metadata.json']), ['v3.metadata.json', 'v3.gz.metadata.json']);
  t.same(highestVersionFiles(['vfinal.metadata.json', 'vdraft.metadata.json']), ['vfinal.metadata.json', 'vdraft.metadata.json'], 'all unnumbered tie');
});

t.test('ties go to the newest last-updated-ms, then to the greatest file name', async (t) => {
  const updated: Record<string, number> = { 'a.metadata.json': 5, 'b.metadata.json': 9, 'c.metadata.json': 9, 'v1.metadata.json': 1, 'v2.metadata.json': 2, 'v2.gz.metadata.json': 3 };
  const loaded: string[] = [];
  const load = async (f: string) => {
    loaded.push(f);
    return { metadata: { lastUpdatedMs: updated[f]! } as unknown as TableMetadata };
  };
  t.equal((await chooseCurrentMetadata(['c.metadata.json', 'a.metadata.json', 'b.metadata.json'], undefined, load)).file, 'c.metadata.json');
  t.equal((await chooseCurrentMetadata(['a.metadata.json', 'b.metadata.json'], undefined, load)).file, 'b.metadata.json');
  t.equal((await chooseCurrentMetadata(['v1.metadata.json', 'v3.metadata.json'], '1', load)).file, 'v1.metadata.json', 'the hint beats a higher version past a gap');
  t.equal((await chooseCurrentMetadata(['v1.metadata.json', 'v2.metadata.json'], '1', load)).file, 'v2.metadata.json', 'a lagging hint is followed');
  loaded.length = 0;
  t.equal((await chooseCurrentMetadata(['v1.metadata.json', 'v2.metadata.json', 'v2.gz.metadata.json'], undefined, load)).file, 'v2.gz.metadata.json');
  t.same(loaded.sort(), ['v2.gz.metadata.json', 'v2.metadata.json'], 'only the tied candidates are parsed');
});
