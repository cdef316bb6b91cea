import t from 'tap';
import { Turns } from '../../src/cache/index.js';

/** A run that records when it starts and ends, and ends when told. */
function recorder() {
  const events: string[] = [];
  const gates = new Map<string, () => void>();
  const work = (name: string, fails = false) => async () => {
    events.push(`start ${name}`);
    await new Promise<void>((resolve) => gates.set(name, resolve));
    events.push(`end ${name}`);
    if (fails) throw new Error(`${name} failed`);
    return name;
  };
  const open = async (name: string) => {
    for (let i = 0; i < 20 && !gates.has(name); i++) await new Promise((r) => setImmediate(r));
    gates.get(name)!();
  };
  return { events, work, open };
}

t.test('runs on one key go one at a time, in arrival order, and a failure passes the turn on', async (t) => {
  const turns = new Turns();
  const { events, work, open } = recorder();
  const a = turns.run(['t'], work('a', true));
  const b = turns.run(['t'], work('b'));
  const c = turns.run(['t'], work('c'));
  await open('a');
  await t.rejects(a, /a failed/);
  await open('b');
  await open('c');
  t.same(await Promise.all([b, c]), ['b', 'c']);
  t.same(events, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  await new Promise((r) => setImmediate(r));
  t.equal(turns.busy, 0, 'nothing is held once every run is over');
});

t.test('runs on other keys go at once; a run on several keys waits for each earlier holder and never for a later one', async (t) => {
  const turns = new Turns();
  const { events, work, open } = recorder();
  const x = turns.run(['x'], work('x'));
  const y = turns.run(['y'], work('y'));
  const xy = turns.run(['y', 'x', 'y'], work('xy'));
  const yx = turns.run(['x', 'y'], work('yx'));
  await new Promise((r) => setImmediate(r));
  t.same(events, ['start x', 'start y'], 'x and y run together; both transactions wait');
  await open('y');
  await new Promise((r) => setImmediate(r));
  t.notOk(events.includes('start xy'), 'xy still waits for x');
  await open('x');
  await open('xy');
  await open('yx');
  await Promise.all([x, y, xy, yx]);
  t.same(events.slice(-4), ['start xy', 'end xy', 'start yx', 'end yx'], 'the transactions took their turns in arrival order, with no deadlock');
});
