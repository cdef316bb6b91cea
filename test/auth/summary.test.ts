import t from 'tap';
import { describeAuth } from '../../src/auth/index.js';
import type { RestCatalogConfig } from '../../src/config/index.js';
import { authConfig, configWith } from '../helpers/auth-config.js';
import { demoCatalog } from '../service/planning/helpers.js';

const lending: RestCatalogConfig = {
  type: 'rest', name: 'up', uri: 'http://127.0.0.1:1', planning: 'auto', auth: { mode: 'bearer', token: 'x' }, connectTimeoutMs: 1, requestTimeoutMs: 1,
};

t.test('without an auth block the start-up message says every caller is trusted, and what that lends', async (t) => {
  const [line] = describeAuth(configWith([demoCatalog('demo'), lending], undefined));
  t.match(line, /^Authentication is OFF .*every caller .* is trusted with every catalog, including Icefront's own upstream identity for up\.$/);
  t.match(describeAuth(configWith([demoCatalog('demo')], undefined))[0], /trusted with every catalog\.$/);
});

t.test('with one, it says how callers prove who they are and who may read /metrics', async (t) => {
  const lines = describeAuth(configWith([demoCatalog('demo')], authConfig()));
  t.match(lines[0], /^Authentication is on: bearer tokens only \(6 static tokens\); 4 allow rules, no match is a 403\.$/);
  t.equal(lines[1], '/metrics and the status page (/) are for roles: ops.');
  t.equal(describeAuth(configWith([demoCatalog('demo')], authConfig({ adminRoles: [] })))[1], '/metrics and the status page (/) are refused to every caller (no auth.admin-roles).');
});
