/**
 * Commits generated here through Icefront's REST commit route (as bench/commit-load.ts, with a
 * bearer token and kept outcomes): appends (an add-snapshot whose summary says 100 rows, and the
 * main ref moved to it, as Iceberg Java's SnapshotProducer commits; the manifest list is a path
 * never written, so these tables are never planned) and schema changes (a new optional column
 * with a table property naming it, in one commit, so "wholly in or out" can be read afterwards).
 *
 * Each commit's outcome is kept: `acked` (200), `conflict` (409: must leave nothing), `refused`
 * (another 4xx: must leave nothing), `unknown` (5xx, cut, no answer: wholly in or wholly out).
 * A 200 whose body is not a LoadTableResult a client can read (a body cut short that looked whole)
 * is written down in `malformed`; goals.ts counts it as a failure.
 */
import { randomInt } from 'node:crypto';
import type { Judge } from './judge.js';

export type CommitOutcome = 'acked' | 'conflict' | 'refused' | 'unknown';

export interface AppendRecord {
  readonly catalog: string;
  readonly table: string;
  readonly snapshotId: string;
  readonly outcome: CommitOutcome;
}

export interface SchemaRecord {
  readonly catalog: string;
  readonly table: string;
  readonly column: string;
  readonly outcome: CommitOutcome;
}

export const SYNTH_ROWS_PER_APPEND = 100;

interface State {
  readonly uuid: string;
  readonly location: string;
  readonly current: string | null;
  readonly lastSequence: number;
  readonly schemaId: number;
  readonly lastColumnId: number;
  readonly fields: unknown[];
}

/** The few fields a writer needs, read from a LoadTableResult (ids as strings: they are int64). */
export function stateOf(text: string): State {
  const str = (key: string) => new RegExp(`"${key}"\\s*:\\s*"([^"]*)"`).exec(text)?.[1];
  const num = (key: string) => new RegExp(`"${key}"\\s*:\\s*(null|-?\\d+)`).exec(text)?.[1];
  const uuid = str('table-uuid');
  const location = str('location');
  const last = num('last-sequence-number');
  const schemaId = num('current-schema-id');
  const lastColumnId = num('last-column-id');
  if (uuid === undefined || location === undefined || last === undefined || schemaId === undefined || lastColumnId === undefined) throw new Error(`not a LoadTableResult: ${text.slice(0, 200)}`);
  const current = num('current-snapshot-id');
  const metadata = (JSON.parse(text) as { metadata: { schemas: { 'schema-id': number; fields: unknown[] }[] } }).metadata;
  const schema = metadata.schemas.find((s) => s['schema-id'] === Number(schemaId));
  return {
    uuid,
    location,
    current: current === undefined || current === 'null' || current === '-1' ? null : current,
    lastSequence: Number(last),
    schemaId: Number(schemaId),
    lastColumnId: Number(lastColumnId),
    fields: schema?.fields ?? [],
  };
}

export function outcomeOf(status: number, outcome: string): CommitOutcome {
  if (status === 200 && outcome === 'success') return 'acked';
  if (status === 409) return 'conflict';
  if (status >= 400 && status < 500) return 'refused';
  return 'unknown';
}

export class SynthTable {
  constructor(
    private readonly judge: Judge,
    readonly catalog: string,
    readonly namespace: string,
    readonly table: string,
    private readonly headers: Record<string, string>,
    private readonly malformed: string[],
  ) {}

  /** The writer's state from a 200's body; undefined (and written down) when the body is not a whole LoadTableResult. */
  private stateFrom(kind: string, text: string): State | undefined {
    try {
      return stateOf(text);
    } catch (err) {
      if (this.malformed.length < 50) this.malformed.push(`${kind} on ${this.catalog}.${this.table}: a 200 whose body is not a LoadTableResult (${text.length} characters: ${(err as Error).message.slice(0, 100)})`);
      return undefined;
    }
  }

  get path(): string {
    return `/v1/${this.catalog}/namespaces/${this.namespace}/tables/${this.table}`;
  }

  async load(): Promise<State | undefined> {
    const a = await this.judge.send('commit-load', this.catalog, 'GET', this.path, { headers: this.headers });
    return a.status === 200 && a.outcome === 'success' ? this.stateFrom('load', a.text) : undefined;
  }

  async append(state: State): Promise<{ record: AppendRecord; next?: State }> {
    // below 2^53 so every reader's numbers are exact; as a decimal string in the records
    const snapshotId = String(randomInt(1, 2 ** 48) * 16 + randomInt(0, 16));
    const sequence = state.lastSequence + 1;
    const snapshot = {
      'snapshot-id': Number(snapshotId),
      ...(state.current !== null && { 'parent-snapshot-id': Number(state.current) }),
      'sequence-number': sequence,
      'timestamp-ms': Date.now(),
      'manifest-list': `${state.location.replace(/\/+$/, '')}/metadata/snap-${snapshotId}-never-written.avro`,
      summary: { operation: 'append', 'added-data-files': '1', 'added-records': String(SYNTH_ROWS_PER_APPEND), 'added-files-size': '2048', 'changed-partition-count': '1' },
      'schema-id': state.schemaId,
    };
    const body = JSON.stringify({
      requirements: [
        { type: 'assert-table-uuid', uuid: state.uuid },
        { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': state.current === null ? null : Number(state.current) },
      ],
      updates: [
        { action: 'add-snapshot', snapshot },
        { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': Number(snapshotId) },
      ],
    });
    const a = await this.judge.send('commit-append', this.catalog, 'POST', this.path, { headers: { ...this.headers, 'content-type': 'application/json' }, body });
    const outcome = outcomeOf(a.status, a.outcome);
    const record: AppendRecord = { catalog: this.catalog, table: this.table, snapshotId, outcome };
    const next = outcome === 'acked' ? this.stateFrom('append', a.text) : undefined;
    return next ? { record, next } : { record };
  }

  async addColumn(state: State, column: string): Promise<{ record: SchemaRecord; next?: State }> {
    const id = state.lastColumnId + 1;
    const body = JSON.stringify({
      requirements: [
        { type: 'assert-table-uuid', uuid: state.uuid },
        { type: 'assert-current-schema-id', 'current-schema-id': state.schemaId },
        { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': state.lastColumnId },
      ],
      updates: [
        { action: 'add-schema', schema: { type: 'struct', 'schema-id': state.schemaId + 1, fields: [...state.fields, { id, name: column, required: false, type: 'string' }] }, 'last-column-id': id },
        { action: 'set-current-schema', 'schema-id': -1 },
        { action: 'set-properties', updates: { [`soak.column.${column}`]: String(id) } },
      ],
    });
    const a = await this.judge.send('commit-schema', this.catalog, 'POST', this.path, { headers: { ...this.headers, 'content-type': 'application/json' }, body });
    const outcome = outcomeOf(a.status, a.outcome);
    const record: SchemaRecord = { catalog: this.catalog, table: this.table, column, outcome };
    const next = outcome === 'acked' ? this.stateFrom('schema change', a.text) : undefined;
    return next ? { record, next } : { record };
  }
}
