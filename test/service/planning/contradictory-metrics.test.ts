/**
 * Column metrics that contradict themselves are ignored for pruning, counted in /metrics and
 * logged once per file at debug level. The table is the real duckdb-iceberg/
 * moved_positional_delete_path, whose files carry the placeholder bounds `min_val_N` / `max_val_N`
 * (lower > upper) while every row holds `value_…`: pruning on them answered no rows.
 */
import t from 'tap';
import { logLines } from '../../helpers/log-lines.js';
import { createLogger } from '../../../src/observability/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable, realFixturesCatalogConfig } from '../../helpers/real-fixtures.js';
import { appWith, metric, parse, post } from './helpers.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;
const TABLE = '/v1/real/namespaces/duckdb-iceberg/tables/moved_positional_delete_path';

t.test('files with contradictory metrics are kept, counted per evaluation and logged once per file', { skip }, async (t) => {
  const { lines, destination } = logLines();
  const app = appWith([realFixturesCatalogConfig('real')], { batchSize: 0 }, createLogger({ level: 'debug', destination }));
  t.teardown(() => app.close());
  const counted = async () => metric((await app.inject({ url: '/metrics' })).body, 'icefront_contradictory_metrics_total');

  t.equal(await counted(), 0, 'nothing counted before a plan');
  const unfiltered = parse((await post(app, `${TABLE}/plan`, {})).body);
  t.equal(unfiltered['file-scan-tasks'].length, 4, 'the table has 4 live data files');
  t.equal(await counted(), 0, 'an unfiltered plan evaluates no metrics');

  const filtered = parse((await post(app, `${TABLE}/plan`, { filter: { type: 'eq', term: 'id', value: 'value_0' } })).body);
  t.equal(filtered['file-scan-tasks'].length, 4, "every file holds id = 'value_0' rows and is kept");
  t.equal(await counted(), 4, 'each file evaluated is counted');
  await post(app, `${TABLE}/plan`, { filter: { type: 'eq', term: 'id', value: 'value_1' } });
  t.equal(await counted(), 8, 'and counted again by the next plan');

  const logged = lines.filter((l) => l.msg === 'column metrics contradict themselves; ignored for pruning');
  t.equal(logged.length, 4, 'logged once per file, not once per plan');
  t.equal(new Set(logged.map((l) => l.filePath)).size, 4);
  t.ok(logged.every((l) => l.level === 20 && l.catalog === 'real' && JSON.stringify(l.columns) === '["id"]'), 'at debug level, naming catalog and column');
});
