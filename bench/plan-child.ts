/**
 * One cold measurement in a fresh process (run by bench/run.ts):
 *   plan-child.ts plan WAREHOUSE NS TABLE   → planFiles on the table, unfiltered
 *   plan-child.ts plan-stats WAREHOUSE NS TABLE → the same, asking for every column's stats
 *   plan-child.ts plan-stats-json WAREHOUSE NS TABLE → plan-stats, then every task written as REST
 *     ScanTasks JSON (what a /plan or /tasks answer costs once the stats are on the wire)
 *   plan-child.ts avsc WAREHOUSE NS TABLE   → avsc alone decoding the same manifest list and manifests
 * Prints one JSON line: { ms, entries, maxRssMB }.
 */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import avro from 'avsc';
import { createFilesystemCatalog } from '../src/catalogs/index.js';
import { currentSchema, currentSnapshot } from '../src/iceberg/index.js';
import { DEFAULT_SCAN, fileManifestSource, planFiles, ScanTasksWriter } from '../src/planner/index.js';
import { stringifyJson } from '../src/json/index.js';

const [mode, warehouse, ns, table] = process.argv.slice(2) as [string, string, string, string];
const catalog = createFilesystemCatalog({ type: 'filesystem', name: 'bench', warehouse, locations: [{ prefix: 's3://bench/warehouse', dir: warehouse }], planning: 'on' });
const loaded = await catalog.loadTable({ namespace: [ns], name: table });
const tableDir = path.join(warehouse, ns, table);
const local = (location: string) => path.join(tableDir, location.slice(loaded.metadata.location.length));

let entries = 0;
const started = performance.now();
let jsonBytes: number | undefined;
if (mode === 'plan' || mode === 'plan-stats' || mode === 'plan-stats-json') {
  // plan-stats asks for every column's stats, so the planner keeps all six metric maps too.
  const statsFields = mode === 'plan' ? undefined : currentSchema(loaded.metadata).fields.map((f) => f.name);
  const request = statsFields ? { ...DEFAULT_SCAN, statsFields } : DEFAULT_SCAN;
  const plan = await planFiles(loaded.metadata, request, { source: fileManifestSource(loaded.io, loaded.metadata) });
  entries = plan.tasks.length;
  if (mode === 'plan-stats-json') {
    // pages of 1,000 tasks, as a server writes them: every metric of every column on the wire
    const writer = new ScanTasksWriter(plan);
    jsonBytes = 0;
    for (let i = 0; i < plan.tasks.length; i += 1000) jsonBytes += stringifyJson(writer.write(plan.tasks.slice(i, i + 1000))).length;
  }
} else {
  // The baseline: avsc's own container decoder with BigInt longs, every record of every file.
  const BigLong = avro.types.LongType.__with({
    fromBuffer: (b: Buffer) => b.readBigInt64LE(),
    toBuffer: (n: bigint) => {
      const b = Buffer.alloc(8);
      b.writeBigInt64LE(BigInt(n));
      return b;
    },
    fromJSON: BigInt,
    toJSON: Number,
    isValid: (n: unknown) => typeof n === 'bigint' || Number.isSafeInteger(n),
    compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
  });
  // Types are compiled once per distinct writer schema, as any sensible avsc user would.
  const types = new Map<string, avro.Type>();
  const typeFor = (schema: avro.Schema): avro.Type => {
    const key = JSON.stringify(schema);
    let type = types.get(key);
    if (!type) {
      type = avro.Type.forSchema(schema, {
        registry: { long: BigLong },
        typeHook: (s: unknown) => (s && typeof s === 'object' && (s as { type?: unknown }).type === 'long' ? BigLong : undefined),
      } as unknown as Partial<avro.ForSchemaOptions>);
      types.set(key, type);
    }
    return type;
  };
  const decode = async (file: string): Promise<Record<string, unknown>[]> => {
    const dec = new avro.streams.BlockDecoder({ parseHook: typeFor });
    const rows: Record<string, unknown>[] = [];
    dec.on('data', (r: Record<string, unknown>) => rows.push(r));
    const end = once(dec, 'end');
    dec.end(fs.readFileSync(file));
    await end;
    return rows;
  };
  const list = await decode(local(currentSnapshot(loaded.metadata)!.manifestList!));
  for (const m of list) entries += (await decode(local(String(m['manifest_path'])))).length;
}
const ms = performance.now() - started;
console.log(JSON.stringify({ ms, entries, maxRssMB: process.resourceUsage().maxRSS / 1024, ...(jsonBytes !== undefined && { jsonBytes }) }));
