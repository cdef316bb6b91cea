import t from 'tap';
import { JsonFloat, jsonFloat, stringifyJson } from '../../src/json/index.js';
import { parseExpression } from '../../src/iceberg/index.js';
import { canonicalScanJson, decodePlanTask, encodePlanTask, parsedFilter, planTaskMatches, type PlanScan } from '../../src/tokens/index.js';
import { FIVE_PREDICATES, KEY, PLAN, SCAN, TASK, filterJson } from './samples.js';

const ROUTE = { catalog: PLAN.catalog, namespace: [...PLAN.namespace], table: PLAN.table, tableUuid: PLAN.tableUuid };

t.test('a task matches the route of the table it was issued for', async (t) => {
  t.ok(planTaskMatches(PLAN, ROUTE));
  t.ok(planTaskMatches(PLAN, { ...ROUTE, tableUuid: PLAN.tableUuid!.toUpperCase() }), 'UUIDs compare case-insensitively');
});

t.test('a task does not match another catalog, namespace or table', async (t) => {
  t.notOk(planTaskMatches(PLAN, { ...ROUTE, catalog: 'staging' }));
  t.notOk(planTaskMatches(PLAN, { ...ROUTE, table: 'Order_Events' }));
  t.notOk(planTaskMatches(PLAN, { ...ROUTE, namespace: ['sales', 'eu'] }));
  t.notOk(planTaskMatches(PLAN, { ...ROUTE, namespace: [] }));
  const nested = { ...PLAN, namespace: ['a', 'b'] };
  t.notOk(planTaskMatches(nested, { ...ROUTE, namespace: ['a.b'] }), 'levels are not joined with dots');
  t.ok(planTaskMatches(nested, { ...ROUTE, namespace: ['a', 'b'] }));
});

t.test('a task pinned to a table UUID does not match a re-created table of the same name', async (t) => {
  t.notOk(planTaskMatches(PLAN, { ...ROUTE, tableUuid: '00000000-0000-4000-8000-000000000000' }));
  t.notOk(planTaskMatches(PLAN, { catalog: ROUTE.catalog, namespace: ROUTE.namespace, table: ROUTE.table }), 'target without a UUID');
  const { tableUuid: _, ...unpinned } = PLAN;
  t.ok(planTaskMatches(unpinned, ROUTE), 'a task without a UUID matches by name');
});

t.test('equal scans have equal canonical JSON whatever the key order of their filter', async (t) => {
  const reordered: PlanScan = {
    useSnapshotSchema: SCAN.useSnapshotSchema,
    caseSensitive: SCAN.caseSensitive,
    select: SCAN.select!,
    filter: reverseKeys(FIVE_PREDICATES),
  };
  t.not(stringifyJson(reordered.filter), stringifyJson(SCAN.filter), 'the filters really differ in key order');
  t.equal(canonicalScanJson(reordered), canonicalScanJson(SCAN));
});

t.test('canonical JSON keeps what tells scans apart', async (t) => {
  const base = canonicalScanJson(SCAN);
  t.not(canonicalScanJson({ ...SCAN, caseSensitive: false }), base);
  t.not(canonicalScanJson({ ...SCAN, useSnapshotSchema: true }), base);
  t.not(canonicalScanJson({ ...SCAN, select: [...SCAN.select!].reverse() }), base, 'select order is kept as given');
  t.not(canonicalScanJson({ ...SCAN, statsFields: [] }), base, 'no stats fields differs from an empty list');
  t.not(canonicalScanJson({ ...SCAN, filter: true }), base);
  const a = canonicalScanJson({ ...SCAN, filter: filterJson('{"type":"eq","term":"id","value":9007199254740993}') });
  const b = canonicalScanJson({ ...SCAN, filter: filterJson('{"type":"eq","term":"id","value":9007199254740992}') });
  t.not(a, b, 'longs beyond 2^53 stay exact');
  t.ok(a.includes('9007199254740993'));
  t.not(
    canonicalScanJson({ ...SCAN, filter: { type: 'eq', term: 'x', value: jsonFloat(1) } }),
    canonicalScanJson({ ...SCAN, filter: { type: 'eq', term: 'x', value: 1 } }),
    'a float literal is not an integer literal',
  );
  t.not(
    canonicalScanJson({ ...SCAN, startSnapshotId: 1n, endSnapshotId: 2n }),
    canonicalScanJson({ ...SCAN, startSnapshotId: 2n, endSnapshotId: 1n }),
  );
  t.equal(canonicalScanJson(SCAN), base, 'deterministic');
});

/** The same JSON value with every object's keys in reverse order. */
function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (typeof v !== 'object' || v === null || v instanceof JsonFloat) return v;
  return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]));
}

t.test("a scan read from a string keeps the filter it parsed to check it, and that filter is the JSON's", async (t) => {
  const decoded = decodePlanTask(encodePlanTask(TASK, KEY), KEY)!;
  const parsed = parsedFilter(decoded.scan);
  t.ok(parsed, 'the decoded scan has its filter parsed');
  t.same(parsed, parseExpression(TASK.scan.filter), 'the same expression the JSON filter parses to');
  t.equal(parsedFilter(TASK.scan), undefined, 'a scan made in memory has none: it is parsed where it is planned');
});
