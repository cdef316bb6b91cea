/**
 * Property-based fuzzing (fast-check) of filters, plan tasks and namespace encodings through
 * HTTP. FUZZ_RUNS sets the cases per property (default 1,000: 3,000 in all); tools/fuzz.ts runs
 * the same properties at 100,000.
 */
import fc from 'fast-check';
import t from 'tap';
import { appWith, demoCatalog, parse, post } from '../service/planning/helpers.js';
import { filterProperty, FUZZ_SECRET, namespaceProperty, planTaskProperty, TABLE, type FuzzApps } from './fuzz/properties.js';
import { Tally } from './hostile/tally.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);

const apps: FuzzApps = { signed: appWith([demoCatalog()], { batchSize: 1, tokenSecret: FUZZ_SECRET }), unsigned: appWith([demoCatalog()], { batchSize: 1 }) };
t.teardown(() => Promise.all([apps.signed.close(), apps.unsigned.close()]));

t.test('any filter tree is planned (200) or refused with a 400 ErrorModel, never a 5xx', async (t) => {
  const tally = new Tally();
  await fc.assert(filterProperty(apps, tally), { numRuns: RUNS });
  t.comment(tally.summary('fuzz filters'));
  t.pass();
});

t.test('a mutated signed plan task is never redeemed: 404 or 400 ErrorModel', async (t) => {
  const plan = parse((await post(apps.signed, `${TABLE}/plan`, {})).body);
  const tasks = plan['plan-tasks'] ?? [];
  t.ok(tasks.length > 0);
  const tally = new Tally();
  await fc.assert(planTaskProperty(apps, tasks, tally), { numRuns: RUNS });
  t.comment(tally.summary('fuzz plan tasks'));
});

t.test('namespace levels encoded the spec way decode to the same levels, and routes answer 200, 404 NoSuchNamespace or 400', async (t) => {
  const tally = new Tally();
  await fc.assert(namespaceProperty(apps, tally), { numRuns: RUNS });
  t.comment(tally.summary('fuzz namespaces'));
  t.pass();
});
