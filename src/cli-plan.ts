/**
 * `icefront plan`: plan a scan in-process and print the tasks with a pruning summary, the way an
 * operator checks why a query reads what it reads.
 */
import { parseCommand, readConfig, usageOf, UsageError } from './cli-args.js';
import { parseJson, stringifyJson } from './json/index.js';
import { buildService } from './main.js';

export const PLAN_USAGE = `  icefront plan [--config FILE] WAREHOUSE NAMESPACE TABLE [--filter JSON] [--snapshot ID]
                [--select a,b] [--stats-fields a,b] [--json]
      Plan a scan and print its tasks and a pruning summary. Levels of a nested NAMESPACE
      are separated by %1F (or a 0x1F character), as in REST paths, never by '.': a dot
      belongs to a level's name (db%1Fsub is two levels, db.sub is one). --filter takes
      the REST filter JSON.
`;

export async function planCommand(args: string[], out: (line: string) => void): Promise<void> {
  const usage = usageOf(PLAN_USAGE);
  const { values, positionals } = parseCommand(
    {
      args,
      allowPositionals: true,
      options: {
        config: { type: 'string', short: 'c' },
        filter: { type: 'string', short: 'f' },
        snapshot: { type: 'string', short: 's' },
        select: { type: 'string' },
        'stats-fields': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  if (values.help) {
    out(usage.trimEnd());
    return;
  }
  if (positionals.length !== 3) throw new UsageError('plan needs WAREHOUSE NAMESPACE TABLE', usage);
  const [warehouse, namespaceArg, table] = positionals as [string, string, string];
  // README: levels are never separated by '.' (a dot belongs to a level's name); %1F as in REST paths
  const namespace = namespaceArg.split(/%1F|\x1f/i);
  const body: Record<string, unknown> = {};
  if (values.filter !== undefined) body['filter'] = parseJson(values.filter);
  if (values.snapshot !== undefined) {
    if (!/^-?\d+$/.test(values.snapshot)) throw new UsageError(`--snapshot: not a snapshot id: ${values.snapshot}`, usage);
    body['snapshot-id'] = BigInt(values.snapshot);
  }
  if (values.select !== undefined) body['select'] = values.select.split(',');
  if (values['stats-fields'] !== undefined) body['stats-fields'] = values['stats-fields'].split(',');

  const service = buildService(readConfig(values.config, usage));
  const { tasks: result, stats, snapshotId } = await service.explainTableScan(warehouse, { namespace, name: table }, body);
  if (values.json) {
    out(stringifyJson({ ...result, summary: { 'snapshot-id': snapshotId, ...stats } }, 2));
    return;
  }
  const deleteFiles = result['delete-files'] ?? [];
  out(`Table ${[...namespace, table].join('.')} in ${warehouse}, snapshot ${snapshotId ?? '(none: the table is empty)'}`);
  for (const task of result['file-scan-tasks']) {
    const file = task['data-file'] as Record<string, unknown>;
    const refs = (task['delete-file-references'] as number[] | undefined) ?? [];
    out(`  ${String(file['file-path'])}  (${String(file['record-count'])} rows, partition ${stringifyJson(file['partition'])})`);
    for (const i of refs) {
      const del = deleteFiles[i]!;
      out(`      - ${String(del['content'])}: ${String(del['file-path'])}`);
    }
    if (task['residual-filter'] !== true) out(`      residual: ${stringifyJson(task['residual-filter'])}`);
  }
  out('Summary:');
  out(`  manifests: ${stats.manifests} in the snapshot; read ${stats.dataManifestsRead} data + ${stats.deleteManifestsRead} delete, skipped ${stats.manifestsSkipped}`);
  out(`  data files: ${stats.dataFilesKept} kept, ${stats.dataFilesPruned} pruned by partition or column metrics`);
  if (stats.contradictoryMetrics > 0) out(`  column metrics ignored: ${stats.contradictoryMetrics} data file(s) whose bounds or counts contradict themselves`);
  out(`  delete files: ${stats.deleteFilesIndexed} indexed, ${stats.deletesAttached} attached to tasks (${deleteFiles.length} distinct)`);
}
