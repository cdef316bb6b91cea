/** bench/peer_spark.py in one long-lived Python process (one Spark JVM for every measurement). */
import path from 'node:path';
import type { InteropEnv } from '../test/interop/harness/toolchain.js';
import { startJsonLinesChild } from './json-lines-child.js';

export interface SparkCatalog {
  readonly name: string;
  readonly uri: string;
  readonly warehouse?: string;
  readonly planning: 'client' | 'server';
  /** Further catalog properties (e.g. Iceberg's s3.* for a table on S3). */
  readonly properties?: Readonly<Record<string, string>>;
}

/** A scan to plan: the file tasks counted afterwards (untimed), and a filter pushed into it. */
export interface SparkScan {
  readonly countFiles?: boolean;
  /** A Spark SQL condition, e.g. `c4 < 1000`. */
  readonly filter?: string;
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
  plan(catalog: SparkCatalog, table: string, scan?: SparkScan): Promise<SparkPlanning>;
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
  const child = startJsonLinesChild(env.python, SCRIPT, {
    // the runtime and iceberg-aws-bundle (S3FileIO), as the interop suite's clients get them
    ICEFRONT_INTEROP_SPARK_JAR: (env.sparkJars ?? [env.sparkJar]).join(','),
    PYSPARK_PYTHON: env.python,
    // read by pyspark when it launches the JVM; spark_client.py's builder leaves memory alone
    PYSPARK_SUBMIT_ARGS: `--driver-memory ${driverMemory} pyspark-shell`,
  });
  const what = (catalog: SparkCatalog, table: string, filter?: string) => `Spark planning ${table} via ${catalog.uri} (scan-planning-mode=${catalog.planning}${filter ? `, ${filter}` : ''})`;
  return {
    plan: (catalog, table, scan = {}) => child.ask<SparkPlanning>({ catalog, table, countFiles: scan.countFiles ?? false, ...(scan.filter && { filter: scan.filter }) }, what(catalog, table, scan.filter)),
    async planInSteps(catalog, table, after) {
      let reply: SparkPlanning | undefined;
      for (const step of SPARK_STEPS) {
        reply = await child.ask<SparkPlanning>({ step, catalog, table, countFiles: true }, what(catalog, table));
        await after(step);
      }
      return reply!;
    },
    close: () => child.close(),
  };
}
