/**
 * The Python clients (test/interop/clients/) in one long-lived worker process per test file:
 * Spark's JVM starts once and serves every job. Jobs and results are JSON lines.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { stopProcess, Tail } from './processes.js';
import type { InteropEnv } from './toolchain.js';

const CLIENTS_DIR = path.resolve(import.meta.dirname, '../clients');

/** How a client reaches a catalog. `planning` is the client's scan-planning-mode. */
export interface CatalogRef {
  readonly name?: string;
  readonly uri: string;
  readonly warehouse?: string;
  readonly planning?: 'server' | 'client';
  readonly properties?: Readonly<Record<string, string>>;
  /**
   * pyiceberg only: TLS toward an `https://` uri, as its RestCatalog's `ssl` property
   * (`{cabundle, client: {cert, key}}`): the CA bundle to verify the server with, and a client
   * certificate and key (PEM files) for mutual TLS. Spark's REST client trusts the JVM's
   * truststore instead (ClientWorker.start's `sparkJavaOptions`), so a Spark job refuses a ref with it.
   */
  readonly tls?: { readonly caFile?: string; readonly certFile?: string; readonly keyFile?: string };
  /** Trino only: the Trino server (`http://127.0.0.1:<port>`, harness/trino.ts) that reads this catalog. */
  readonly trino?: string;
  /** Trino only: Trino's own catalog properties beyond the REST ones (e.g. `iceberg.unique-table-location`). */
  readonly trinoProperties?: Readonly<Record<string, string>>;
}

/**
 * Spark only: Iceberg's HadoopCatalog straight on a warehouse folder (`<ns>/<table>/metadata/
 * v<N>.metadata.json` + `version-hint.text`), no REST catalog in between.
 */
export interface HadoopCatalogRef {
  readonly name?: string;
  readonly type: 'hadoop';
  /** `file:///…` of the warehouse folder. */
  readonly warehouse: string;
  readonly properties?: Readonly<Record<string, string>>;
}

/**
 * Spark and pyiceberg: a catalog on Iceberg's JDBC catalog tables straight in the database, no REST
 * catalog in between — Spark's `JdbcCatalog` (`type=jdbc`, `jdbc.schema-version=V1`), pyiceberg's
 * `SqlCatalog` (SQLAlchemy). What an Icefront `sql` catalog on the same database shares rows with.
 */
export interface SqlCatalogRef {
  /**
   * The `catalog_name` column (default `sql`). Spark's JdbcCatalog takes its Spark catalog's name
   * as catalog_name, so spark_client.py registers the catalog under exactly this name: one Spark
   * session holds one SqlCatalogRef per name.
   */
  readonly name?: string;
  readonly type: 'sql';
  /** The database: a SQLite file's absolute path, or `postgresql://user[:password]@host:port/db`. */
  readonly uri: string;
  /** `file:///…`: where the catalog puts new tables (`<warehouse>/<ns levels>/<table>`). */
  readonly warehouse: string;
  readonly properties?: Readonly<Record<string, string>>;
}

/** One of pyiceberg's write operations (clients/pyiceberg_client.py `ops`), in order. */
export type PyicebergOp =
  | { readonly op: 'create_namespace'; readonly namespace: string }
  | {
      readonly op: 'create_table';
      readonly table: string;
      /** [name, type]: long, int, string, double, boolean, date; every field optional. */
      readonly schema: ReadonlyArray<readonly [string, string]>;
      /** [column, transform] (pyiceberg's transform spelling: identity, bucket[4], day, …). */
      readonly partition?: ReadonlyArray<readonly [string, string]>;
      readonly properties?: Readonly<Record<string, string>>;
    }
  | { readonly op: 'append'; readonly table: string; readonly rows: ReadonlyArray<Readonly<Record<string, unknown>>> }
  /** Rows matching `filter` replaced by `rows` (Table.overwrite with overwrite_filter). */
  | { readonly op: 'overwrite'; readonly table: string; readonly rows: ReadonlyArray<Readonly<Record<string, unknown>>>; readonly filter: string }
  | { readonly op: 'delete'; readonly table: string; readonly filter: string }
  | { readonly op: 'add_column'; readonly table: string; readonly name: string; readonly type: string };

/**
 * One of iceberg-go's write operations (clients/iceberg_go_client.py, tools/interop/iceberg-go
 * `write`), in order, each one commit: pyiceberg's ops as they are, plus an append to a branch,
 * partition spec evolution and table properties. `delete` is copy-on-write, or merge-on-read by
 * the table's `write.delete.mode` (position deletes on v2, deletion vectors on v3).
 */
export type IcebergGoOp =
  | Exclude<PyicebergOp, { readonly op: 'append' }>
  /** Transaction.Append; with `branch`, on that branch (its first write forks it from main's head). */
  | { readonly op: 'append'; readonly table: string; readonly rows: ReadonlyArray<Readonly<Record<string, unknown>>>; readonly branch?: string }
  /** Transaction.UpdateSpec().AddField: `transform` in Iceberg's spelling (identity, bucket[2], day, …). */
  | { readonly op: 'add_partition_field'; readonly table: string; readonly column: string; readonly transform: string }
  | { readonly op: 'set_properties'; readonly table: string; readonly properties: Readonly<Record<string, string>> };

/** What a pyiceberg write job answers: each table it touched, with its current snapshot id afterwards. */
export interface PyicebergWrote {
  readonly ok: true;
  readonly snapshots: Readonly<Record<string, string | null>>;
}

/** What an iceberg-go write job answers: as PyicebergWrote, plus the requests iceberg-go sent, by kind. */
export interface IcebergGoWrote extends PyicebergWrote {
  readonly requests: Readonly<Record<string, number>>;
}

export type Job =
  | { readonly client: 'spark'; readonly catalog: CatalogRef | HadoopCatalogRef | SqlCatalogRef; readonly sql: readonly string[] }
  | { readonly client: 'spark'; readonly catalog: CatalogRef | HadoopCatalogRef | SqlCatalogRef; readonly query: string }
  /** pyiceberg's writes through a REST catalog or its SqlCatalog (→ PyicebergWrote). */
  | { readonly client: 'pyiceberg'; readonly catalog: CatalogRef | SqlCatalogRef; readonly ops: readonly PyicebergOp[] }
  /** Rows of these data files read as plain Parquet (no Iceberg): what a planned file set holds. */
  | { readonly client: 'spark'; readonly parquet: readonly string[]; readonly columns: readonly string[]; readonly filter?: string }
  /** Iceberg Java's own IncrementalAppendScan.planFiles() for each range (→ IncrementalFiles). */
  | { readonly client: 'spark'; readonly catalog: CatalogRef | HadoopCatalogRef; readonly incremental: string; readonly cases: readonly IncrementalRange[] }
  /**
   * One multi-table commit (Iceberg Java's Catalog.commitTransaction: POST …/transactions/commit)
   * setting table properties and adding an optional string column to each; `stale`: a column is
   * added to the first table on its own in between, so the commit's requirements must refuse it
   * (→ { committed: true } | { committed: false, error }).
   */
  | {
      readonly client: 'spark';
      readonly catalog: CatalogRef;
      readonly transaction: ReadonlyArray<{ readonly table: string; readonly set: Readonly<Record<string, string>>; readonly addColumn?: string }>;
      readonly stale?: boolean;
    }
  /** One fast append (Iceberg Java) of `files` data files that exist only in metadata (→ { snapshotId }). */
  | { readonly client: 'spark'; readonly catalog: CatalogRef; readonly metadataOnlyAppend: string; readonly files: number }
  /** Trino (clients/trino_client.py): statements, or a small query's rows; `{catalog}` is the catalog. */
  | { readonly client: 'trino'; readonly catalog: CatalogRef; readonly sql: readonly string[] }
  | { readonly client: 'trino'; readonly catalog: CatalogRef; readonly query: string }
  /** iceberg-go (clients/iceberg_go_client.py): the catalog's namespaces and `ns.table` names (→ IcebergGoListing). */
  | { readonly client: 'iceberg-go'; readonly catalog: CatalogRef; readonly list: true }
  /** iceberg-go's writes through a REST catalog (→ IcebergGoWrote). */
  | { readonly client: 'iceberg-go'; readonly catalog: CatalogRef; readonly ops: readonly IcebergGoOp[] }
  | ScanJob;

/** What an iceberg-go `list` job answers: every namespace, and every table as `ns.table` (sorted). */
export interface IcebergGoListing {
  readonly namespaces: ReadonlyArray<readonly string[]>;
  readonly tables: readonly string[];
}

/** One range for Iceberg Java's IncrementalAppendScan; ids are int64 decimal strings. */
export interface IncrementalRange {
  /** fromSnapshotExclusive (or fromSnapshotInclusive with `inclusive`); none: from the oldest ancestor. */
  readonly start: string | null;
  readonly end: string;
  readonly inclusive?: boolean;
  /** A REST filter (Java ExpressionParser.fromJson). */
  readonly filter: unknown;
}

/** Per range, in order: the planned data files (sorted), or the exception Java threw. */
export interface IncrementalFiles {
  readonly cases: ReadonlyArray<{ readonly files: readonly string[] } | { readonly error: string }>;
}

export interface ScanJob {
  readonly client: 'spark' | 'pyiceberg' | 'duckdb' | 'trino' | 'iceberg-go';
  /**
   * A HadoopCatalogRef with client `spark` (HadoopCatalog) or `pyiceberg` (the table's own metadata
   * files: StaticTable); a SqlCatalogRef with `spark` (JdbcCatalog) or `pyiceberg` (SqlCatalog).
   */
  readonly catalog: CatalogRef | HadoopCatalogRef | SqlCatalogRef;
  /** `namespace.table` */
  readonly table: string;
  readonly columns: readonly string[];
  /** A predicate every client parses: SQL for Spark and DuckDB, pyiceberg's row-filter syntax. */
  readonly filter?: string;
  /** Read this snapshot (time travel); a decimal string, since snapshot ids are int64. */
  readonly snapshotId?: string;
  /** Spark only: an incremental read (start exclusive, end inclusive) instead of `snapshotId`. */
  readonly startSnapshotId?: string;
  readonly endSnapshotId?: string;
  /** Spark: also list the files rows came from (default true). */
  readonly files?: boolean;
}

/** A scan's result: row count, an order-independent hash, the canonical rows, the data files. */
export interface ScanResult {
  readonly count: number;
  readonly hash: string;
  readonly rows: readonly string[];
  readonly truncated: boolean;
  /** Spark: files rows were read from (`_file`); pyiceberg: files of the planned tasks; DuckDB: null. */
  readonly files: readonly string[] | null;
  /** pyiceberg only: `<data file> <- <delete file>` for every delete attached to a planned task. */
  readonly deletes?: readonly string[];
  /** Spark only: why the `_file` query failed, when it did (the rows were still read). */
  readonly filesError?: string;
}

export class ClientError extends Error {
  constructor(
    message: string,
    readonly traceback: string,
    readonly stderrTail: string,
  ) {
    super(message);
  }
}

interface Reply {
  readonly id: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: string;
  readonly traceback?: string;
}

export class ClientWorker {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  private readonly stderr = new Tail(32_000);
  private exited = false;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.on('data', (c: Buffer) => {
      this.stderr.push(c);
      if (process.env['ICEFRONT_INTEROP_VERBOSE']) process.stderr.write(c);
    });
    readline.createInterface({ input: child.stdout }).on('line', (line) => this.onLine(line));
    child.on('exit', (code, signal) => {
      this.exited = true;
      for (const [, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new ClientError(`client worker exited (${code ?? signal})`, '', this.stderr.toString().slice(-4000)));
      }
      this.pending.clear();
    });
  }

  /**
   * `sparkJars`: Spark's jars for this worker's JVM (default env.sparkJars: Iceberg 1.11).
   * `sparkJavaOptions`: extra options for Spark's driver JVM (`spark.driver.extraJavaOptions`, e.g.
   * `-Djavax.net.ssl.trustStore=…`; no spaces within one), fixed when its first job starts it.
   * `env`: variables for the worker beyond the harness's own; `undefined` removes one it would
   * inherit (e.g. REQUESTS_CA_BUNDLE, which overrides pyiceberg's `ssl.cabundle`).
   */
  static start(
    env: InteropEnv,
    options: { sparkJars?: readonly string[]; sparkJavaOptions?: readonly string[]; env?: Readonly<Record<string, string | undefined>> } = {},
  ): ClientWorker {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ICEFRONT_INTEROP_SPARK_JAR: (options.sparkJars ?? env.sparkJars ?? [env.sparkJar]).join(','),
      PYTHONUNBUFFERED: '1',
      PYSPARK_PYTHON: env.python,
      // TZ: Python's naive datetimes (Spark's timestamps) and DuckDB's session zone in UTC.
      TZ: 'UTC',
      ...(options.sparkJavaOptions?.length && { ICEFRONT_INTEROP_SPARK_JAVA_OPTIONS: options.sparkJavaOptions.join(' ') }),
    };
    for (const [name, value] of Object.entries(options.env ?? {})) {
      if (value === undefined) delete childEnv[name];
      else childEnv[name] = value;
    }
    const child = spawn(env.python, [path.join(CLIENTS_DIR, 'worker.py')], { cwd: CLIENTS_DIR, stdio: ['pipe', 'pipe', 'pipe'], env: childEnv });
    return new ClientWorker(child);
  }

  private onLine(line: string): void {
    let reply: Reply;
    try {
      reply = JSON.parse(line) as Reply;
    } catch {
      return;
    }
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    clearTimeout(p.timer);
    if (reply.ok) p.resolve(reply.result);
    else p.reject(new ClientError(reply.error ?? 'unknown error', reply.traceback ?? '', this.stderr.toString().slice(-4000)));
  }

  run(job: ScanJob, timeoutMs?: number): Promise<ScanResult>;
  run(job: Job, timeoutMs?: number): Promise<unknown>;
  run(job: Job, timeoutMs = 120_000): Promise<unknown> {
    if (this.exited) return Promise.reject(new ClientError('client worker is not running', '', this.stderr.toString().slice(-4000)));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ClientError(`${job.client} job timed out after ${timeoutMs} ms`, '', this.stderr.toString().slice(-4000)));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.child.stdin.write(`${JSON.stringify({ id, job })}\n`);
    });
  }

  /** Ends stdin (the worker stops Spark and exits), then signals it if it lingers. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => void stopProcess(this.child), 20_000);
    await exited;
    clearTimeout(timer);
  }
}
