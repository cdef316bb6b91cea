/**
 * Reads the entries of one manifest (spec "Manifests"), whole or as an entry range. A range
 * read fetches the header and the blocks that overlap the range (plus block headers to find
 * them, or nothing extra when an earlier read's index says where they are); blocks outside it
 * are neither decompressed nor decoded, except that first-row-id inheritance (§12.7) needs the
 * record counts of the entries before the range unless the index carries the running id.
 */
import {
  parsePartitionFields,
  partitionType,
  type ManifestEntry,
  type ManifestFile,
  type PartitionSpec,
  type Schema,
} from '../../iceberg/index.js';
import type { FileIO } from '../../storage/index.js';
import { MalformedInput } from './avro-binary.js';
import { AvroContainer, containerError, nextBlockOffset, type AvroBlock, type ContainerStats } from './avro-container.js';
import { projectedDecoder, rawFieldsDecoder, writerDecoder, type RecordDecoder } from './avro-types.js';
import { compileEntryReader, compileRowIdAdvance, type EntryReader } from './entry-reader.js';
import { entrySchema, metricTypes, rowIdSchema, withoutMetricsSchema } from './entry-schema.js';
import { RowIdAssigner } from './inheritance.js';
import { MetricPoolBuilder, type PooledMetrics } from './pooled-metrics.js';
import type { AvroRecord } from './record-access.js';

/** Entries `[start, end)` by ordinal (file order, DELETED entries included). */
export interface EntryRange {
  readonly start: number;
  readonly end: number;
}

/**
 * One Avro block of a manifest, as a later range read can use it to start there. It may also
 * stand for a run of consecutive blocks (offset and next row id of the first, summed counts and
 * lengths): one such span is all a plan task needs to carry to read its slice in one request.
 */
export interface ManifestBlock {
  /** File offset of the block. */
  readonly offset: number;
  readonly firstEntry: number;
  readonly entryCount: number;
  /** Block size in the file, header and sync marker included. */
  readonly byteLength: number;
  /** v3 data manifests with a first_row_id: the id the block's first unassigned live entry gets. */
  readonly nextRowId?: bigint;
}

/** Blocks located by a read, in file order (a read walks from its start block to its range end). */
export interface ManifestIndex {
  readonly blocks: readonly ManifestBlock[];
}

export interface ReadManifestOptions {
  readonly specsById: ReadonlyMap<number, PartitionSpec>;
  /** The schema partition source columns are looked up in (the table's current schema). */
  readonly schema: Schema;
  /** Only these entries; the whole manifest when absent. */
  readonly range?: EntryRange;
  /** Keep metrics only for these column ids; all when absent. An empty set skips decoding the six metric maps. */
  readonly statsFieldIds?: ReadonlySet<number>;
  /**
   * Keep every column's metrics, whatever `statsFieldIds` says, pooled (`metrics` of the result)
   * where the writer's layout lets avsc hand the maps over as bytes, else on the entries.
   */
  readonly allMetrics?: boolean;
  /** Blocks from an earlier read of the same manifest, so a range read can start at its first block. */
  readonly index?: ManifestIndex;
}

export interface ManifestReadResult {
  readonly entries: ManifestEntry[];
  /** The spec the partition tuples follow. */
  readonly spec: PartitionSpec;
  /** Avro header metadata (`partition-spec-id`, `format-version`, `content`, `schema`, …). */
  readonly metadata: ReadonlyMap<string, string>;
  readonly index: ManifestIndex;
  readonly stats: ContainerStats;
  /** Every column's metrics of `entries`, in entry order, when `allMetrics` pooled them (the entries then carry none). */
  readonly metrics?: PooledMetrics;
}

/** Java ManifestReader: the table's spec for the list entry's spec id; the header's `partition-spec` as a fallback. */
function resolveSpec(manifest: ManifestFile, specsById: ReadonlyMap<number, PartitionSpec>, meta: ReadonlyMap<string, string>): PartitionSpec {
  const known = specsById.get(manifest.specId);
  if (known) return known;
  const text = meta.get('partition-spec');
  if (text === undefined) throw new MalformedInput(`partition spec ${manifest.specId} is neither in the table metadata nor in the manifest header`);
  return { specId: manifest.specId, fields: parsePartitionFields(JSON.parse(text) as unknown, 'partition-spec') };
}

/** What reading one manifest needs, compiled from its header and writer schema. */
interface Plan {
  readonly spec: PartitionSpec;
  readonly read: EntryReader;
  readonly entryDecoder: RecordDecoder;
  /** Only for manifests that assign row ids: decodes status, record count and first_row_id. */
  readonly rowIdDecoder?: RecordDecoder;
  readonly advance: (record: AvroRecord, rowIds: RowIdAssigner) => void;
  /** With `allMetrics` and a raw-fields decoder: a builder of the read's pooled metrics. */
  readonly pool?: () => MetricPoolBuilder;
}

function plan(container: AvroContainer, manifest: ManifestFile, options: ReadManifestOptions, needsRowIds: boolean): Plan {
  try {
    const { schemaText, writerSchema, meta } = container.header;
    const spec = resolveSpec(manifest, options.specsById, meta);
    const schema = entrySchema(writerSchema);
    const skipMetrics = !options.allMetrics && options.statsFieldIds?.size === 0;
    // metrics kept: avsc skips the six maps and hands over their bytes, decoded when first read
    const rawTypes = skipMetrics ? undefined : metricTypes(schema);
    const raw = rawTypes && rawFieldsDecoder(schemaText, writerSchema, 'raw-metrics', rawTypes);
    const rawMetrics = raw && new Map(rawTypes!.map((type, i) => [type, raw.fieldDecoders[i]!] as const));
    // pooled: the entries carry no maps (the pool has them all); not pooled, all of them
    const pool = options.allMetrics && rawMetrics ? () => MetricPoolBuilder.for(schema, rawMetrics, manifest) : undefined;
    const keep = options.allMetrics ? undefined : options.statsFieldIds;
    return {
      spec,
      read: compileEntryReader(schema, {
        manifest,
        spec,
        partitionType: partitionType(spec, options.schema),
        ...(keep !== undefined && { statsFieldIds: keep }),
        ...(rawMetrics !== undefined && { rawMetrics }),
        ...(pool && { metricsPooled: true }),
      }),
      entryDecoder: skipMetrics
        ? projectedDecoder(schemaText, writerSchema, 'no-metrics', withoutMetricsSchema(schema))
        : (raw ?? writerDecoder(schemaText, writerSchema)),
      ...(needsRowIds && { rowIdDecoder: projectedDecoder(schemaText, writerSchema, 'row-ids', rowIdSchema(schema)) }),
      advance: compileRowIdAdvance(schema),
      ...(pool && { pool }),
    };
  } catch (err) {
    throw containerError(container.location, err);
  }
}

/** Where to start walking: the last known block at or before the range start that has what inheritance needs. */
function startBlock(index: ManifestIndex | undefined, start: number, needsRowIds: boolean): ManifestBlock | undefined {
  let best: ManifestBlock | undefined;
  for (const b of index?.blocks ?? []) {
    if (b.firstEntry > start || (needsRowIds && b.nextRowId === undefined)) continue;
    if (best === undefined || b.firstEntry > best.firstEntry) best = b;
  }
  return best;
}

/**
 * The bytes from `from` to the end of the last block that overlaps `[.., end)`, when the index
 * knows every block in between (contiguous), so they can be fetched in one read.
 */
function knownExtent(index: ManifestIndex | undefined, from: ManifestBlock, end: number): number | undefined {
  const blocks = [...(index?.blocks ?? [])].filter((b) => b.offset >= from.offset).sort((a, b) => a.offset - b.offset);
  let last: ManifestBlock | undefined;
  for (const b of blocks) {
    if (last !== undefined && b.offset !== last.offset + last.byteLength) return undefined;
    last = b;
    if (b.firstEntry + b.entryCount >= end) return b.offset + b.byteLength - from.offset;
  }
  return undefined;
}

function toManifestBlock(block: AvroBlock, nextRowId: bigint | undefined): ManifestBlock {
  const b = { offset: block.offset, firstEntry: block.firstRecord, entryCount: block.recordCount, byteLength: nextBlockOffset(block) - block.offset };
  return nextRowId === undefined ? b : { ...b, nextRowId };
}

/** The entries of `manifest` with inheritance applied, in file order. */
export async function readManifest(io: FileIO, manifest: ManifestFile, options: ReadManifestOptions): Promise<ManifestReadResult> {
  const { range } = options;
  const start = range?.start ?? 0;
  const end = range?.end ?? Number.POSITIVE_INFINITY;
  const needsRowIds = RowIdAssigner.appliesTo(manifest);
  const container = await AvroContainer.open(io, manifest.path, range !== undefined);
  const { spec, read, entryDecoder, rowIdDecoder, advance, pool } = plan(container, manifest, options, needsRowIds);
  const metrics = pool?.();
  const from = startBlock(options.index, start, needsRowIds);
  const rowIds = new RowIdAssigner(needsRowIds ? (from?.nextRowId ?? manifest.firstRowId) : undefined);
  const entries: ManifestEntry[] = [];
  const blocks: ManifestBlock[] = [];
  const extent = from && range !== undefined ? knownExtent(options.index, from, end) : undefined;
  if (from && extent !== undefined) await container.prefetch(from.offset, extent);
  let offset = from?.offset ?? container.header.length;
  let first = from?.firstEntry ?? 0;
  while (first < end) {
    const block = await container.blockAt(offset, first);
    if (block === undefined) break;
    blocks.push(toManifestBlock(block, rowIds.next));
    const blockEnd = first + block.recordCount;
    if (blockEnd > start) {
      await container.decodeBlock(block, entryDecoder, (value, ordinal) => {
        const entry = read(value as AvroRecord, ordinal, rowIds);
        if (ordinal >= start && ordinal < end) {
          entries.push(entry);
          metrics?.add(value as AvroRecord);
        }
      });
    } else if (rowIdDecoder !== undefined) {
      await container.decodeBlock(block, rowIdDecoder, (value) => advance(value as AvroRecord, rowIds));
    }
    offset = nextBlockOffset(block);
    first = blockEnd;
  }
  const result = { entries, spec, metadata: container.header.meta, index: { blocks }, stats: container.stats };
  return metrics ? { ...result, metrics: metrics.build() } : result;
}
