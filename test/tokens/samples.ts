/**
 * Sample plans and tasks for the token tests, plus helpers that open a token's payload and
 * re-seal an edited one the way the server writes strings (envelope.ts), so a test can forge
 * exactly the malformed payload it needs.
 */
import { inflateRawSync } from 'node:zlib';
import { expressionToJson, parseExpression } from '../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../src/json/index.js';
import type { PlanRef, PlanScan, PlanTask } from '../../src/tokens/index.js';
import { seal } from '../../src/tokens/envelope.js';

export const KEY = Buffer.from('replica-shared-secret-0123456789', 'utf8');
export const OTHER_KEY = Buffer.from('some-other-secret-9876543210abcd', 'utf8');

/** Only these characters may appear in a plan id or plan task (wire-format.md §3). */
export const URL_SAFE = /^[A-Za-z0-9._~-]+$/;

/** A filter in the legacy JSON form, as the service would carry it. */
export function filterJson(text: string): unknown {
  return expressionToJson(parseExpression(parseJson(text)));
}

/** Five predicates over a timestamp, a string, a set and a float column. */
export const FIVE_PREDICATES = filterJson(`{"type":"and",
  "left":{"type":"and",
    "left":{"type":"gt-eq","term":"event_ts","value":"2024-01-01T00:00:00.000000+00:00"},
    "right":{"type":"lt","term":"event_ts","value":"2024-02-01T00:00:00.000000+00:00"}},
  "right":{"type":"and",
    "left":{"type":"eq","term":"region","value":"eu-west-1"},
    "right":{"type":"and",
      "left":{"type":"in","term":"category","values":["books","games","music"]},
      "right":{"type":"gt","term":"price","value":19.99}}}}`);

/** Literals a JS number cannot hold: a long beyond 2^53 and floats whose text must survive. */
export const EXACT_LITERALS = filterJson(`{"type":"or",
  "left":{"type":"eq","term":"id","value":9007199254740993},
  "right":{"type":"and",
    "left":{"type":"in","term":"ratio","values":[1.0, 2.50, -0.0, 1e-7]},
    "right":{"type":"not","child":{"type":"eq","term":{"type":"transform","transform":"bucket[16]","term":"id"},"value":3}}}}`);

export const SCAN: PlanScan = {
  filter: FIVE_PREDICATES,
  select: ['order_id', 'event_ts', 'price'],
  caseSensitive: true,
  useSnapshotSchema: false,
};

export const PLAN: PlanRef = {
  catalog: 'prod',
  namespace: ['sales'],
  table: 'order_events',
  tableUuid: '3f2a8c1e-9b7d-4e5f-a6c3-1d2e3f4a5b6c',
  snapshotId: 9158179788527662767n,
  scan: SCAN,
};

/** A manifest path of about 100 bytes, distinct per `i`, sharing the table's metadata prefix. */
export function manifestPath(i: number): string {
  return `s3://analytics-prod/warehouse/sales.db/order_events/metadata/${i}f3e2d1c-1a2b-4c3d-9e8f-7a6b5c4d3e2${i}-m${i}.avro`;
}

/** A realistic batch: three manifests, one of them only partly, with read hints. */
export const TASK: PlanTask = {
  ...PLAN,
  ranges: [
    { manifest: manifestPath(1), start: 40, end: 60, offset: 4, length: 120_000, first: 32 },
    { manifest: manifestPath(2), start: 0, end: 60, offset: 4, length: 300_000, first: 0, nextRowId: 2n ** 60n + 7n },
    { manifest: manifestPath(3), start: 0, end: 20 },
  ],
};

/** TASK with what its plan knew of the manifest list: every manifest's list entry, no deletes. */
export const TASK_WITH_FACTS: PlanTask = {
  ...TASK,
  facts: {
    manifests: new Map(
      TASK.ranges.map((r, i) => [
        r.manifest,
        {
          path: r.manifest,
          length: 9_007_199_254_740_993n + BigInt(i),
          specId: i,
          sequenceNumber: 2n ** 62n + BigInt(i),
          minSequenceNumber: 3n,
          addedSnapshotId: 9158179788527662767n - BigInt(i),
          ...(i === 1 && { firstRowId: 2n ** 60n }),
        },
      ]),
    ),
    noDeletes: true,
  },
};

/** The JSON payload inside a token (the segment after the kind, inflated). */
export function payloadOf(token: string): Record<string, unknown> {
  const segment = token.split('.')[1]!;
  return parseJson(inflateRawSync(Buffer.from(segment, 'base64url')).toString('utf8')) as Record<string, unknown>;
}

/** A string the server's envelope would write around `payload` (an object or raw JSON text). */
export function sealed(kind: string, payload: unknown, key?: Buffer): string {
  return seal(kind, typeof payload === 'string' ? payload : stringifyJson(payload), key);
}

/** A deep copy of a parsed payload, safe to edit. */
export function copy<T>(v: T): T {
  return parseJson(stringifyJson(v)) as T;
}
