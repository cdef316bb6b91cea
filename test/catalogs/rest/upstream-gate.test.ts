import t from 'tap';
import { UpstreamGate } from '../../../src/catalogs/rest/upstream-gate.js';
import { isIcefrontError } from '../../../src/errors/index.js';

function deferred(): { promise: Promise<void>; resolve(): void; reject(e: Error): void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

t.test('at most max-in-flight run at once; the rest wait their turn in order', async (t) => {
  const gate = new UpstreamGate('up', { maxInFlight: 2, maxQueued: 10 });
  const holds = [deferred(), deferred(), deferred()];
  const started: number[] = [];
  const runs = holds.map((h, i) => gate.run(async () => (started.push(i), h.promise), 10_000));
  await tick();
  t.same(started, [0, 1], 'two admitted');
  t.equal(gate.inFlight, 2);
  t.equal(gate.queued, 1);
  holds[0]!.reject(new Error('upstream failed'));
  await t.rejects(runs[0]!, /upstream failed/, 'a failed exchange gives its error back');
  await tick();
  t.same(started, [0, 1, 2], 'its turn passed on when it failed');
  holds[1]!.resolve();
  holds[2]!.resolve();
  await Promise.all([runs[1], runs[2]]);
  t.equal(gate.inFlight, 0);
});

t.test('a full queue refuses at once with UPSTREAM_BUSY (503) and never runs the work', async (t) => {
  const gate = new UpstreamGate('up', { maxInFlight: 1, maxQueued: 1 });
  const hold = deferred();
  const first = gate.run(() => hold.promise, 10_000);
  const second = gate.run(() => hold.promise, 10_000);
  let ran = false;
  // settled while both turns are still held (and its 10 s wait far off): refused without waiting
  const err = await gate.run(async () => void (ran = true), 10_000).catch((e: unknown) => e);
  t.ok(isIcefrontError(err, 'UPSTREAM_BUSY') && err.status === 503, 'UPSTREAM_BUSY, 503, while the queue is full');
  t.match((err as Error).message, /'up'.*1 requests in flight/);
  hold.resolve();
  await Promise.all([first, second]);
  t.notOk(ran, 'the refused work never ran');
});

t.test('a request not admitted within its wait is refused, and its turn, when it comes, is skipped', async (t) => {
  const gate = new UpstreamGate('up', { maxInFlight: 1, maxQueued: 5 });
  const hold = deferred();
  const first = gate.run(() => hold.promise, 10_000);
  let ran = false;
  // the only slot stays held, so only the wait running out can settle this
  const err = await gate.run(async () => void (ran = true), 150).catch((e: unknown) => e);
  t.ok(isIcefrontError(err, 'UPSTREAM_BUSY'), 'UPSTREAM_BUSY once its wait ran out, the slot still held');
  hold.resolve();
  await first;
  await tick();
  t.notOk(ran, 'the expired work never ran');
  t.equal(gate.inFlight + gate.queued, 0, 'nothing left behind');
  t.equal(await gate.run(async () => 'next', 1000), 'next', 'the gate admits again');
});
