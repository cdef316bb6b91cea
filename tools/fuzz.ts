/**
 * The fuzz properties of test/http/fuzz.test.ts at scale (`npm run fuzz`): FUZZ_RUNS cases in all
 * (default 100,000), split evenly over filters, plan tasks and namespace encodings; FUZZ_MINUTES
 * (optional) stops a property early and reports how many cases it ran. Prints cases, outcomes by
 * class, the slowest case, peak RSS and wall time.
 */
import fc from 'fast-check';
import { appWith, demoCatalog, parse, post } from '../test/service/planning/helpers.js';
import { filterProperty, FUZZ_SECRET, namespaceProperty, planTaskProperty, TABLE, type FuzzApps } from '../test/http/fuzz/properties.js';
import { Tally } from '../test/http/hostile/tally.js';

const total = Number(process.env.FUZZ_RUNS ?? 100_000);
const minutes = Number(process.env.FUZZ_MINUTES ?? 0);
const perProperty = Math.ceil(total / 3);
const apps: FuzzApps = { signed: appWith([demoCatalog()], { batchSize: 1, tokenSecret: FUZZ_SECRET }), unsigned: appWith([demoCatalog()], { batchSize: 1 }) };
const tasks = parse((await post(apps.signed, `${TABLE}/plan`, {})).body)['plan-tasks'] ?? [];
const all = new Tally();
let failed = false;
const started = Date.now();
async function runOne<T extends unknown[]>(name: string, make: (t: Tally) => fc.IAsyncProperty<T>): Promise<void> {
  const tally = new Tally();
  const budget = minutes > 0 ? { interruptAfterTimeLimit: (minutes * 60_000) / 3, markInterruptAsFailure: false } : {};
  const out = await fc.check(make(tally), { numRuns: perProperty, ...budget });
  if (out.failed) {
    failed = true;
    console.log(`FAILED ${name}: ${fc.defaultReportMessage(out)}`);
  }
  console.log(tally.summary(`fuzz ${name}${out.interrupted ? ' (interrupted by FUZZ_MINUTES)' : ''}`));
  all.merge(tally);
}
await runOne('filters', (t) => filterProperty(apps, t));
await runOne('plan tasks', (t) => planTaskProperty(apps, tasks, t));
await runOne('namespaces', (t) => namespaceProperty(apps, t));
console.log(all.summary('fuzz (all)'));
console.log(`wall ${((Date.now() - started) / 1000).toFixed(0)} s`);
await Promise.all([apps.signed.close(), apps.unsigned.close()]);
process.exit(failed ? 1 : 0);
