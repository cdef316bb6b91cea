/**
 * Builds a real Iceberg table commit by commit: create, append, overwrite, row-level deletes
 * (position, equality, deletion vectors) and metadata-only appends. Every commit writes its
 * manifests, a manifest list (or, for legacy v1 snapshots, an inline manifest list) and a new
 * `v<N>.metadata.json` plus `version-hint.text` (Hadoop-table layout). Identifiers and
 * timestamps come from a seed and a fixed clock, so the output is byte-for-byte reproducible.
 */
import { isUnpartitioned, MAIN_BRANCH, parsePartitionSpec, parseSchema, parseSortOrder, tableMetadataToJson, UNSORTED_ORDER, type PartitionSpec, type Schema, type Snapshot, type SortOrder, type TableMetadata } from '../../src/iceberg/index.js';
import { stringifyJson } from '../../src/json/index.js';
import { IdSource } from './ids.js';
import { liveRows, type LiveRow } from './live-rows.js';
import { writeManifestList } from './manifest-list-writer.js';
import { writeManifest } from './manifest-writer.js';
import { ADDED, DATA, DELETED, EXISTING, type AvroCodec, type ContentFile, type FormatVersion, type ManifestEntry, type TableSink } from './model.js';
import { bindSpec, partitionKey, partitionPath, type BoundSpec } from './partition.js';
import { snapshotSummary, type Operation } from './snapshot-summary.js';
import { fsSink } from './sink.js';
import type { TrackedFile, TrackedManifest } from './tracked.js';

export interface CreateTableOptions {
  /** Local directory the table's files are written to (unless `sink` is given). */
  readonly root: string;
  /** The table location recorded in metadata; file paths are `<location>/<relative path>`. */
  readonly location: string;
  readonly formatVersion: FormatVersion;
  /** Schema, partition spec and sort order in their metadata JSON form. */
  readonly schema: unknown;
  readonly partitionSpec?: unknown;
  readonly sortOrder?: unknown;
  readonly properties?: Readonly<Record<string, string>>;
  /** Seed for snapshot ids and UUIDs. */
  readonly seed: string;
  /** Clock of the first metadata file; each commit advances it by one minute. */
  readonly timestampMs: number;
  /** Codec of manifests and manifest lists (default deflate, as Java). */
  readonly codec?: AvroCodec;
  readonly sink?: TableSink;
}

/** A file handed to a commit: its manifest record plus what the builder should remember. */
export type PendingFile = Omit<TrackedFile, 'snapshotId' | 'dataSequenceNumber' | 'fileSequenceNumber' | 'firstRowId'>;

export interface CommitRequest {
  readonly operation: Operation;
  readonly add?: readonly PendingFile[];
  /** Paths of live data files this commit removes (written as DELETED entries). */
  readonly remove?: readonly string[];
  /** Split the added files into manifests of at most this many entries. */
  readonly entriesPerManifest?: number;
  /** v1 only: list the manifests inline in the snapshot instead of writing a manifest list. */
  readonly inlineManifests?: boolean;
}

const COMMIT_INTERVAL_MS = 60_000;

interface CommitContext {
  readonly snapshotId: bigint;
  readonly seq: bigint;
  readonly commitUuid: string;
  readonly nextManifestPath: () => string;
}

export class TableBuilder {
  readonly schema: Schema;
  readonly spec: PartitionSpec;
  readonly bound: BoundSpec;
  readonly version: FormatVersion;
  readonly ids: IdSource;
  private readonly sortOrder: SortOrder;
  private readonly sink: TableSink;
  private readonly codec: AvroCodec;
  private readonly tableUuid: string;
  private clock: number;
  private metadataVersion = 0;
  private lastSequenceNumber = 0n;
  private nextRowId = 0n;
  private readonly snapshots: Snapshot[] = [];
  private readonly metadataLog: Array<{ timestampMs: number; metadataFile: string }> = [];
  private manifests: TrackedManifest[] = [];
  private readonly live = new Map<string, TrackedFile>();
  private fileCounter = 0;

  private constructor(private readonly opts: CreateTableOptions) {
    this.version = opts.formatVersion;
    this.schema = parseSchema(opts.schema);
    this.spec = parsePartitionSpec(opts.partitionSpec ?? { 'spec-id': 0, fields: [] });
    this.bound = bindSpec(this.spec, this.schema);
    this.sortOrder = opts.sortOrder === undefined ? UNSORTED_ORDER : parseSortOrder(opts.sortOrder);
    this.sink = opts.sink ?? fsSink(opts.root);
    this.codec = opts.codec ?? 'deflate';
    this.ids = new IdSource(opts.seed);
    this.tableUuid = this.ids.uuid();
    this.clock = opts.timestampMs;
  }

  /** Creates the table: writes v1.metadata.json (no snapshot yet) and version-hint.text. */
  static create(opts: CreateTableOptions): TableBuilder {
    const t = new TableBuilder(opts);
    t.writeMetadata(null);
    return t;
  }

  get location(): string {
    return this.opts.location;
  }

  get sortOrderId(): number {
    return this.sortOrder.orderId;
  }

  /** A new file location under `data/`, inside its Hive-style partition folder when `partition` is given. */
  newDataPath(partition: readonly unknown[] | null, suffix: string): { path: string; relative: string } {
    const dir = partition === null || this.spec.fields.length === 0 ? 'data' : `data/${partitionPath(this.bound, partition)}`;
    const n = this.fileCounter++;
    const relative = `${dir}/${String(n).padStart(5, '0')}-${n}-${this.ids.uuid()}-00001${suffix}`;
    return { path: `${this.opts.location}/${relative}`, relative };
  }

  /** Writes a file's bytes (relative to the table root). */
  writeFile(relative: string, bytes: Uint8Array): void {
    this.sink.write(relative, bytes);
  }

  /** Live files of the current snapshot. */
  liveFiles(): TrackedFile[] {
    return [...this.live.values()];
  }

  /** Rows a correct reader returns for the current snapshot. */
  liveRows(): LiveRow[] {
    const unpartitioned = new Set(isUnpartitioned(this.spec) ? [this.spec.specId] : []);
    return liveRows(this.live.values(), unpartitioned);
  }

  snapshotCount(): number {
    return this.snapshots.length;
  }

  currentSnapshotId(): bigint | null {
    return this.snapshots.at(-1)?.snapshotId ?? null;
  }

  /** Commits one snapshot and writes the next metadata version. Returns the snapshot. */
  commit(req: CommitRequest): Snapshot {
    const v = this.version;
    if (req.inlineManifests && v !== 1) throw new Error('inline manifest lists exist in format v1 only');
    const removed = new Set(req.remove ?? []);
    for (const path of removed) {
      if (this.live.get(path)?.file.content !== DATA) throw new Error(`cannot remove ${path}: not a live data file`);
    }
    const commitUuid = this.ids.uuid();
    let manifestIndex = 0;
    const ctx: CommitContext = {
      snapshotId: this.ids.snapshotId(),
      seq: v === 1 ? 0n : this.lastSequenceNumber + 1n,
      commitUuid,
      nextManifestPath: () => `${this.opts.location}/metadata/${commitUuid}-m${manifestIndex++}.avro`,
    };
    const added: TrackedFile[] = (req.add ?? []).map((f) => ({
      ...f,
      snapshotId: ctx.snapshotId,
      dataSequenceNumber: ctx.seq,
      fileSequenceNumber: ctx.seq,
    }));
    // Java (MergingSnapshotProducer) lists the new manifests first, then the existing ones
    const written = [...this.newManifests(ctx, added, req.entriesPerManifest), ...this.filterManifests(ctx, removed)];

    const removedFiles = [...removed].map((p) => this.live.get(p)!);
    for (const p of removed) this.live.delete(p);
    for (const t of added) this.live.set(fileKey(t.file), t);

    const parent = this.currentSnapshotId();
    const firstRowId = this.nextRowId;
    let listing: { manifests: string[] } | { manifestList: string };
    if (req.inlineManifests) {
      this.manifests = written;
      listing = { manifests: written.map((m) => m.manifest.path) };
    } else {
      listing = { manifestList: this.writeList(ctx, parent, written) };
    }
    this.lastSequenceNumber = ctx.seq;
    this.clock += COMMIT_INTERVAL_MS;
    const touched = [...added, ...removedFiles].map((t) => partitionKey(t.file.partition));
    const snapshot: Snapshot = {
      snapshotId: ctx.snapshotId,
      ...(parent !== null && { parentSnapshotId: parent }),
      sequenceNumber: ctx.seq,
      timestampMs: this.clock,
      summary: snapshotSummary({
        operation: req.operation,
        added: added.map((t) => t.file),
        removed: removedFiles.map((t) => t.file),
        live: [...this.live.values()].map((t) => t.file),
        changedPartitions: new Set(touched).size,
      }),
      schemaId: this.schema.schemaId,
      ...listing,
      ...(v >= 3 && { firstRowId, addedRows: this.nextRowId - firstRowId }),
      extra: {},
    };
    this.snapshots.push(snapshot);
    this.writeMetadata(snapshot);
    return snapshot;
  }

  /** Manifests for the files a commit adds: data first, then deletes, chunked. */
  private newManifests(ctx: CommitContext, added: readonly TrackedFile[], perManifest = Number.MAX_SAFE_INTEGER): TrackedManifest[] {
    const out: TrackedManifest[] = [];
    for (const content of [0, 1] as const) {
      const files = added.filter((t) => (t.file.content === DATA ? 0 : 1) === content);
      for (let i = 0; i < files.length; i += perManifest) {
        // Java leaves the sequence numbers of ADDED entries null: they inherit the manifest's
        const entries = files.slice(i, i + perManifest).map(
          (t): ManifestEntry => ({ status: ADDED, snapshotId: ctx.snapshotId, sequenceNumber: null, fileSequenceNumber: null, file: t.file }),
        );
        out.push(this.manifest(content, entries, ctx));
      }
    }
    return out;
  }

  /** The current manifests, carried over as they are unless they list a removed file. */
  private filterManifests(ctx: CommitContext, removed: ReadonlySet<string>): TrackedManifest[] {
    return this.manifests.map((m) => {
      if (!m.entries.some((e) => e.status !== DELETED && removed.has(e.key))) return m;
      // spec "Manifests": a removed file stays as a DELETED entry; the others become EXISTING
      // with their original snapshot and explicit sequence numbers (and row ids in v3)
      const entries = m.entries
        .filter((e) => e.status !== DELETED)
        .map((e): ManifestEntry => {
          const t = this.live.get(e.key)!;
          const gone = removed.has(e.key);
          return {
            status: gone ? DELETED : EXISTING,
            snapshotId: gone ? ctx.snapshotId : t.snapshotId,
            sequenceNumber: this.version === 1 ? null : t.dataSequenceNumber,
            fileSequenceNumber: this.version === 1 ? null : t.fileSequenceNumber,
            file: t.firstRowId === undefined ? t.file : { ...t.file, firstRowId: t.firstRowId },
          };
        });
      return this.manifest(m.manifest.content, entries, ctx);
    });
  }

  /** Writes the manifest list; records the manifests as listed (v3: with their row id ranges). */
  private writeList(ctx: CommitContext, parent: bigint | null, written: readonly TrackedManifest[]): string {
    const path = `${this.opts.location}/metadata/snap-${ctx.snapshotId}-1-${ctx.commitUuid}.avro`;
    const list = writeManifestList({
      version: this.version,
      path,
      snapshotId: ctx.snapshotId,
      parentSnapshotId: parent,
      sequenceNumber: ctx.seq,
      firstRowId: this.version >= 3 ? this.nextRowId : undefined,
      manifests: written.map((m) => m.manifest),
      codec: this.codec,
    });
    this.sink.write(this.relative(path), list.bytes);
    this.manifests = written.map((m, i) => ({ ...m, manifest: list.manifests[i]! }));
    if (list.nextRowId !== undefined) this.nextRowId = list.nextRowId;
    this.assignRowIds(this.manifests);
    return path;
  }

  private manifest(content: 0 | 1, entries: ManifestEntry[], ctx: CommitContext): TrackedManifest {
    const path = ctx.nextManifestPath();
    const { bytes, manifest } = writeManifest({
      version: this.version,
      schema: this.schema,
      bound: this.bound,
      content,
      entries,
      path,
      snapshotId: ctx.snapshotId,
      sequenceNumber: ctx.seq,
      codec: this.codec,
    });
    this.sink.write(this.relative(path), bytes);
    return { manifest, entries: entries.map((e) => ({ status: e.status, key: fileKey(e.file) })) };
  }

  // spec "Row Lineage": a data file without first_row_id inherits its manifest's first_row_id
  // plus the record counts of the data files before it in the manifest
  private assignRowIds(manifests: readonly TrackedManifest[]): void {
    for (const m of manifests) {
      let next = m.manifest.firstRowId;
      if (next === undefined || next === null) continue;
      for (const e of m.entries) {
        const t = this.live.get(e.key);
        if (e.status === DELETED || !t || t.file.firstRowId !== undefined) continue;
        if (t.firstRowId === undefined) t.firstRowId = next;
        next += t.file.recordCount;
      }
    }
  }

  private writeMetadata(current: Snapshot | null): void {
    const version = ++this.metadataVersion;
    const name = `metadata/v${version}.metadata.json`;
    const meta: TableMetadata = {
      formatVersion: this.version,
      tableUuid: this.tableUuid,
      location: this.opts.location,
      lastSequenceNumber: this.lastSequenceNumber,
      lastUpdatedMs: this.clock,
      lastColumnId: this.schema.highestFieldId(),
      schemas: [this.schema],
      currentSchemaId: this.schema.schemaId,
      partitionSpecs: [this.spec],
      defaultSpecId: this.spec.specId,
      // spec "Partition Specs": partition field ids start at 1000, so an empty table reports 999
      lastPartitionId: Math.max(999, ...this.spec.fields.map((f) => f.fieldId)),
      properties: this.opts.properties ?? {},
      ...(current && { currentSnapshotId: current.snapshotId }),
      snapshots: this.snapshots,
      snapshotLog: this.snapshots.map((s) => ({ timestampMs: s.timestampMs, snapshotId: s.snapshotId })),
      metadataLog: [...this.metadataLog],
      sortOrders: this.sortOrder.orderId === 0 ? [UNSORTED_ORDER] : [UNSORTED_ORDER, this.sortOrder],
      defaultSortOrderId: this.sortOrder.orderId,
      refs: current ? { [MAIN_BRANCH]: { snapshotId: current.snapshotId, type: 'branch' } } : {},
      statistics: [],
      partitionStatistics: [],
      ...(this.version >= 3 && { nextRowId: this.nextRowId }),
      encryptionKeys: [],
      extra: {},
    };
    const json = `${stringifyJson(tableMetadataToJson(meta))}\n`;
    this.sink.write(name, Buffer.from(json, 'utf8'));
    this.sink.write('metadata/version-hint.text', Buffer.from(String(version), 'utf8'));
    this.metadataLog.push({ timestampMs: this.clock, metadataFile: `${this.opts.location}/${name}` });
  }

  private relative(path: string): string {
    return path.slice(this.opts.location.length + 1);
  }
}

/** Identifies a file among the live ones: its path, plus the blob offset for DVs sharing a Puffin file. */
export function fileKey(f: ContentFile): string {
  return f.contentOffset === undefined ? f.filePath : `${f.filePath}#${f.contentOffset}`;
}
