import path from 'node:path';
import t from 'tap';
import { parseConfig } from '../../src/config/index.js';
import { isIcefrontError } from '../../src/errors/index.js';

const CATALOGS = 'catalogs:\n  demo: {type: filesystem, warehouse: w}\n';
const SHA = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

function configError(text: string): string {
  try {
    parseConfig(text, '/etc/icefront/c.yaml');
  } catch (err) {
    if (isIcefrontError(err, 'CONFIG_INVALID')) return err.message;
    throw err;
  }
  throw new Error('expected a CONFIG_INVALID error');
}

t.test('without an auth block, authentication is off', async (t) => {
  t.equal(parseConfig(CATALOGS, 'c.yaml').auth, undefined);
});

t.test('the contract shape loads, with every default filled in', async (t) => {
  const text = `${CATALOGS}auth:
  tokens:
    - { sha256: "${SHA.toUpperCase()}", principal: alice, roles: [analyst] }
    - { sha256: "${'a'.repeat(64)}", principal: scraper }
  jwt:
    jwks-uri: https://idp.example/jwks.json
    issuer: https://idp.example
    audience: icefront
    roles-claim: groups
  allow:
    - { roles: [analyst], catalogs: [demo], namespaces: [sales, sales.eu, [odd.name, x]] }
    - { principals: [admin], catalogs: ["*"], access: write }
  admin-roles: [ops]
`;
  const auth = parseConfig(text, '/etc/icefront/c.yaml').auth!;
  t.same(auth.tokens, [
    { sha256: SHA, principal: 'alice', roles: ['analyst'] },
    { sha256: 'a'.repeat(64), principal: 'scraper', roles: [] },
  ], 'hashes lowercased; roles default to none');
  t.same(auth.jwt, {
    jwksUri: 'https://idp.example/jwks.json',
    issuer: 'https://idp.example',
    audience: ['icefront'],
    principalClaim: 'sub',
    rolesClaim: 'groups',
    algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'],
    clockToleranceSeconds: 30,
    jwksTimeoutMs: 5000,
    jwksCacheMs: 600000,
  });
  t.same(auth.allow, [
    { principals: [], roles: ['analyst'], catalogs: ['demo'], namespaces: [['sales'], ['sales', 'eu'], ['odd.name', 'x']], access: 'read' },
    { principals: ['admin'], roles: [], catalogs: ['*'], access: 'write' },
  ], 'a dotted string is levels; a list keeps dots inside a level; access defaults to read; no namespaces means the whole catalog');
  t.same(auth.adminRoles, ['ops']);
  t.ok(Object.isFrozen(auth) && Object.isFrozen(auth.allow[0]) && Object.isFrozen(auth.jwt), 'frozen');
});

t.test('auth.limits: per-principal rate, burst and in-flight bounds; none when absent; nonsense refused', async (t) => {
  const base = `${CATALOGS}auth:\n  tokens: [{ sha256: "${SHA}", principal: alice }]\n`;
  t.equal(parseConfig(base, 'c.yaml').auth!.limits, undefined, 'no limits block: unbounded');
  const auth = parseConfig(`${base}  limits: { requests-per-second: 50, burst: 100, max-in-flight: 8 }\n`, 'c.yaml').auth!;
  t.same(auth.limits, { requestsPerSecond: 50, burst: 100, maxInFlight: 8 });
  t.same(parseConfig(`${base}  limits: { requests-per-second: 0.5 }\n`, 'c.yaml').auth!.limits, { requestsPerSecond: 0.5 }, 'a fractional rate');
  for (const bad of ['{ requests-per-second: 0 }', '{ burst: 0 }', '{ max-in-flight: 1.5 }', '{ per-minute: 5 }']) {
    t.throws(() => parseConfig(`${base}  limits: ${bad}\n`, 'c.yaml'), { code: 'CONFIG_INVALID' }, bad);
  }
});

t.test('a public key file resolves beside the config file; the token endpoint is kept', async (t) => {
  const text = `${CATALOGS}auth:\n  jwt: { public-key-file: ./idp.pem, issuer: i, audience: [a, b], token-endpoint: "https://idp.example/token" }\n`;
  const jwt = parseConfig(text, '/etc/icefront/c.yaml').auth!.jwt!;
  t.equal(jwt.publicKeyFile, path.resolve('/etc/icefront/idp.pem'));
  t.same(jwt.audience, ['a', 'b']);
  t.equal(jwt.tokenEndpoint, 'https://idp.example/token');
  t.same(parseConfig(text, '/etc/icefront/c.yaml').auth!.allow, [], 'no rules: nobody may read a catalog');
});

t.test('a JWKS over plain http is accepted only from this machine', async (t) => {
  for (const host of ['127.0.0.1:8080', 'localhost', '[::1]:9000']) {
    const text = `${CATALOGS}auth:\n  jwt: { jwks-uri: "http://${host}/jwks", issuer: i, audience: a }\n`;
    t.equal(parseConfig(text, 'c.yaml').auth!.jwt!.jwksUri, `http://${host}/jwks`, host);
  }
  t.match(configError(`${CATALOGS}auth:\n  jwt:\n    jwks-uri: http://idp.example/jwks\n    issuer: i\n    audience: a\n`), /^\/etc\/icefront\/c\.yaml:5: auth\.jwt\.jwks-uri: must be https/);
});

t.test('the token endpoint Icefront relays clients’ credentials to: https, or plain http on this machine', async (t) => {
  const jwt = (endpoint: string) => `${CATALOGS}auth:\n  jwt: { jwks-uri: "https://idp.example/jwks", issuer: i, audience: a, token-endpoint: "${endpoint}" }\n`;
  t.equal(parseConfig(jwt('http://127.0.0.1:9000/token'), 'c.yaml').auth!.jwt!.tokenEndpoint, 'http://127.0.0.1:9000/token');
  t.equal(parseConfig(jwt('https://idp.example/token'), 'c.yaml').auth!.jwt!.tokenEndpoint, 'https://idp.example/token');
  t.throws(() => parseConfig(jwt('http://idp.example/token'), 'c.yaml'), { code: 'CONFIG_INVALID', message: /token-endpoint: must be https/ });
});

t.test('mistakes in the auth block name the key and its line', async (t) => {
  const cases: [string, RegExp][] = [
    ['auth:\n  allow: []\n', /c\.yaml:\d+: auth: needs tokens or jwt/],
    ['auth:\n  jwt: { issuer: i, audience: a }\n', /auth\.jwt: needs exactly one of jwks-uri and public-key-file/],
    ['auth:\n  jwt: { issuer: i, audience: a, jwks-uri: "https://x/j", public-key-file: k.pem }\n', /auth\.jwt: needs exactly one/],
    ['auth:\n  jwt: { issuer: i, jwks-uri: "https://x/j" }\n', /auth\.jwt\.audience: is required/],
    ['auth:\n  jwt: { issuer: i, audience: a, jwks-uri: "https://x/j", algorithms: [HS256] }\n', /auth\.jwt\.algorithms\.0: must be one of RS256/],
    ['auth:\n  jwt: { issuer: i, audience: a, jwks-uri: "https://x/j", algorithms: [none] }\n', /auth\.jwt\.algorithms\.0: must be one of/],
    [`auth:\n  tokens:\n    - { sha256: "abc", principal: a }\n`, /c\.yaml:5: auth\.tokens\.0\.sha256: /],
    [`auth:\n  tokens:\n    - { sha256: "${SHA}", principal: a }\n    - { sha256: "${SHA}", principal: b }\n`, /c\.yaml:6: auth\.tokens\.1\.sha256: the same token is listed twice/],
    [`auth:\n  tokens: [{ sha256: "${SHA}", principal: a }]\n  allow:\n    - { catalogs: [demo] }\n`, /c\.yaml:6: auth\.allow\.0: names nobody/],
    [`auth:\n  tokens: [{ sha256: "${SHA}", principal: a }]\n  allow:\n    - { roles: [r], catalogs: [demo], namespaces: ["*"] }\n`, /auth\.allow\.0\.namespaces\.0: has an empty or "\*" level/],
    [`auth:\n  tokens: [{ sha256: "${SHA}", principal: a }]\n  allow:\n    - { roles: [r], catalogs: [demo], namespaces: ["a..b"] }\n`, /auth\.allow\.0\.namespaces\.0: has an empty/],
    [`auth:\n  tokens: [{ sha256: "${SHA}", principal: a }]\n  allow:\n    - { roles: [r], catalogs: [demo], access: admin }\n`, /auth\.allow\.0\.access: must be one of read, write/],
    [`auth:\n  tokens: [{ sha256: "${SHA}", principal: a }]\n  allow:\n    - { roles: [r], catalogs: [demo], catalog: [demo] }\n`, /auth\.allow\.0\.catalog: unknown key/],
    [`auth:\n  tokens: [{ sha256: "${SHA}", principal: a }]\n  admin-role: ops\n`, /auth\.admin-role: unknown key/],
  ];
  for (const [auth, expected] of cases) t.match(configError(`${CATALOGS}${auth}`), expected, auth.replace(/\n/g, ' '));
});

t.test('secrets in the auth block come from the environment', async (t) => {
  const text = `${CATALOGS}auth:\n  tokens:\n    - { sha256: "\${ALICE_SHA}", principal: alice }\n`;
  t.equal(parseConfig(text, 'c.yaml', { ALICE_SHA: SHA }).auth!.tokens[0]!.sha256, SHA);
});
