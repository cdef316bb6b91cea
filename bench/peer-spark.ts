/** bench/peer_spark.py in one long-lived Python process (one Spark JVM for every measurement). */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { stopProcess, Tail } from '../test/interop/harness/processes.js';
import type { InteropEnv } from '../test/interop/harness/toolchain.js';

export interface SparkCatalog {
  readonly name: string;
  readonly uri: string;
  readonly warehouse?: string;
  readonly planning: 'client' | 'server';
  /** Further catalog properties (e.g. Iceberg's s3.* for a table on S3). */
  readonly properties?: Readonly<Record<string, string>>;
}

export interface SparkPlanning {
  readonly ms: number;
  readonly tableMs: number;
  readonly optimizedMs: number;
  readonly physicalMs: number;
  readonly partitionsMs: number;
  readonly partitions: number;
  readonly files: number | null;
}

export interface SparkPlanner {
  plan(catalog: SparkCatalog, table: string, countFiles?: boolean): Promise<SparkPlanning>;
  /**
   * The same one step at a time (spark.table, optimizedPlan, executedPlan, getNumPartitions),
   * calling `after(step)` once each has answered; counts the planned file tasks.
   */
  planInSteps(catalog: SparkCatalog, table: string, after: (step: SparkStep) => Promise<void>): Promise<SparkPlanning>;
  close(): Promise<void>;
}

export const SPARK_STEPS = ['table', 'optimized', 'physical', 'partitions'] as const;
export type SparkStep = (typeof SPARK_STEPS)[number];

const SCRIPT = path.resolve(import.meta.dirname, 'peer_spark.py');

/** `driverMemory` is Spark's --driver-memory (local mode: the one JVM's -Xmx). */
export function startSparkPlanner(env: InteropEnv, driverMemory: string): SparkPlanner {
  const child = spawn(env.python, [SCRIPT], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // the runtime and iceberg-aws-bundle (S3FileIO), as the interop suite's clients get them
      ICEFRONT_INTEROP_SPARK_JAR: (env.sparkJars ?? [env.sparkJar]).join(','),
      PYTHONUNBUFFERED: '1',
      PYSPARK_PYTHON: env.python,
      // read by pyspark when it launches the JVM; spark_client.py's builder leaves memory alone
      PYSPARK_SUBMIT_ARGS: `--driver-memory ${driverMemory} pyspark-shell`,
    },
  });
  const err = new Tail(32_000);
  child.stderr.on('data', (c: Buffer) => {
    err.push(c);
    if (process.env['BENCH_PEER_VERBOSE']) process.stderr.write(c);
  });
  const waiting: ((line: string) => void)[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  let exited = false;
  child.once('exit', () => {
    exited = true;
    for (const w of waiting.splice(0)) w(JSON.stringify({ ok: false, error: `peer_spark.py exited\n${err.toString().slice(-4000)}` }));
  });
  const ask = async (job: object, what: string): Promise<SparkPlanning> => {
    if (exited) throw new Error(`peer_spark.py has exited\n${err.toString().slice(-4000)}`);
    const line = await new Promise<string>((resolve) => {
      waiting.push(resolve);
      child.stdin.write(JSON.stringify(job) + '\n');
    });
    const reply = JSON.parse(line) as SparkPlanning & { ok: boolean; error?: string; traceback?: string };
    if (!reply.ok) throw new Error(`Spark planning ${what}: ${reply.error}\n${reply.traceback ?? ''}`);
    return reply;
  };
  const what = (catalog: SparkCatalog, table: string) => `${table} via ${catalog.uri} (scan-planning-mode=${catalog.planning})`;
  return {
    plan: (catalog, table, countFiles = false) => ask({ catalog, table, countFiles }, what(catalog, table)),
    async planInSteps(catalog, table, after) {
      let reply: SparkPlanning | undefined;
      for (const step of SPARK_STEPS) {
        reply = await ask({ step, catalog, table, countFiles: true }, what(catalog, table));
        await after(step);
      }
      return reply!;
    },
    async close() {
      child.stdin.end();
      await stopProcess(child, 20_000);
    },
  };
}
