import t from 'tap';
import { singleFlight } from '../../src/cache/index.js';

t.test('concurrent runs of one key share a computation; after it settles the next run computes again', async (t) => {
  const flights = singleFlight<{ call: number }>({ name: 'sf' });
  let calls = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const compute = async () => {
    await gate;
    return { call: ++calls };
  };
  const runs = [flights.run('k', compute), flights.run('k', compute), flights.run('other', compute)];
  t.equal(flights.inFlight, 2, 'one flight per key');
  release();
  const [a, b, other] = await Promise.all(runs);
  t.equal(a, b, 'the two runs of k share one value');
  t.not(other, a, 'another key computes on its own');
  t.equal(calls, 2);
  t.equal(flights.inFlight, 0);
  await flights.run('k', compute);
  t.equal(calls, 3, 'nothing is stored');
});

t.test('a rejection reaches every joined run and is not reused', async (t) => {
  const flights = singleFlight<number>({ name: 'sf' });
  let calls = 0;
  const failing = async () => {
    calls++;
    await Promise.resolve();
    throw new Error('nope');
  };
  const outcomes = await Promise.allSettled([flights.run('k', failing), flights.run('k', failing)]);
  t.same(
    outcomes.map((o) => o.status),
    ['rejected', 'rejected'],
  );
  t.equal(calls, 1);
  t.equal(await flights.run('k', async () => 42), 42, 'the next run starts fresh');
});
