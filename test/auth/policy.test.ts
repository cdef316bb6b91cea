import t from 'tap';
import { AccessPolicy, type Principal } from '../../src/auth/index.js';
import type { AllowRule } from '../../src/config/index.js';

const rule = (r: Partial<AllowRule> & Pick<AllowRule, 'catalogs'>): AllowRule => ({ principals: [], roles: [], access: 'read', ...r });
const who = (name: string, ...roles: string[]): Principal => ({ name, roles, via: 'token' });

const RULES: AllowRule[] = [
  rule({ roles: ['analyst'], catalogs: ['demo'], namespaces: [['sales'], ['events', 'web']] }),
  rule({ principals: ['admin'], catalogs: ['*'], access: 'write' }),
  rule({ principals: ['writer'], catalogs: ['demo'], namespaces: [['sales', 'eu']], access: 'write' }),
  rule({ principals: ['*'], catalogs: ['public'] }),
];
const policy = new AccessPolicy(RULES, ['ops']);

t.test('a namespace rule reaches that namespace and everything below it, nothing beside or above it', async (t) => {
  const analyst = who('ann', 'analyst');
  const cases: [readonly string[], boolean][] = [
    [['sales'], true],
    [['sales', 'eu'], true],
    [['sales', 'eu', 'deep'], true],
    [['events', 'web'], true],
    [['events', 'web', 'x'], true],
    [['events'], false],
    [['events', 'mobile'], false],
    [['salesforce'], false],
    [['legacy'], false],
    [[], false],
  ];
  for (const [ns, expected] of cases) t.equal(policy.allows(analyst, 'demo', ns, 'read'), expected, `read ${ns.join('.') || '(catalog root)'}`);
  t.notOk(policy.allows(analyst, 'other', ['sales'], 'read'), 'another catalog');
  t.notOk(policy.allows(analyst, 'demo', ['sales'], 'write'), 'read rules do not allow writes');
  t.notOk(policy.allows(who('ann'), 'demo', ['sales'], 'read'), 'without the role');
});

t.test('namespaces on the path to a readable one are visible, others are not', async (t) => {
  const analyst = who('ann', 'analyst');
  t.ok(policy.sees(analyst, 'demo', []), 'the catalog root');
  t.ok(policy.sees(analyst, 'demo', ['events']), 'an ancestor of events.web');
  t.ok(policy.sees(analyst, 'demo', ['events', 'web', 'x']), 'below a readable namespace');
  t.notOk(policy.sees(analyst, 'demo', ['events', 'mobile']), 'a sibling on the way');
  t.notOk(policy.sees(analyst, 'demo', ['legacy']));
  t.ok(policy.seesCatalog(analyst, 'demo'));
  t.notOk(policy.seesCatalog(analyst, 'other'));
});

t.test('write rules, wildcards, and which rule decided', async (t) => {
  const admin = who('admin');
  t.ok(policy.allows(admin, 'anything', [], 'write'), 'principal rule on every catalog, the whole catalog');
  t.equal(policy.ruleFor(admin, 'demo', ['sales'], 'read'), 1, 'a write rule allows reads');
  const writer = who('writer', 'analyst');
  t.equal(policy.ruleFor(writer, 'demo', ['sales', 'eu'], 'read'), 0, 'first match wins: the analyst rule decides a read');
  t.equal(policy.ruleFor(writer, 'demo', ['sales', 'eu'], 'write'), 2, 'a rule only matches an access it covers');
  t.equal(policy.ruleFor(writer, 'demo', ['sales'], 'write'), undefined, 'not above its namespace');
  t.ok(policy.writesSomewhere(writer, 'demo'));
  t.notOk(policy.writesSomewhere(who('ann', 'analyst'), 'demo'));
  t.ok(policy.allows(who('anyone'), 'public', ['x'], 'read'), 'principals: ["*"] is any authenticated caller');
  t.notOk(policy.allows(who('anyone'), 'public', ['x'], 'write'));
});

t.test('admin is a role, and only a role', async (t) => {
  t.ok(policy.isAdmin(who('x', 'ops')));
  t.notOk(policy.isAdmin(who('admin')), 'a principal named admin is not an operator');
  t.notOk(new AccessPolicy(RULES, []).isAdmin(who('x', 'ops')), 'no admin roles: nobody');
});

t.test('no rules: nothing is allowed', async (t) => {
  const none = new AccessPolicy([], []);
  t.notOk(none.allows(who('admin'), 'demo', [], 'read'));
  t.notOk(none.sees(who('admin'), 'demo', []));
  t.notOk(none.seesCatalog(who('admin'), 'demo'));
});
