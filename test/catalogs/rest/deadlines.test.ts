import t from 'tap';
import { Deadlines } from '../../../src/catalogs/rest/deadlines.js';

t.test('an exchange still running at its slot deadline is aborted, with its listener called once', async (t) => {
  const deadlines = new Deadlines(30);
  const signal = deadlines.begin();
  let calls = 0;
  signal.addEventListener('abort', () => calls++);
  await new Promise((r) => setTimeout(r, 80));
  t.equal(signal.aborted, true);
  t.equal(calls, 1);
  t.type(signal.reason, Error);
});

t.test('an exchange ended before its deadline is never aborted; others of its slot still are', async (t) => {
  const deadlines = new Deadlines(30);
  const ended = deadlines.begin();
  const running = deadlines.begin();
  t.equal(ended.slot, running.slot, 'requests that start together share a slot (one timer)');
  let endedCalls = 0;
  ended.addEventListener('abort', () => endedCalls++);
  deadlines.end(ended);
  await new Promise((r) => setTimeout(r, 80));
  t.equal(ended.aborted, false);
  t.equal(endedCalls, 0);
  t.equal(running.aborted, true);
});

t.test('a listener removed (undici does so when the exchange completes) is not called', async (t) => {
  const deadlines = new Deadlines(20);
  const signal = deadlines.begin();
  let calls = 0;
  signal.addEventListener('abort', () => calls++);
  signal.removeEventListener();
  await new Promise((r) => setTimeout(r, 60));
  t.equal(calls, 0);
});
