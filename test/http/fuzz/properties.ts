/**
 * fast-check properties over filters, plan tasks and namespace encodings, shared by
 * test/http/fuzz.test.ts (a few thousand cases) and tools/fuzz.ts (100,000). Not a test file.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { decodeNamespacePath } from '../../../src/http/request-params.js';
import { errorModelProblem, Tally } from '../hostile/tally.js';

export const TABLE = '/v1/demo/namespaces/sales/tables/orders';
export const FUZZ_SECRET = 'a-plan-token-secret-for-fuzzing!';

const COLUMNS = ['order_id', 'region', 'order_ts', 'customer_id', 'sku', 'amount', 'quantity', 'order_date', 'shipped_at', 'discount', 'gift', 'order_uuid', 'signature'];
const UNARY = ['is-null', 'not-null', 'is-nan', 'not-nan'];
const LITERAL_OPS = ['lt', 'lt-eq', 'gt', 'gt-eq', 'eq', 'not-eq', 'starts-with', 'not-starts-with'];
const SET_OPS = ['in', 'not-in'];

const literal = fc.oneof(
  fc.integer(), fc.double(), fc.boolean(), fc.string(), fc.string({ unit: 'binary', maxLength: 8 }), fc.constant(null),
  fc.bigInt({ min: -(1n << 64n), max: 1n << 64n }).map((b) => ({ raw: b.toString() })),
  fc.constantFrom('2024-03-01', '2024-03-01T10:00:00Z', '2024-03-01T10:00:00.123456', '12.50', 'US', 'EU', 'BOOK', '00000000-0000-0000-0000-000000000000', 'DEADBEEF', 'NaN', '-Infinity'),
  fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);
const term = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...COLUMNS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('transform', 'reference', 'x'), transform: fc.constantFrom('bucket[4]', 'day', 'truncate[2]', 'identity', 'void', 'bucket[-1]', 'zorder'), term: fc.constantFrom(...COLUMNS) }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.constant([])) },
);
const typeName = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...UNARY, ...LITERAL_OPS, ...SET_OPS, 'and', 'or', 'not', 'true', 'false') }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });

/** Filter trees, valid and not: any op with any term and literal, nested via and/or/not. */
export const filterArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ type: fc.constantFrom(...UNARY), term }),
    fc.record({ type: fc.constantFrom(...LITERAL_OPS), term, value: literal }),
    fc.record({ type: fc.constantFrom(...SET_OPS), term, values: fc.array(literal, { maxLength: 5 }) }),
    fc.record({ type: fc.constantFrom('and', 'or'), left: tie('node'), right: tie('node') }),
    fc.record({ type: fc.constant('not'), child: tie('node') }),
    fc.constantFrom(true, false, 'true', 'false', null, 0, [], {}),
    fc.record({ type: typeName, term, value: literal, child: tie('node') }, { requiredKeys: [] }),
  ),
})).node;

/** A literal as JSON text; `{raw}` becomes a bare integer beyond 2^53 (JSON.stringify cannot). */
function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x !== null && typeof x === 'object' && 'raw' in x ? `@@${(x as { raw: string }).raw}@@` : x)).replace(/"@@(-?\d+)@@"/g, '$1');
}

export interface FuzzApps {
  readonly signed: FastifyInstance;
  readonly unsigned: FastifyInstance;
}

function check(tally: Tally, label: string, status: number, body: string, ms: number, allowed: (s: number) => boolean): void {
  tally.add({ label, outcome: String(status), ms });
  if (!allowed(status)) throw new Error(`${label}: unexpected ${status} ${body.slice(0, 300)}`);
  if (status >= 400) {
    const problem = errorModelProblem(status, body);
    if (problem) throw new Error(`${label}: ${problem}`);
  }
}

/** Any filter tree POSTed to /plan: 200 or a 400 ErrorModel, never a 5xx. */
export function filterProperty(apps: FuzzApps, tally: Tally) {
  return fc.asyncProperty(filterArb, fc.boolean(), async (filter, caseSensitive) => {
    const payload = `{"filter":${jsonText(filter)},"case-sensitive":${caseSensitive}}`;
    const started = performance.now();
    const res = await apps.signed.inject({ method: 'POST', url: `${TABLE}/plan`, headers: { 'content-type': 'application/json' }, payload });
    check(tally, `filter ${payload.slice(0, 200)}`, res.statusCode, res.body, performance.now() - started, (s) => s === 200 || s === 400);
  });
}

/** Character edits, truncations, insertions and garbage on a real signed plan task: never redeemed. */
export function planTaskProperty(apps: FuzzApps, tasks: readonly string[], tally: Tally) {
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 6 }) }),
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ minLength: 1, maxLength: 4 }) }),
    fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.base64String({ minLength: 1, maxLength: 8 }) }),
  );
  return fc.asyncProperty(fc.nat(), fc.array(edit, { minLength: 1, maxLength: 4 }), fc.option(fc.base64String({ maxLength: 200 })), async (pick, edits, garbage) => {
    const original = tasks[pick % tasks.length]!;
    let text = garbage ?? original;
    for (const e of edits) {
      const at = e.at % (text.length + 1);
      if (e.kind === 'flip') text = text.slice(0, at) + String.fromCharCode((text.charCodeAt(at) || 65) ^ (1 << e.bit)) + text.slice(at + 1);
      else if (e.kind === 'cut') text = text.slice(0, at);
      else if (e.kind === 'insert') text = text.slice(0, at) + e.text + text.slice(at);
      else text = text.slice(0, at) + e.text + text.slice(at + e.text.length);
    }
    if (text === original) return;
    const started = performance.now();
    const res = await apps.signed.inject({ method: 'POST', url: `${TABLE}/tasks`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ 'plan-task': text }) });
    check(tally, `plan task ${JSON.stringify(text).slice(0, 120)}`, res.statusCode, res.body, performance.now() - started, (s) => s === 404 || s === 400);
  });
}

const level = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
  fc.constantFrom('.', '..', '%', '%1F', '%2E', '\u001f', '+', ' ', '/', 'sales', 'a.b', '%25', '\\', '?', '#', '\u0000'),
  fc.string({ unit: fc.constantFrom('a', '.', '%', '/', '+', ' ', '\u001f', 'é', '名'), minLength: 1, maxLength: 8 }),
);

/** The REST spec encoding of namespace levels: each level URL-encoded, joined with %1F. */
export function encodeNamespace(levels: readonly string[]): string {
  return levels.map((l) => encodeURIComponent(l)).join('%1F');
}

/** Namespaces encoded the spec way decode to the same levels, in the helper and through HTTP. */
export function namespaceProperty(apps: FuzzApps, tally: Tally) {
  return fc.asyncProperty(fc.array(level, { minLength: 1, maxLength: 4 }), async (levels) => {
    const encoded = encodeNamespace(levels);
    // a level holding U+001F cannot round-trip: the separator is its own encoding's decoded form
    const separatorFree = levels.every((l) => !l.includes('\u001f'));
    if (separatorFree && JSON.stringify(decodeNamespacePath(encoded)) !== JSON.stringify(levels)) throw new Error(`round-trip: ${JSON.stringify(levels)} → ${encoded} → ${JSON.stringify(decodeNamespacePath(encoded))}`);
    const started = performance.now();
    const res = await apps.signed.inject({ url: `/v1/demo/namespaces/${encoded}` });
    const label = `namespace ${JSON.stringify(levels)}`;
    check(tally, label, res.statusCode, res.body, performance.now() - started, (s) => s === 200 || s === 404 || s === 400);
    if (res.statusCode === 404) {
      const { error } = JSON.parse(res.body) as { error: { type: string; message: string } };
      // a level of `.` or `..` is a dot segment the URL resolves away: no such route
      const dotSegment = levels.some((l) => l === '.' || l === '..');
      if (dotSegment && error.type === 'NotFoundException') return;
      if (error.type !== 'NoSuchNamespaceException') throw new Error(`${label}: 404 ${error.type}`);
      // the filesystem catalog names the namespace up to its first missing level, decoded
      if (separatorFree && !error.message.includes(levels[0] === 'sales' && levels.length > 1 ? levels[1]! : levels[0]!)) throw new Error(`${label}: message does not name the namespace: ${error.message}`);
    }
    if (res.statusCode === 200 && JSON.stringify((JSON.parse(res.body) as { namespace: string[] }).namespace) !== JSON.stringify(levels)) throw new Error(`${label}: 200 for another namespace ${res.body}`);
  });
}
