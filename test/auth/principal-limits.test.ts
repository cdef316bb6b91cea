import t from 'tap';
import { PrincipalLimits, type Principal } from '../../src/auth/index.js';
import { isIcefrontError } from '../../src/errors/index.js';

const alice: Principal = { name: 'alice', roles: [], via: 'token' };
const bob: Principal = { name: 'bob', roles: [], via: 'token' };

function refused(f: () => unknown): { status: number; retryAfter: number | undefined } | undefined {
  try {
    f();
    return undefined;
  } catch (err) {
    if (!isIcefrontError(err, 'RATE_LIMITED')) throw err;
    return { status: err.status, retryAfter: err.retryAfterSeconds };
  }
}

t.test('requests-per-second with a burst: a bucket per principal that refills with time', async (t) => {
  let now = 0;
  const limits = new PrincipalLimits({ requestsPerSecond: 2, burst: 3 }, () => now);
  for (let i = 0; i < 3; i++) t.notOk(refused(() => limits.admit(alice)()), `alice's request ${i + 1} of the burst`);
  t.same(refused(() => limits.admit(alice)), { status: 429, retryAfter: 1 }, 'the fourth at once: 429, Retry-After 1 s');
  t.notOk(refused(() => limits.admit(bob)()), 'bob has a bucket of his own');
  now = 500;
  t.notOk(refused(() => limits.admit(alice)()), 'half a second later one request has refilled (2/s)');
  t.ok(refused(() => limits.admit(alice)), 'and only one');
  now = 10_000;
  for (let i = 0; i < 3; i++) t.notOk(refused(() => limits.admit(alice)()), 'a quiet spell refills up to the burst');
  t.ok(refused(() => limits.admit(alice)), 'not beyond it');
});

t.test('a slow rate asks for a longer wait; burst defaults to one second’s worth', async (t) => {
  let now = 0;
  const limits = new PrincipalLimits({ requestsPerSecond: 0.2 }, () => now);
  t.notOk(refused(() => limits.admit(alice)()), 'the first request (the default burst is one second’s worth, but at least one request)');
  const r = refused(() => limits.admit(alice));
  t.ok(r && r.retryAfter !== undefined && r.retryAfter >= 4 && r.retryAfter <= 5, `Retry-After ≈ 5 s at 0.2/s (${r?.retryAfter})`);
});

t.test('max-in-flight counts requests until they end; ending twice frees one place', async (t) => {
  const limits = new PrincipalLimits({ maxInFlight: 2 });
  const a = limits.admit(alice);
  const b = limits.admit(alice);
  t.same(refused(() => limits.admit(alice)), { status: 429, retryAfter: 1 }, 'a third at once: 429');
  t.notOk(refused(() => limits.admit(bob)()), 'another principal is not affected');
  a();
  a();
  const c = limits.admit(alice);
  t.ok(refused(() => limits.admit(alice)), 'an end called twice freed one place only');
  b();
  c();
});
