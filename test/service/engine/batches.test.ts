import fc from 'fast-check';
import t from 'tap';
import type { ManifestIndex } from '../../../src/planner/index.js';
import { cutBatches, type SizedManifest } from '../../../src/service/engine/batches.js';

// What a plan is cut into, against the rules read off the code's contract (Gravitino design
// §8.5.1) and an oracle written here: every kept task lands in exactly one batch, in manifest
// order; no batch passes its task or byte bound unless one task alone does; and every range's
// block hint spans exactly the Avro blocks holding its first and last entries (found here by a
// linear search over the blocks, the rule the hint must follow).

type Block = ManifestIndex['blocks'][number];

const manifestArb = fc
  .record({
    // entry counts per Avro block (an empty block included now and then), kept-task choices per entry
    blockSizes: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 8 }),
    keep: fc.array(fc.boolean(), { minLength: 100, maxLength: 100 }),
    taskBytes: fc.array(fc.integer({ min: 100, max: 3000 }), { minLength: 100, maxLength: 100 }),
    firstOffset: fc.integer({ min: 4, max: 5000 }),
  })
  .map(({ blockSizes, keep, taskBytes, firstOffset }) => {
    const blocks: Block[] = [];
    let entry = 0;
    let offset = firstOffset;
    for (const entryCount of blockSizes) {
      const byteLength = 40 + entryCount * 700;
      blocks.push({ offset, firstEntry: entry, entryCount, byteLength });
      entry += entryCount;
      offset += byteLength;
    }
    const positions = [...Array(entry).keys()].filter((i) => keep[i % keep.length]);
    return { blocks, positions, bytes: positions.map((_, i) => taskBytes[i % taskBytes.length]!) };
  });

function sized(parts: { blocks: Block[]; positions: number[]; bytes: number[] }[]): SizedManifest[] {
  return parts.map((p, k) => ({
    path: `s3://bucket/warehouse/db/t/metadata/m${k}.avro`,
    listed: { path: `s3://bucket/warehouse/db/t/metadata/m${k}.avro`, length: 1000n, specId: 0, sequenceNumber: 1n, minSequenceNumber: 1n, addedSnapshotId: 1n },
    ordinal: k,
    index: { blocks: p.blocks },
    positions: Int32Array.from(p.positions),
    bytes: Int32Array.from(p.bytes),
    rows: BigInt64Array.from(p.positions.map(() => 10n)),
  }));
}

const holding = (blocks: readonly Block[], entry: number) => blocks.find((b) => b.firstEntry <= entry && entry < b.firstEntry + b.entryCount);

t.test('every kept task in exactly one batch, in order, within the bounds; every block hint spans the blocks of its range (property)', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(manifestArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1000, max: 40_000 }), async (parts, batchSize, maxBytes) => {
      const manifests = sized(parts);
      const batches = await cutBatches(manifests, { batchSize, maxBytes });
      const covered: string[] = [];
      for (const batch of batches) {
        let tasks = 0;
        let bytes = 0;
        for (const range of batch.ranges) {
          const m = manifests.find((x) => x.path === range.manifest)!;
          const inRange = [...m.positions.keys()].filter((i) => m.positions[i]! >= range.start && m.positions[i]! < range.end);
          tasks += inRange.length;
          bytes += inRange.reduce((n, i) => n + m.bytes[i]!, 0);
          for (const i of inRange) covered.push(`${range.manifest}#${m.positions[i]}`);
          // the hint: from the block holding the range's first entry to the one holding its last
          const first = holding(m.index.blocks, range.start)!;
          const last = holding(m.index.blocks, range.end - 1)!;
          if (range.offset === undefined) throw new Error(`no hint for ${JSON.stringify(range)}`);
          if (range.offset !== first.offset || range.first !== first.firstEntry || range.length !== last.offset + last.byteLength - first.offset)
            throw new Error(`hint ${JSON.stringify(range)} is not blocks ${JSON.stringify([first, last])}`);
        }
        if (tasks !== batch.count) throw new Error(`batch says ${batch.count} tasks, its ranges hold ${tasks}`);
        if (batch.count > 1 && batchSize > 0 && batch.count > batchSize) throw new Error(`${batch.count} tasks over a bound of ${batchSize}`);
        if (batch.count > 1 && bytes + 256 > maxBytes) throw new Error(`${bytes} bytes of tasks over a bound of ${maxBytes}`);
      }
      const expected = manifests.flatMap((m) => [...m.positions].map((p) => `${m.path}#${p}`));
      if (covered.join('\n') !== expected.join('\n')) throw new Error('the batches do not hold every kept task once, in order');
    }),
    { numRuns: 300 },
  );
  t.pass('300 random plans cut as the rules say');
});

t.test('a range whose first entry is in no block the read located carries no hint (it is read from the start)', async (t) => {
  // an index from a range read: it located only the blocks from entry 10 on
  const [part] = sized([{ blocks: [{ offset: 900, firstEntry: 10, entryCount: 10, byteLength: 500 }], positions: [2, 3, 12], bytes: [100, 100, 100] }]);
  const [batch] = await cutBatches([part!], { batchSize: 0, maxBytes: 1 << 20 });
  t.same(batch!.ranges, [{ manifest: part!.path, start: 2, end: 13 }]);
});
