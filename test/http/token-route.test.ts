/**
 * POST /v1/oauth/tokens relayed to auth.jwt.token-endpoint: a client with a `credential` and no
 * `oauth2-server-uri` of its own (Java's and pyiceberg's default is {uri}/v1/oauth/tokens) gets
 * the provider's token through Icefront, and that token then opens Icefront. A real provider on
 * loopback (test/helpers/identity-provider.ts) signs the JWTs.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildIcefront } from '../../src/main.js';
import { authConfig, configWith } from '../helpers/auth-config.js';
import { startIdentityProvider } from '../helpers/identity-provider.js';
import { logLines } from '../helpers/log-lines.js';
import { createLogger } from '../../src/observability/index.js';
import { demoCatalog } from '../service/planning/helpers.js';
import { assertError } from './assertions.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

t.test('the token route relays to the provider; its token opens Icefront; nothing of it is logged', async (t) => {
  const idp = await startIdentityProvider({ spark: { secret: 's3cr3t-value-9f2', sub: 'etl-job', groups: ['analyst'] } });
  const { lines, destination } = logLines();
  const auth = authConfig({ jwt: idp.config({ tokenEndpoint: idp.tokenEndpoint }) });
  const { app } = buildIcefront(configWith([demoCatalog('demo')], auth), { logger: createLogger({ level: 'debug', destination }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  t.teardown(async () => {
    await app.close();
    await idp.close();
  });

  const grant = (body: string, headers: Record<string, string> = {}) => fetch(`${base}/v1/oauth/tokens`, { method: 'POST', headers: { ...FORM, ...headers }, body });
  const res = await grant('grant_type=client_credentials&client_id=spark&client_secret=s3cr3t-value-9f2&scope=catalog');
  t.equal(res.status, 200, 'client credentials in the form: 200');
  t.equal(res.headers.get('cache-control'), 'no-store', 'RFC 6749 §5.1: no-store');
  const token = (await res.json()) as { access_token: string; token_type: string };
  t.equal(token.token_type, 'Bearer');
  t.same(idp.tokenRequests.at(-1), { grant_type: 'client_credentials', client_id: 'spark', client_secret: 's3cr3t-value-9f2', scope: 'catalog' }, 'the provider got the form as sent');
  const config = await fetch(`${base}/v1/config?warehouse=demo`, { headers: { authorization: `Bearer ${token.access_token}` } });
  t.equal(config.status, 200, 'the provider’s token opens /v1/config (etl-job has role analyst)');
  t.equal(((await config.json()) as { defaults: Record<string, string> }).defaults['oauth2-server-uri'], idp.tokenEndpoint, 'which advertises the provider');

  const basic = Buffer.from('spark:s3cr3t-value-9f2').toString('base64');
  t.equal((await grant('grant_type=client_credentials&scope=catalog', { authorization: `Basic ${basic}` })).status, 200, 'client_secret_basic (RFC 6749 §2.3.1) passes too');

  const wrong = await grant('grant_type=client_credentials&client_id=spark&client_secret=nope');
  t.equal(wrong.status, 401, 'a wrong secret: the provider’s 401');
  t.same(await wrong.json(), { error: 'invalid_client', error_description: 'unknown client or wrong secret' }, 'its RFC 6749 §5.2 error, as sent (clients parse it)');

  await idp.close();
  assertError(t, await app.inject({ method: 'POST', url: '/v1/oauth/tokens', headers: FORM, payload: 'grant_type=client_credentials' }), 503, 'ServiceUnavailableException', 'a provider that is gone: 503');
  const text = JSON.stringify(lines);
  t.notOk(text.includes('s3cr3t-value-9f2') || text.includes(basic) || text.includes(token.access_token), 'neither the secret nor the token reaches a log line');
});

t.test('without a token endpoint the route still refuses with 406', async (t) => {
  const { app } = buildIcefront(configWith([demoCatalog('demo')], authConfig()));
  t.teardown(() => app.close());
  assertError(t, await app.inject({ method: 'POST', url: '/v1/oauth/tokens', headers: FORM, payload: 'grant_type=client_credentials' }), 406, 'UnsupportedOperationException');
});
