/**
 * Every reader a test file of the suite reads with: one client worker (one Spark JVM on Iceberg
 * 1.11, pyiceberg, DuckDB), a second worker whose Spark runs Iceberg's next release (1.12: its
 * table cache revalidates loads with If-None-Match) when setup.sh resolved it, iceberg-go (built
 * once per machine; its path reaches the workers through the environment) and a Trino server.
 * The optional ones are undefined, and their readers left out, when skipped or failed (outside
 * CI; harness/iceberg-go.ts, harness/trino.ts).
 */
import type { Test } from 'tap';
import { ClientWorker } from './clients.js';
import { icebergGoFor } from './iceberg-go.js';
import type { InteropEnv } from './toolchain.js';
import { startTrinoFor, type TrinoServer } from './trino.js';

export interface Readers {
  readonly worker: ClientWorker;
  readonly workerNext?: ClientWorker;
  /** The iceberg-go client's binary. */
  readonly icebergGo?: string;
  readonly trino?: TrinoServer;
}

/** Starts them; `closeAfter` (the file's Icefront and upstreams) is closed after them at teardown. */
export async function startReaders(t: Test, env: InteropEnv, closeAfter: () => Promise<void>): Promise<Readers> {
  const icebergGo = await icebergGoFor(t);
  const worker = ClientWorker.start(env);
  const workerNext = env.sparkJarsNext ? ClientWorker.start(env, { sparkJars: env.sparkJarsNext }) : undefined;
  let trino: TrinoServer | undefined;
  t.teardown(async () => {
    await worker.close();
    await workerNext?.close();
    await trino?.close();
    await closeAfter();
  });
  trino = await startTrinoFor(t);
  return { worker, ...(workerNext && { workerNext }), ...(icebergGo && { icebergGo }), ...(trino && { trino }) };
}
