/** Builders shared by the projection and evaluator tests: schemas, specs, filters as clients send them. */
import {
  daysToIsoDate,
  isPredicate,
  parseExpression,
  Schema,
  type Expression,
  type IcebergType,
  toBinary,
  type ContentFile,
  type PartitionSpec,
  type UnboundPredicate,
} from '../../../src/iceberg/index.js';

export type Column = readonly [id: number, name: string, type: IcebergType, required?: boolean];

export function schemaOf(...columns: Column[]): Schema {
  return new Schema(columns.map(([id, name, type, required]) => ({ id, name, type, required: required ?? false })));
}

/** Partition fields as [source id, transform, name]; field ids from 1000. */
export function specOf(...fields: ReadonlyArray<readonly [number, string, string]>): PartitionSpec {
  return {
    specId: 0,
    fields: fields.map(([sourceId, transform, name], i) => ({ sourceId, fieldId: 1000 + i, name, transform })),
  };
}

/** A legacy-JSON filter, parsed as a plan request's filter is. */
export function filter(json: unknown): Expression {
  return parseExpression(json);
}

/** One predicate: unary without value, set ops take an array, others one value. */
export function p(op: string, term: unknown, value?: unknown): Expression {
  if (value === undefined) return filter({ type: op, term });
  if (op === 'in' || op === 'not-in') return filter({ type: op, term, values: value });
  return filter({ type: op, term, value });
}

export function transformTerm(transform: string, column: string): unknown {
  return { type: 'transform', transform, term: column };
}

export const T = {
  int: { kind: 'int' },
  long: { kind: 'long' },
  float: { kind: 'float' },
  double: { kind: 'double' },
  date: { kind: 'date' },
  timestamp: { kind: 'timestamp' },
  timestamptz: { kind: 'timestamptz' },
  string: { kind: 'string' },
  uuid: { kind: 'uuid' },
  binary: { kind: 'binary' },
  boolean: { kind: 'boolean' },
  decimal: (precision: number, scale: number): IcebergType => ({ kind: 'decimal', precision, scale }),
} as const satisfies Record<string, IcebergType | ((...a: number[]) => IcebergType)>;

/** Java's `toHumanString` for the int results of the time transforms (the tests' expected texts). */
export function human(transform: string, json: unknown): string {
  const n = Number(json);
  const pad = (v: number): string => String(v).padStart(2, '0');
  const floorMod = (a: number, b: number): number => ((a % b) + b) % b;
  switch (transform) {
    case 'year':
      return String(1970 + n);
    case 'month':
      return `${1970 + Math.floor(n / 12)}-${pad(floorMod(n, 12) + 1)}`;
    case 'hour':
      return `${daysToIsoDate(Math.floor(n / 24))}-${pad(floorMod(n, 24))}`;
    default:
      return String(json);
  }
}

/**
 * A projected expression as [operation, literal text] like Java's assertProjection helpers:
 * constants give ['true'|'false', ''], set literals are sorted and bracketed.
 */
export function describeProjection(expr: Expression, transform: string): [string, string] {
  const kind = (expr as { kind: string }).kind;
  if (kind === 'true' || kind === 'false') return [kind, ''];
  if (!isPredicate(expr)) return [kind, ''];
  const pred = expr as UnboundPredicate;
  switch (pred.kind) {
    case 'unary':
      return [pred.op, ''];
    case 'literal':
      return [pred.op, human(transform, pred.literal.value)];
    case 'set': {
      const values = pred.literals.map((l) => l.value);
      const numeric = values.every((v) => typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)));
      const sorted = [...values].sort((a, b) => (numeric ? Number(a) - Number(b) : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
      return [pred.op, `[${sorted.map((v) => human(transform, v)).join(', ')}]`];
    }
  }
}

export type Bounds = Record<number, readonly [IcebergType, unknown]>;

export interface FileStats {
  readonly records: number;
  readonly values?: Record<number, number>;
  readonly nulls?: Record<number, number>;
  readonly nans?: Record<number, number>;
  readonly lower?: Bounds;
  readonly upper?: Bounds;
}

function counts(m: Record<number, number> | undefined): ReadonlyMap<number, bigint> | undefined {
  return m === undefined ? undefined : new Map(Object.entries(m).map(([k, v]) => [Number(k), BigInt(v)]));
}

function bounds(m: Bounds | undefined): ReadonlyMap<number, Uint8Array> | undefined {
  return m === undefined ? undefined : new Map(Object.entries(m).map(([k, [type, v]]) => [Number(k), toBinary(type, v)]));
}

/** A data file with the given record count and column metrics (bounds encoded as Appendix D bytes). */
export function dataFile(stats: FileStats): ContentFile {
  const file: ContentFile = {
    content: 0,
    filePath: 'file.parquet',
    fileFormat: 'PARQUET',
    specId: 0,
    partition: [],
    recordCount: BigInt(stats.records),
    fileSizeInBytes: 1024n,
  };
  return {
    ...file,
    ...(stats.values && { valueCounts: counts(stats.values) }),
    ...(stats.nulls && { nullValueCounts: counts(stats.nulls) }),
    ...(stats.nans && { nanValueCounts: counts(stats.nans) }),
    ...(stats.lower && { lowerBounds: bounds(stats.lower) }),
    ...(stats.upper && { upperBounds: bounds(stats.upper) }),
  };
}
