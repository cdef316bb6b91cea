/**
 * The Iceberg REST fixture (RESTCatalogServer 1.11.0 through tools/interop's loopback launcher)
 * as a child process: a temp warehouse, a SQLite catalog file, a free port on 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listeningPort, stopProcess, Tail } from './processes.js';
import type { InteropEnv } from './toolchain.js';

/** A warehouse on an S3-compatible store instead of a temp folder (the fixture's S3FileIO). */
export interface S3Warehouse {
  /** `s3://bucket/prefix`: CATALOG_WAREHOUSE. The bucket must exist. */
  readonly warehouse: string;
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface RestFixture {
  /** `http://127.0.0.1:<port>`: the fixture's base URI (it serves unprefixed `/v1/...`). */
  readonly url: string;
  /**
   * The warehouse folder (CATALOG_WAREHOUSE is its file:// URI); with an S3 warehouse, an empty
   * folder that holds nothing.
   */
  readonly warehouseDir: string;
  /** CATALOG_WAREHOUSE as given to the fixture (`file://…` or `s3://…`). */
  readonly warehouse: string;
  /** The running JVM's process id (its memory is in /proc/<pid>); a restart changes it. */
  readonly pid: number;
  /** The fixture's stderr so far (Jetty and catalog logs, every run of it), for failure messages. */
  log(): string;
  /**
   * Stops the JVM as a deployment's restart does (SIGTERM, then SIGKILL after 5 s) and starts it
   * again on the same port, catalog file and warehouse, so everything committed before is still
   * there; resolves once it answers `GET /v1/config` again.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startRestFixture(
  env: InteropEnv,
  options: { startTimeoutMs?: number; jvmOptions?: readonly string[]; s3?: S3Warehouse } = {},
): Promise<RestFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-interop-fixture-'));
  const warehouseDir = path.join(dir, 'warehouse');
  fs.mkdirSync(warehouseDir);
  const warehouse = options.s3?.warehouse ?? `file://${warehouseDir}`;
  // RCKUtils.environmentCatalogConfig: CATALOG_ stripped, `__` → `-`, `_` → `.`, lowercased.
  const s3 = options.s3 && {
    CATALOG_IO__IMPL: 'org.apache.iceberg.aws.s3.S3FileIO',
    CATALOG_S3_ENDPOINT: options.s3.endpoint,
    CATALOG_S3_PATH__STYLE__ACCESS: 'true',
    CATALOG_S3_ACCESS__KEY__ID: options.s3.accessKeyId,
    CATALOG_S3_SECRET__ACCESS__KEY: options.s3.secretAccessKey,
    CATALOG_CLIENT_REGION: options.s3.region,
  };
  const err = new Tail();
  let child: ChildProcess | undefined;
  /** The JVM on `port` (0: a free one), once it answers; its base URI. */
  const launch = async (port: number): Promise<string> => {
    // stdin stays an open pipe: the launcher exits when it closes, i.e. when this process dies.
    const jvm = spawn('java', [...(options.jvmOptions ?? []), '-cp', env.fixtureClasspath.join(path.delimiter), env.fixtureMain, '--exit-on-stdin-eof'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        ...process.env,
        CATALOG_WAREHOUSE: warehouse,
        ...s3,
        CATALOG_URI: `jdbc:sqlite:${path.join(dir, 'catalog.db')}`,
        CATALOG_REST_PORT: String(port),
      },
    });
    child = jvm;
    jvm.stderr.on('data', (c: Buffer) => err.push(c));
    const url = `http://127.0.0.1:${await listeningPort(jvm, new Tail(), options.startTimeoutMs ?? 60_000)}`;
    await waitForConfig(url, 30_000);
    return url;
  };
  const close = async (): Promise<void> => {
    if (child) await stopProcess(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = await launch(0);
    const port = Number(new URL(url).port);
    return {
      url,
      warehouseDir,
      warehouse,
      get pid() {
        return child!.pid!;
      },
      log: () => err.toString(),
      restart: async () => {
        await stopProcess(child!);
        await launch(port);
      },
      close,
    };
  } catch (e) {
    await close();
    throw new Error(`REST fixture did not start: ${(e as Error).message}\n${err.toString().slice(-3000)}`);
  }
}

/** Ready when `GET /v1/config` answers 200 (the fixture image's healthcheck). */
async function waitForConfig(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/v1/config`);
      if (res.status === 200) return;
      last = `status ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`GET ${url}/v1/config not 200 within ${timeoutMs} ms (${last})`);
}
