import t from 'tap';
import { createComputeCache } from '../../src/cache/index.js';
import { isIcefrontError } from '../../src/errors/index.js';
import type { CacheMetrics } from '../../src/observability/index.js';

/** A promise settled from outside, so a test decides when a computation finishes. */
function deferred<V>(): { promise: Promise<V>; resolve(v: V): void; reject(e: unknown): void } {
  let resolve!: (v: V) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<V>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A compute function that counts its calls and returns a fresh object each time. */
function counting<V>(make: (call: number) => V): { compute: () => Promise<V>; readonly calls: number } {
  let calls = 0;
  return {
    compute: async () => make(++calls),
    get calls() {
      return calls;
    },
  };
}

/** Values whose size is their `bytes` field. */
interface Blob {
  readonly id: string;
  readonly bytes: number;
}
const blobCache = (maxBytes: number, metrics?: CacheMetrics) =>
  createComputeCache<Blob>({ maxBytes, sizeOf: (b) => b.bytes, name: 'blobs', metrics });
const blob = (id: string, bytes: number) => async (): Promise<Blob> => ({ id, bytes });

/** Records every report a cache makes. */
function recorder(): CacheMetrics & { counts: Record<string, number>; bytesNow: number; inFlightSeen: number[] } {
  const counts: Record<string, number> = { hit: 0, miss: 0, coalesced: 0, evicted: 0 };
  const r = {
    counts,
    bytesNow: -1,
    inFlightSeen: [] as number[],
    hit: () => void counts.hit++,
    miss: () => void counts.miss++,
    coalesced: () => void counts.coalesced++,
    evicted: () => void counts.evicted++,
    bytes: (_: string, n: number) => void (r.bytesNow = n),
    inFlight: (_: string, n: number) => void r.inFlightSeen.push(n),
  };
  return r;
}

t.test('concurrent gets of one key run the computation once and all see the same value', async (t) => {
  const cache = createComputeCache<{ call: number }>({ maxBytes: 1000, sizeOf: () => 10, name: 'c' });
  const gate = deferred<void>();
  const c = counting((call) => ({ call }));
  const compute = async () => {
    await gate.promise;
    return c.compute();
  };
  const gets = Array.from({ length: 20 }, () => cache.get('k', compute));
  t.equal(cache.inFlight, 1, 'one computation in flight for twenty callers');
  gate.resolve();
  const values = await Promise.all(gets);
  t.equal(c.calls, 1);
  t.ok(values.every((v) => v === values[0]), 'every caller got the identical object');
  t.equal(cache.inFlight, 0);
  t.equal(await cache.get('k', compute), values[0], 'a later get is served from storage');
  t.equal(c.calls, 1);
});

t.test('a failure reaches every waiter and is not cached', async (t) => {
  const cache = blobCache(1000);
  const gate = deferred<Blob>();
  let calls = 0;
  const failing = () => {
    calls++;
    return gate.promise;
  };
  const gets = Array.from({ length: 5 }, () => cache.get('k', failing));
  gate.reject(new Error('disk on fire'));
  const outcomes = await Promise.allSettled(gets);
  t.equal(calls, 1);
  t.ok(outcomes.every((o) => o.status === 'rejected' && (o.reason as Error).message === 'disk on fire'), 'all five rejected');
  t.equal(cache.inFlight, 0, 'the failed flight is gone');
  t.equal(cache.peek('k'), undefined, 'nothing stored');
  t.same(await cache.get('k', blob('k', 10)), { id: 'k', bytes: 10 }, 'the next get computes again and succeeds');
});

t.test('a compute that throws synchronously fails the get instead of throwing from it', async (t) => {
  const cache = blobCache(1000);
  const p = cache.get('k', () => {
    throw new Error('sync');
  });
  await t.rejects(p, { message: 'sync' });
  t.equal(cache.inFlight, 0);
});

t.test('the in-flight entry goes when the computation settles, so the next get starts afresh', async (t) => {
  const flights = createComputeCache<number>({ maxBytes: 0, sizeOf: () => 8, name: 'f' });
  const c = counting((call) => call);
  const gate = deferred<void>();
  const first = flights.get('k', async () => {
    await gate.promise;
    return c.compute();
  });
  const joined = flights.get('k', c.compute);
  t.equal(flights.inFlight, 1);
  gate.resolve();
  t.same(await Promise.all([first, joined]), [1, 1], 'maxBytes 0 still coalesces');
  t.equal(flights.inFlight, 0);
  t.equal(await flights.get('k', c.compute), 2, 'nothing stored, nothing in flight: computed again');
  t.equal(flights.bytes, 0);
  t.equal(flights.peek('k'), undefined);
});

t.test('eviction drops the least recently used values and the byte total never exceeds the bound', async (t) => {
  const rec = recorder();
  const cache = blobCache(100, rec);
  await cache.get('a', blob('a', 40));
  await cache.get('b', blob('b', 40));
  t.equal(cache.bytes, 80);
  await cache.get('a', blob('a', 999)); // a hit: refreshes a's recency
  await cache.get('c', blob('c', 40));
  t.equal(cache.peek('b'), undefined, 'b, the least recently used, was evicted');
  t.same(cache.peek('a'), { id: 'a', bytes: 40 }, 'a, recently used, stayed');
  t.same(cache.peek('c'), { id: 'c', bytes: 40 });
  t.equal(cache.bytes, 80);
  t.equal(rec.counts.evicted, 1);
  t.equal(rec.bytesNow, 80, 'the bytes report follows the cache');

  for (let i = 0; i < 200; i++) {
    await cache.get(`k${i % 37}`, blob(`k${i}`, 1 + ((i * 29) % 60)));
    if (cache.bytes > 100) t.fail(`bytes ${cache.bytes} exceed the bound after get ${i}`);
  }
  t.ok(cache.bytes <= 100, 'bounded throughout a long mixed run');
});

t.test('peek neither computes nor refreshes recency', async (t) => {
  const cache = blobCache(100);
  await cache.get('a', blob('a', 50));
  await cache.get('b', blob('b', 50));
  t.ok(cache.peek('a'));
  t.equal(cache.peek('missing'), undefined);
  await cache.get('c', blob('c', 50));
  t.equal(cache.peek('a'), undefined, 'a was still the oldest despite the peek');
  t.ok(cache.peek('b'));
});

t.test('a value larger than the bound is returned but not stored and evicts nothing', async (t) => {
  const cache = blobCache(100);
  await cache.get('small', blob('small', 30));
  t.same(await cache.get('big', blob('big', 150)), { id: 'big', bytes: 150 });
  t.equal(cache.peek('big'), undefined);
  t.ok(cache.peek('small'), 'the small value survived');
  t.equal(cache.bytes, 30);
  let calls = 0;
  await cache.get('big', async () => ({ id: 'big', bytes: 150, n: ++calls }));
  t.equal(calls, 1, 'the oversize value is computed again next time');
});

t.test('keys are independent: separate computations, one failure does not touch the other', async (t) => {
  const cache = blobCache(1000);
  const gateA = deferred<Blob>();
  const gateB = deferred<Blob>();
  const a = cache.get('a', () => gateA.promise);
  const b = cache.get('b', () => gateB.promise);
  t.equal(cache.inFlight, 2);
  gateA.reject(new Error('a failed'));
  gateB.resolve({ id: 'b', bytes: 5 });
  await t.rejects(a, { message: 'a failed' });
  t.same(await b, { id: 'b', bytes: 5 });
  t.equal(cache.peek('a'), undefined);
  t.ok(cache.peek('b'));
});

t.test('a caller who gives up does not cancel the computation for the others', async (t) => {
  const cache = blobCache(1000);
  const gate = deferred<Blob>();
  let calls = 0;
  const compute = () => {
    calls++;
    return gate.promise;
  };
  const quitter = new AbortController();
  const abandoned = cache.get('k', compute, { signal: quitter.signal });
  const patient = cache.get('k', compute);
  quitter.abort(new Error('client went away'));
  await t.rejects(abandoned, { message: 'client went away' }, 'the quitter sees its own reason at once');
  t.equal(cache.inFlight, 1, 'the computation keeps running');
  gate.resolve({ id: 'k', bytes: 7 });
  t.same(await patient, { id: 'k', bytes: 7 });
  t.equal(calls, 1);
  t.ok(cache.peek('k'), 'the result is stored for later callers');

  const already = new AbortController();
  already.abort(new Error('gone before asking'));
  await t.rejects(cache.get('other', compute, { signal: already.signal }), { message: 'gone before asking' });
  t.equal(calls, 1, 'an already-aborted caller starts no work');
});

t.test('delete during a computation keeps its result from being stored', async (t) => {
  const cache = blobCache(1000);
  const gate = deferred<Blob>();
  const stale = cache.get('k', () => gate.promise);
  cache.delete('k');
  const fresh = cache.get('k', blob('k', 9));
  t.equal(cache.inFlight, 2, 'the detached computation still runs next to the new one');
  t.same(await fresh, { id: 'k', bytes: 9 });
  gate.resolve({ id: 'stale', bytes: 3 });
  t.same(await stale, { id: 'stale', bytes: 3 }, 'the detached waiter still gets its value');
  t.same(cache.peek('k'), { id: 'k', bytes: 9 }, 'the value computed after the delete is the one kept');
  t.equal(cache.inFlight, 0);
});

t.test('clear empties storage and detaches every computation', async (t) => {
  const cache = blobCache(1000);
  await cache.get('a', blob('a', 10));
  const gate = deferred<Blob>();
  const running = cache.get('b', () => gate.promise);
  cache.clear();
  t.equal(cache.bytes, 0);
  t.equal(cache.peek('a'), undefined);
  gate.resolve({ id: 'b', bytes: 10 });
  await running;
  t.equal(cache.peek('b'), undefined, 'a computation started before clear is not stored');
});

t.test('metrics see every get as exactly one of hit, miss or coalesced', async (t) => {
  const rec = recorder();
  const cache = blobCache(1000, rec);
  t.equal(rec.bytesNow, 0, 'bytes reported from creation');
  t.same(rec.inFlightSeen, [0], 'in-flight reported from creation');
  const gate = deferred<Blob>();
  const gets = [cache.get('k', () => gate.promise), cache.get('k', () => gate.promise), cache.get('k', () => gate.promise)];
  gate.resolve({ id: 'k', bytes: 12 });
  await Promise.all(gets);
  await cache.get('k', blob('k', 12));
  t.same(rec.counts, { hit: 1, miss: 1, coalesced: 2, evicted: 0 });
  t.same(rec.inFlightSeen, [0, 1, 0]);
  t.equal(rec.bytesNow, 12);
  cache.delete('k');
  t.equal(rec.bytesNow, 0, 'delete is reported');
  t.equal(rec.counts.evicted, 0, 'a delete is not an eviction');
});

t.test('bad sizes and bounds are programming errors', async (t) => {
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return isIcefrontError(err) ? err.code : String(err);
    }
    return 'no error';
  };
  t.equal(code(() => blobCache(-1)), 'INTERNAL');
  t.equal(code(() => blobCache(1.5)), 'INTERNAL');
  const cache = createComputeCache<number>({ maxBytes: 100, sizeOf: () => Number.NaN, name: 'bad' });
  const err = await cache.get('k', async () => 1).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.equal(isIcefrontError(err) ? err.code : String(err), 'INTERNAL');
  const fractional = createComputeCache<number>({ maxBytes: 100, sizeOf: () => 0.2, name: 'tiny' });
  await fractional.get('k', async () => 1);
  t.equal(fractional.bytes, 1, 'a size under one byte counts as one');
});

t.test('a computation that fails after its only caller gave up leaves no unhandled rejection', async (t) => {
  const cache = blobCache(1000);
  const gate = deferred<Blob>();
  const quitter = new AbortController();
  const abandoned = cache.get('k', () => gate.promise, { signal: quitter.signal });
  quitter.abort(new Error('bye'));
  await t.rejects(abandoned, { message: 'bye' });
  gate.reject(new Error('late failure'));
  await new Promise((r) => setImmediate(r));
  t.equal(cache.inFlight, 0);
  t.equal(cache.peek('k'), undefined);
});

t.test('store: false coalesces and serves a stored value but keeps nothing new', async (t) => {
  const cache = blobCache(1000);
  const gate = deferred<Blob>();
  let calls = 0;
  const compute = () => (calls++, gate.promise);
  const both = Promise.all([cache.get('a', compute, { store: false }), cache.get('a', compute, { store: false })]);
  gate.resolve({ id: 'a', bytes: 10 });
  const [x, y] = await both;
  t.equal(x, y, 'two callers, one value');
  t.equal(calls, 1, 'one computation');
  t.equal(cache.peek('a'), undefined, 'nothing stored');
  t.equal(cache.bytes, 0);
  await cache.get('b', blob('b', 10));
  const stored = await cache.get('b', blob('b2', 10), { store: false });
  t.equal(stored.id, 'b', 'a stored value is still served');
  t.equal(cache.maxBytes, 1000);
});

t.test('a value nobody reads for idleMs is dropped, a value read meanwhile stays', async (t) => {
  let clock = 1000; // lru-cache reads a start time of 0 as "no time recorded"
  const metrics = recorder();
  const cache = createComputeCache<Blob>({ maxBytes: 1000, sizeOf: (b) => b.bytes, name: 'blobs', metrics, idleMs: 60_000, now: () => clock });
  await cache.get('read', blob('read', 100));
  await cache.get('idle', blob('idle', 200));
  t.equal(cache.bytes, 300);
  clock += 40_000;
  await cache.get('read', blob('read again', 100)); // read: its idle time starts over
  clock += 30_000; // 'idle' unread for 70 s, 'read' for 30 s
  await cache.get('other', blob('other', 50)); // any use of the cache sweeps
  t.equal(cache.peek('idle'), undefined, 'unread past idleMs: dropped');
  t.same(cache.peek('read'), { id: 'read', bytes: 100 }, 'read within idleMs: kept, not recomputed');
  t.equal(cache.bytes, 150);
  t.equal(metrics.bytesNow, 150, 'the gauge follows');
  t.equal(metrics.counts.evicted, 0, 'an idle value dropped is not an eviction (the budget did not push it out)');
  const again = counting(() => ({ id: 'idle', bytes: 200 }));
  await cache.get('idle', again.compute);
  t.equal(again.calls, 1, 'a dropped value is computed again when asked for');
});

t.test('without idleMs a value stays however long nobody reads it', async (t) => {
  let clock = 1000;
  const cache = createComputeCache<Blob>({ maxBytes: 1000, sizeOf: (b) => b.bytes, name: 'blobs', now: () => clock });
  await cache.get('a', blob('a', 100));
  clock += 10 * 24 * 3600_000;
  await cache.get('b', blob('b', 100));
  t.same(cache.peek('a'), { id: 'a', bytes: 100 });
});
