/**
 * Soundness property: random rows are grouped into files by partition tuple, each file gets
 * stats computed from its rows (truncated string bounds, NaN and null counts, sometimes missing
 * stats), files go into manifests with summaries computed from their tuples; random filters are
 * then checked. Whenever a row matches the filter, the manifest evaluator, the partition
 * evaluator and the metrics evaluator must all keep it, and the residual for its partition must
 * be true on the row.
 *
 * "Matches" is the exact evaluator with SQL comparison semantics: an ordered comparison (lt,
 * lt-eq, gt, gt-eq, eq) is false on null and NaN. Java's Evaluator sorts null first and NaN last
 * (so `null < 5` and `NaN > 5` are true there), but Java's own pruning (which Icefront follows)
 * treats those rows as non-matching: a file of only nulls is skipped for `x < 5`.
 */
import t from 'tap';
import { compareValues, daysToIsoDate, formatDecimal, hexUpper, microsToIsoTimestamp, parseTransform, toBinary, transformResultType, type ContentFile, type Expression, type IcebergType, type LiteralValue, type ManifestFile, type PartitionFieldSummary, type PartitionSpec, type PrimitiveValue } from '../../../src/iceberg/index.js';
import { jsonFloat } from '../../../src/json/index.js';
import {
  bind,
  evalTerm,
  evaluate,
  InclusiveMetricsEvaluator,
  ManifestEvaluator,
  PartitionEvaluator,
  ResidualEvaluator,
  rewriteNot,
  testPredicate,
  type BoundExpression,
  type BoundPredicate,
  valueKey,
} from '../../../src/planner/expressions/index.js';
import { applyTransform, truncateCodePoints } from '../../../src/planner/transforms/index.js';
import { filter, schemaOf, specOf, T, transformTerm } from './projections-helpers.js';

const SEED = Number(process.env['SOUNDNESS_SEED'] ?? 20240601);
const ROUNDS = 400;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <V>(xs: readonly V[]): V => xs[Math.floor(rand() * xs.length)]!;
const chance = (p: number): boolean => rand() < p;

const UUIDS = [
  '00000000-0000-0000-0000-000000000001', '7fffffff-0000-0000-0000-000000000000', '80000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff', '12345678-9abc-def0-8123-456789abcdef',
];
const BYTES = [0x00, 0x7f, 0x80, 0xff];
const DOUBLES = [-1.5, -0, 0, 0.5, 2, 3.25];

interface ColumnDef {
  readonly id: number;
  readonly name: string;
  readonly type: IcebergType;
  /** A random non-null row value (internal representation). */
  readonly value: () => PrimitiveValue;
  /** The same value as a JSON literal a client would send. */
  readonly json: (v: PrimitiveValue) => unknown;
}

const COLUMNS: readonly ColumnDef[] = [
  { id: 1, name: 'i', type: T.int, value: () => int(-3, 12), json: (v) => v },
  { id: 2, name: 'l', type: T.long, value: () => BigInt(int(0, 20)), json: (v) => Number(v) },
  { id: 3, name: 's', type: T.string, value: () => Array.from({ length: int(0, 4) }, () => pick(['a', 'b', 'é'])).join(''), json: (v) => v },
  { id: 4, name: 'd', type: T.date, value: () => int(-40, 40), json: (v) => daysToIsoDate(v as number) },
  { id: 5, name: 'ts', type: T.timestamp, value: () => BigInt(int(-72, 72)) * 1_800_000_000n + BigInt(int(0, 3)), json: (v) => microsToIsoTimestamp(v as bigint) },
  { id: 6, name: 'f', type: T.double, value: () => (chance(0.1) ? NaN : pick(DOUBLES)), json: (v) => jsonFloat(v as number) },
  { id: 7, name: 'dec', type: T.decimal(9, 2), value: () => BigInt(int(-20, 20) * 37), json: (v) => formatDecimal(v as bigint, 2) },
  { id: 8, name: 'b', type: T.binary, value: () => Uint8Array.from({ length: int(0, 3) }, () => pick(BYTES)), json: (v) => hexUpper(v as Uint8Array) },
  { id: 9, name: 'u', type: T.uuid, value: () => pick(UUIDS), json: (v) => v },
];
const SCHEMA = schemaOf(...COLUMNS.map((c) => [c.id, c.name, c.type] as const));
const STRUCT = SCHEMA.asStruct();
const byName = new Map(COLUMNS.map((c) => [c.name, c]));

const FIELD_POOL: ReadonlyArray<readonly [string, string]> = [
  ['i', 'identity'], ['i', 'truncate[5]'], ['i', 'bucket[3]'], ['i', 'void'], ['l', 'bucket[4]'], ['l', 'identity'],
  ['s', 'truncate[2]'], ['s', 'identity'], ['d', 'month'], ['d', 'day'], ['d', 'year'], ['ts', 'day'], ['ts', 'hour'],
  ['ts', 'month'], ['ts', 'year'], ['f', 'identity'], ['dec', 'truncate[100]'], ['dec', 'identity'], ['b', 'truncate[2]'],
  ['b', 'identity'], ['u', 'identity'], ['u', 'bucket[4]'],
];

function randomSpec(): PartitionSpec {
  const n = int(0, 3);
  const fields: Array<readonly [number, string, string]> = [];
  for (let k = 0; k < n; k += 1) {
    const [column, transform] = pick(FIELD_POOL);
    fields.push([byName.get(column)!.id, transform, `${column}_${transform.replace(/\W/g, '')}_${k}`]);
  }
  return specOf(...fields);
}

type Row = (PrimitiveValue | null)[];

function randomRow(): Row {
  return COLUMNS.map((c) => (chance(0.15) ? null : c.value()));
}

const UNARY = ['is-null', 'not-null'];
const COMPARE = ['lt', 'lt-eq', 'gt', 'gt-eq', 'eq', 'not-eq'];

function randomPredicate(): unknown {
  const column = pick(COLUMNS);
  // occasionally a transform term, as engines push down partition expressions
  if (chance(0.12)) {
    const choice = pick([
      [transformTerm('day', 'ts'), (): unknown => daysToIsoDate(int(-4, 4))],
      [transformTerm('bucket[4]', 'l'), (): unknown => int(0, 3)],
      [transformTerm('truncate[2]', 's'), (): unknown => pick(['a', 'ab', 'ba', 'é'])],
      [transformTerm('month', 'd'), (): unknown => int(-2, 1)],
    ] as const);
    const op = pick(['eq', 'lt', 'gt-eq', 'not-eq', 'in']);
    return op === 'in' ? { type: op, term: choice[0], values: [choice[1](), choice[1]()] } : { type: op, term: choice[0], value: choice[1]() };
  }
  const roll = rand();
  if (roll < 0.12) {
    const ops = column.name === 'f' ? [...UNARY, 'is-nan', 'not-nan'] : UNARY;
    return { type: pick(ops), term: column.name };
  }
  if (roll < 0.3) {
    const values = Array.from({ length: int(1, 4) }, () => column.json(literalValue(column)));
    return { type: pick(['in', 'not-in']), term: column.name, values };
  }
  if (column.name === 's' && chance(0.4)) {
    return { type: pick(['starts-with', 'not-starts-with']), term: 's', value: pick(['', 'a', 'ab', 'é', 'ba', 'abab']) };
  }
  return { type: pick(COMPARE), term: column.name, value: column.json(literalValue(column)) };
}

/** A random value usable as a literal: NaN has no JSON literal. */
function literalValue(column: ColumnDef): PrimitiveValue {
  let value = column.value();
  while (isNaNValue(value)) value = column.value();
  return value;
}

function randomFilter(depth: number): unknown {
  if (depth === 0 || chance(0.35)) return randomPredicate();
  const kind = pick(['and', 'or', 'not']);
  if (kind === 'not') return { type: 'not', child: randomFilter(depth - 1) };
  return { type: kind, left: randomFilter(depth - 1), right: randomFilter(depth - 1) };
}

const ORDERED = new Set(['lt', 'lt-eq', 'gt', 'gt-eq', 'eq']);

/** The exact evaluator with SQL comparison semantics, on a NOT-free bound filter. */
function matches(expr: BoundExpression, row: Row): boolean {
  const node = expr as BoundExpression & { kind: string; left?: BoundExpression; right?: BoundExpression };
  switch (node.kind) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'and':
      return matches(node.left!, row) && matches(node.right!, row);
    case 'or':
      return matches(node.left!, row) || matches(node.right!, row);
    default: {
      const pred = expr as BoundPredicate;
      const value = evalTerm(pred.term, row);
      if (ORDERED.has(pred.op) && (value === null || (typeof value === 'number' && Number.isNaN(value)))) return false;
      return testPredicate(pred, value);
    }
  }
}

function isNaNValue(v: unknown): boolean {
  return typeof v === 'number' && Number.isNaN(v);
}

function minMax(type: IcebergType, values: readonly unknown[]): [unknown, unknown] | undefined {
  const ordered = values.filter((v) => v !== null && !isNaNValue(v));
  if (ordered.length === 0) return undefined;
  let lo = ordered[0];
  let hi = ordered[0];
  for (const v of ordered) {
    if (compareValues(type, v, lo) < 0) lo = v;
    if (compareValues(type, v, hi) > 0) hi = v;
  }
  return [lo, hi];
}

/** Bounds as writers produce them: strings truncated to 2 code points, the upper one rounded up. */
function stringBounds(lo: string, hi: string): [string, string] {
  const upper = truncateCodePoints(hi, 2);
  if (upper === hi) return [truncateCodePoints(lo, 2), hi];
  const last = upper.codePointAt(upper.length - 1)!;
  return [truncateCodePoints(lo, 2), upper.slice(0, -1) + String.fromCodePoint(last + 1)];
}

function fileOf(rows: readonly Row[], partition: ReadonlyArray<LiteralValue | null>): ContentFile {
  const valueCounts = new Map<number, bigint>();
  const nullCounts = new Map<number, bigint>();
  const nanCounts = new Map<number, bigint>();
  const lower = new Map<number, Uint8Array>();
  const upper = new Map<number, Uint8Array>();
  COLUMNS.forEach((c, i) => {
    const values = rows.map((r) => r[i]);
    if (!chance(0.1)) valueCounts.set(c.id, BigInt(values.length));
    if (!chance(0.1)) nullCounts.set(c.id, BigInt(values.filter((v) => v === null).length));
    if (c.type.kind === 'double' && !chance(0.2)) nanCounts.set(c.id, BigInt(values.filter(isNaNValue).length));
    const range = chance(0.1) ? undefined : minMax(c.type, values);
    if (range === undefined) return;
    let [lo, hi] = range;
    if (c.type.kind === 'string') [lo, hi] = stringBounds(lo as string, hi as string);
    lower.set(c.id, toBinary(c.type, lo));
    upper.set(c.id, toBinary(c.type, hi));
  });
  return {
    content: 0,
    filePath: 'f.parquet',
    fileFormat: 'PARQUET',
    specId: 0,
    partition,
    recordCount: BigInt(rows.length),
    fileSizeInBytes: 1n,
    valueCounts,
    nullValueCounts: nullCounts,
    nanValueCounts: nanCounts,
    lowerBounds: lower,
    upperBounds: upper,
  };
}

function manifestOf(spec: PartitionSpec, files: readonly ContentFile[], resultTypes: readonly IcebergType[]): ManifestFile {
  const partitions: PartitionFieldSummary[] = spec.fields.map((_, i) => {
    const values = files.map((f) => f.partition[i]);
    const type = resultTypes[i]!;
    const range = minMax(type, values);
    const floating = type.kind === 'float' || type.kind === 'double';
    return {
      containsNull: values.some((v) => v === null),
      ...(floating && { containsNan: values.some(isNaNValue) }),
      ...(range !== undefined && { lowerBound: toBinary(type, range[0]), upperBound: toBinary(type, range[1]) }),
    };
  });
  return { path: 'm.avro', length: 1n, specId: 0, content: 0, sequenceNumber: 1n, minSequenceNumber: 1n, addedSnapshotId: 1n, partitions };
}

t.test(`every matching row survives pruning and its residual (seed ${SEED})`, async (t) => {
  let checkedRows = 0;
  let pruned = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const spec = randomSpec();
    const fields = spec.fields.map((f) => {
      const source = SCHEMA.findField(f.sourceId)!;
      return { index: COLUMNS.findIndex((c) => c.id === f.sourceId), source, transform: parseTransform(f.transform) };
    });
    const resultTypes = fields.map(({ source, transform }) => transformResultType(transform, source.type));
    const groups = new Map<string, { partition: (LiteralValue | null)[]; rows: Row[] }>();
    for (let r = 0; r < 40; r += 1) {
      const row = randomRow();
      const partition = fields.map(({ index, source, transform }) => applyTransform(transform, source.type, row[index]));
      const key = JSON.stringify(partition.map((v) => (v === null ? null : valueKey(v))));
      const group = groups.get(key) ?? { partition, rows: [] };
      group.rows.push(row);
      groups.set(key, group);
    }
    const files = [...groups.values()].map((g) => ({ ...g, file: fileOf(g.rows, g.partition) }));
    const manifest = manifestOf(spec, files.map((f) => f.file), resultTypes);

    const json = randomFilter(3);
    const expr: Expression = filter(json);
    const oracle = bind(rewriteNot(expr), STRUCT);
    const metrics = new InclusiveMetricsEvaluator(SCHEMA, expr);
    const manifests = new ManifestEvaluator(spec, SCHEMA, expr);
    const partitions = new PartitionEvaluator(spec, SCHEMA, expr);
    const residuals = new ResidualEvaluator(spec, SCHEMA, expr);
    const context = (): string => `round ${round}, seed ${SEED}\nspec ${JSON.stringify(spec.fields)}\nfilter ${JSON.stringify(json)}`;

    for (const { rows, partition, file } of files) {
      const matching = rows.filter((row) => matches(oracle, row));
      if (matching.length === 0) {
        if (!metrics.mightMatch(file)) pruned += 1;
        continue;
      }
      checkedRows += matching.length;
      if (!manifests.mightMatch(manifest)) t.fail(`manifest pruned a matching row\n${context()}`);
      if (!partitions.matches(partition)) t.fail(`partition ${String(partition)} pruned a matching row\n${context()}`);
      if (!metrics.mightMatch(file)) t.fail(`metrics pruned a matching row\n${context()}`);
      const residual = bind(residuals.residualFor(partition), STRUCT);
      for (const row of matching) {
        if (!evaluate(residual, row)) t.fail(`residual is false on a matching row ${String(row)}\n${context()}`);
      }
    }
  }
  t.ok(checkedRows > 1000, `checked ${checkedRows} matching rows`);
  t.ok(pruned > 100, `the metrics evaluator still pruned ${pruned} non-matching files`);
});
