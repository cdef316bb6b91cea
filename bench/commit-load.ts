/**
 * The load of bench/commits.ts: the REST commits an engine sends for a small append, generated
 * here (undici) rather than by an engine, so that only the catalog's time is measured.
 *
 * A small append is `POST {base}/namespaces/{ns}/tables/{t}` with
 *   requirements [assert-table-uuid, assert-ref-snapshot-id main = the current snapshot or null]
 *   updates      [add-snapshot {snapshot-id, parent-snapshot-id, sequence-number (last + 1),
 *                  timestamp-ms, manifest-list, summary {operation: append, added-data-files: 1,
 *                  added-records: 100, …}, schema-id}, set-snapshot-ref main]
 * as Iceberg Java's SnapshotProducer commits through RESTTableOperations. The manifest list is a
 * path that never exists: a catalog does not read it on commit (were one to, its commits would
 * fail and the bench would stop).
 *
 * Snapshot ids are drawn below 2^53, so the answers' numbers are exact in JavaScript; the few
 * fields a writer needs are read from the answer's text (a table's metadata grows by a snapshot per
 * commit, and parsing all of it in the load generator would take the CPU the servers need).
 */
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';

/** Where a target's REST routes start: `http://host:port/v1` or `http://host:port/v1/<prefix>`. */
export interface CommitTarget {
  readonly base: string;
}

/** What a writer knows of the table: enough to build the next append. */
interface TableState {
  readonly uuid: string;
  readonly location: string;
  readonly currentSnapshotId: number | null;
  readonly lastSequenceNumber: number;
  readonly schemaId: number;
}

export interface LatencyRun {
  /** Milliseconds of each timed commit (request sent to answer read), in order. */
  readonly ms: number[];
  readonly p50: number;
  readonly p99: number;
  /** Size of the last commit's answer (the table's metadata grows a snapshot per commit). */
  readonly lastAnswerBytes: number;
}

export interface ThroughputRun {
  readonly writers: number;
  readonly seconds: number;
  /** Commits answered 200 within the duration. */
  readonly successes: number;
  readonly commitsPerSecond: number;
  /** Commits answered 409 (CommitFailedException) within the duration. */
  readonly conflicts: number;
  /** Reloads and new attempts after a 409 or an error. */
  readonly retries: number;
  /** Answers other than 200 and 409 (status → count) and one message of each. */
  readonly errors: Record<string, number>;
  readonly errorSamples: Record<string, string>;
  /** Successful commits' latencies under contention (first attempt sent to the 200 read), ms. */
  readonly commitP50: number;
  readonly commitP99: number;
  /** Time to a 409 answer (request sent to answer read), median, ms. */
  readonly conflictP50: number;
  /** Checked after the run: snapshots in the table, every one a 200 answered to a writer. */
  readonly snapshots: number;
  /** Bytes of the table's load-table answer after the run. */
  readonly tableBytes: number;
  /** What the table after the run disagrees with the answers the writers got (empty: none). */
  readonly integrity: string[];
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** One undici pool per target, `connections` keep-alive connections, no compression asked. */
export class CommitClient {
  private readonly pool: Pool;
  private readonly base: URL;

  constructor(
    target: CommitTarget,
    connections: number,
    private readonly namespace = 'bench',
  ) {
    this.base = new URL(target.base.endsWith('/') ? target.base : `${target.base}/`);
    this.pool = new Pool(this.base.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private path(rest: string): string {
    return `${this.base.pathname}${rest}`;
  }

  private tablePath(table: string): string {
    return this.path(`namespaces/${encodeURIComponent(this.namespace)}/tables/${encodeURIComponent(table)}`);
  }

  async send(method: 'GET' | 'POST', path: string, body?: string): Promise<{ status: number; text: string }> {
    const res = await this.pool.request({ method, path, headers: body === undefined ? {} : JSON_HEADERS, ...(body !== undefined && { body }) });
    return { status: res.statusCode, text: await res.body.text() };
  }

  /** The namespace (an existing one is fine). */
  async ensureNamespace(): Promise<void> {
    const { status, text } = await this.send('POST', this.path('namespaces'), JSON.stringify({ namespace: [this.namespace], properties: {} }));
    if (status !== 200 && status !== 409) throw new Error(`create namespace: ${status} ${text.slice(0, 500)}`);
  }

  /** A new, empty format-version 2 table (unpartitioned, three columns). */
  async createTable(name: string): Promise<void> {
    const schema = {
      type: 'struct',
      'schema-id': 0,
      fields: [
        { id: 1, name: 'id', required: true, type: 'long' },
        { id: 2, name: 'region', required: false, type: 'string' },
        { id: 3, name: 'amount', required: false, type: 'double' },
      ],
    };
    const body = JSON.stringify({ name, schema, properties: { 'format-version': '2' } });
    const { status, text } = await this.send('POST', this.path(`namespaces/${encodeURIComponent(this.namespace)}/tables`), body);
    if (status !== 200) throw new Error(`create table ${name}: ${status} ${text.slice(0, 500)}`);
  }

  async load(table: string): Promise<{ state: TableState; text: string }> {
    const { status, text } = await this.send('GET', this.tablePath(table));
    if (status !== 200) throw new Error(`load table ${table}: ${status} ${text.slice(0, 500)}`);
    return { state: stateOf(text), text };
  }

  /** One small append on `state`; the answer's status, text, and the snapshot it tried to add. */
  async append(table: string, state: TableState): Promise<{ status: number; text: string; snapshotId: number; sequenceNumber: number }> {
    const snapshotId = Math.floor(Math.random() * (2 ** 53 - 2)) + 1;
    const sequenceNumber = state.lastSequenceNumber + 1;
    const body = appendBody(this.namespace, table, state, snapshotId, sequenceNumber);
    const { status, text } = await this.send('POST', this.tablePath(table), body);
    return { status, text, snapshotId, sequenceNumber };
  }
}

function appendBody(namespace: string, table: string, state: TableState, snapshotId: number, sequenceNumber: number): string {
  const parent = state.currentSnapshotId;
  const snapshot = {
    'snapshot-id': snapshotId,
    ...(parent !== null && { 'parent-snapshot-id': parent }),
    'sequence-number': sequenceNumber,
    'timestamp-ms': Date.now(),
    // never written: a catalog must not need it to commit
    'manifest-list': `${state.location.replace(/\/+$/, '')}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`,
    summary: {
      operation: 'append',
      'added-data-files': '1',
      'added-records': '100',
      'added-files-size': '2048',
      'changed-partition-count': '1',
      'total-records': String(100 * sequenceNumber),
      'total-files-size': String(2048 * sequenceNumber),
      'total-data-files': String(sequenceNumber),
      'total-delete-files': '0',
      'total-position-deletes': '0',
      'total-equality-deletes': '0',
    },
    'schema-id': state.schemaId,
  };
  return JSON.stringify({
    identifier: { namespace: [namespace], name: table },
    requirements: [
      { type: 'assert-table-uuid', uuid: state.uuid },
      { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': parent },
    ],
    updates: [
      { action: 'add-snapshot', snapshot },
      { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': snapshotId },
    ],
  });
}

/** The top-level fields a writer needs, read from a LoadTableResult's text (each occurs once, at the top of the metadata). */
function stateOf(text: string): TableState {
  const str = (key: string) => new RegExp(`"${key}"\\s*:\\s*"([^"]*)"`).exec(text)?.[1];
  const num = (key: string) => new RegExp(`"${key}"\\s*:\\s*(null|-?\\d+)`).exec(text)?.[1];
  const uuid = str('table-uuid');
  const location = str('location');
  const current = num('current-snapshot-id');
  const last = num('last-sequence-number');
  const schema = num('current-schema-id');
  if (uuid === undefined || location === undefined || last === undefined || schema === undefined) throw new Error(`not a LoadTableResult: ${text.slice(0, 300)}`);
  const currentSnapshotId = current === undefined || current === 'null' || current === '-1' ? null : Number(current);
  return { uuid, location, currentSnapshotId, lastSequenceNumber: Number(last), schemaId: Number(schema) };
}

/**
 * One writer, sequential commits on a fresh table, each built on the answer to the previous:
 * `warmup` untimed, then `count` timed. Each answer must show the commit it answers.
 */
export async function latencyRun(client: CommitClient, table: string, warmup: number, count: number): Promise<LatencyRun> {
  await client.createTable(table);
  let { state } = await client.load(table);
  const ms: number[] = [];
  let lastAnswerBytes = 0;
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now();
    const r = await client.append(table, state);
    const elapsed = performance.now() - started;
    if (r.status !== 200) throw new Error(`${table}: commit ${i + 1} of one writer answered ${r.status}: ${r.text.slice(0, 500)}`);
    state = stateOf(r.text);
    if (state.currentSnapshotId !== r.snapshotId || state.lastSequenceNumber !== r.sequenceNumber)
      throw new Error(`${table}: commit ${i + 1} answered current snapshot ${state.currentSnapshotId} at sequence ${state.lastSequenceNumber}, not the ${r.snapshotId} at ${r.sequenceNumber} it added`);
    if (i >= warmup) ms.push(elapsed);
    lastAnswerBytes = Buffer.byteLength(r.text);
  }
  return { ms, p50: percentile(ms, 50), p99: percentile(ms, 99), lastAnswerBytes };
}

/**
 * `writers` writers on one fresh table for `seconds`: each appends on what it last saw; on a 409
 * (or any other error) it reloads the table and tries again at once (no back-off: the catalog's
 * own pace is measured). Commits/s = 200s answered within the duration ÷ the duration. Afterwards
 * the table must hold exactly the snapshots answered 200, in one parent chain (no lost append).
 */
export async function throughputRun(client: CommitClient, table: string, writers: number, seconds: number): Promise<ThroughputRun> {
  await client.createTable(table);
  const start = performance.now();
  const deadline = start + seconds * 1000;
  let successes = 0;
  let acknowledged = 0;
  let conflicts = 0;
  let retries = 0;
  const errors: Record<string, number> = {};
  const errorSamples: Record<string, string> = {};
  const latencies: number[] = [];
  const conflictMs: number[] = [];
  const acked = new Set<number>();
  const writer = async () => {
    let { state } = await client.load(table);
    let firstAttempt = performance.now();
    while (performance.now() < deadline) {
      let r: Awaited<ReturnType<CommitClient['append']>>;
      const sent = performance.now();
      try {
        r = await client.append(table, state);
      } catch (err) {
        r = { status: 0, text: (err as Error).message, snapshotId: 0, sequenceNumber: 0 };
      }
      const now = performance.now();
      if (r.status === 200) {
        acknowledged++;
        acked.add(r.snapshotId);
        if (now <= deadline) {
          successes++;
          latencies.push(now - firstAttempt);
        }
        state = stateOf(r.text);
        firstAttempt = performance.now();
        continue;
      }
      if (now <= deadline) {
        if (r.status === 409) {
          conflicts++;
          conflictMs.push(now - sent);
        }
        else {
          const key = String(r.status);
          errors[key] = (errors[key] ?? 0) + 1;
          errorSamples[key] ??= r.text.slice(0, 300);
        }
      }
      if (performance.now() >= deadline) break;
      retries++;
      state = (await client.load(table)).state;
    }
  };
  await Promise.all(Array.from({ length: writers }, writer));
  const after = await client.load(table);
  const metadata = (JSON.parse(after.text) as { metadata: { snapshots?: { 'snapshot-id': number; 'parent-snapshot-id'?: number }[]; 'current-snapshot-id'?: number | null } }).metadata;
  const snapshots = metadata.snapshots ?? [];
  // one chain from the current snapshot back to the first, through every snapshot
  const byId = new Map(snapshots.map((s) => [s['snapshot-id'], s]));
  let chain = 0;
  for (let id: number | undefined = metadata['current-snapshot-id'] ?? undefined; id !== undefined && id !== -1; id = byId.get(id)?.['parent-snapshot-id']) chain++;
  const problems: string[] = [];
  if (snapshots.length !== acknowledged) problems.push(`${snapshots.length} snapshots, but ${acknowledged} commits were answered 200`);
  if (chain !== snapshots.length) problems.push(`the current snapshot's ancestry has ${chain} snapshots of ${snapshots.length}`);
  const unknown = snapshots.filter((s) => !acked.has(s['snapshot-id'])).length;
  if (unknown) problems.push(`${unknown} snapshots no writer was told were committed`);
  // with no error answered, every problem is a lost or invented commit (the caller stops); after a
  // 5xx or a dropped connection an append may have landed unacknowledged (commit state unknown)
  if (problems.length && Object.keys(errors).length === 0) throw new Error(`${table}: after ${writers} writers: ${problems.join('; ')}`);
  return {
    writers,
    seconds,
    successes,
    commitsPerSecond: successes / seconds,
    conflicts,
    retries,
    errors,
    errorSamples,
    commitP50: percentile(latencies, 50),
    commitP99: percentile(latencies, 99),
    conflictP50: percentile(conflictMs, 50),
    snapshots: snapshots.length,
    tableBytes: Buffer.byteLength(after.text),
    integrity: problems,
  };
}
