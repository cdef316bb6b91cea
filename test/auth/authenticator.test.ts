import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportPKCS8, generateKeyPair } from 'jose';
import t, { type Test } from 'tap';
import { createAuthenticator, type Authenticator } from '../../src/auth/index.js';
import type { AuthConfig } from '../../src/config/index.js';
import { isIcefrontError } from '../../src/errors/index.js';
import { startIdentityProvider, type IdentityProvider } from '../helpers/identity-provider.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const ALICE = 'alice-static-token-0123456789';

function authConfig(extra: Partial<AuthConfig> = {}): AuthConfig {
  return { tokens: [{ sha256: sha(ALICE), principal: 'alice', roles: ['analyst'] }], allow: [], adminRoles: [], ...extra };
}

/** The IcefrontError code a rejected authentication carries (and that its message does not quote `secret`). */
async function refusal(t: Test, auth: Authenticator, header: string | undefined, secret = header): Promise<string> {
  try {
    await auth.authenticate(header);
  } catch (err) {
    if (!isIcefrontError(err)) throw err;
    if (secret) t.notOk(err.message.includes(secret.replace(/^Bearer /i, '')), 'the message does not echo the token');
    return err.code;
  }
  throw new Error('expected the credential to be refused');
}

t.test('static tokens', async (t) => {
  const auth = createAuthenticator(authConfig());
  t.same(await auth.authenticate(`Bearer ${ALICE}`), { name: 'alice', roles: ['analyst'], via: 'token' });
  t.same((await auth.authenticate(`bearer  ${ALICE}`)).name, 'alice', 'the scheme in any case, more than one space');
  t.equal(await refusal(t, auth, undefined), 'CREDENTIALS_MISSING', 'no header');
  t.equal(await refusal(t, auth, '   '), 'CREDENTIALS_MISSING', 'an empty header');
  t.equal(await refusal(t, auth, `Bearer ${ALICE}x`), 'CREDENTIALS_INVALID', 'one character more');
  t.equal(await refusal(t, auth, `Bearer ${ALICE.slice(0, -1)}`), 'CREDENTIALS_INVALID', 'one character less');
  t.equal(await refusal(t, auth, `Basic ${Buffer.from(`alice:${ALICE}`).toString('base64')}`, ALICE), 'CREDENTIALS_INVALID', 'another scheme');
  t.equal(await refusal(t, auth, `Bearer ${ALICE} extra`), 'CREDENTIALS_INVALID', 'two tokens');
  t.equal(await refusal(t, auth, `Bearer ${'a'.repeat(20000)}`), 'CREDENTIALS_INVALID', 'a huge token');
  t.equal(await refusal(t, auth, 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'), 'CREDENTIALS_INVALID', 'a JWT when no jwt block is configured');
});

t.test('JWTs verified against a JWKS served on loopback', async (t) => {
  const idp = await startIdentityProvider();
  t.teardown(() => idp.close());
  const auth = createAuthenticator(authConfig({ jwt: idp.config() }));

  await t.test('a valid token names its subject and groups', async (t) => {
    const token = await idp.sign({ sub: 'bob', groups: ['analyst', 'ops', 7] });
    t.same(await auth.authenticate(`Bearer ${token}`), { name: 'bob', roles: ['analyst', 'ops'], via: 'jwt' });
    t.same((await auth.authenticate(`Bearer ${ALICE}`)).name, 'alice', 'static tokens still work beside JWTs');
  });

  await t.test('the JWKS is fetched once and cached', async (t) => {
    const before = idp.fetches;
    for (let i = 0; i < 5; i++) await auth.authenticate(`Bearer ${await idp.sign({ sub: `u${i}` })}`);
    t.equal(idp.fetches, before);
  });

  await t.test('every forgery and every mismatch is a 401', async (t) => {
    const stranger = await generateKeyPair('RS256');
    const hmacWithPublicKey = new TextEncoder().encode(idp.publicPem);
    const cases: [string, Promise<string> | string][] = [
      ['expired', idp.sign({ sub: 'bob' }, { expiresIn: -600 })],
      ['wrong issuer', idp.sign({ sub: 'bob' }, { issuer: 'https://evil.example' })],
      ['wrong audience', idp.sign({ sub: 'bob' }, { audience: 'another-service' })],
      ['alg none', idp.unsigned({ sub: 'bob' })],
      ['HS256 with the public key as the secret', idp.sign({ sub: 'bob' }, { alg: 'HS256', key: hmacWithPublicKey })],
      ['unknown kid', idp.sign({ sub: 'bob' }, { kid: 'key-9', key: stranger.privateKey })],
      ["a stranger's key under the provider's kid", idp.sign({ sub: 'bob' }, { key: stranger.privateKey })],
      ['no subject', idp.sign({ groups: ['analyst'] })],
      ['an empty subject', idp.sign({ sub: '' })],
      ['tampered claims', idp.sign({ sub: 'bob' }).then((jwt) => {
        const [h, , s] = jwt.split('.');
        return `${h}.${Buffer.from(JSON.stringify({ sub: 'admin', iss: 'https://idp.test', aud: 'icefront', exp: 4102444800 })).toString('base64url')}.${s}`;
      })],
    ];
    for (const [what, pending] of cases) {
      const token = await pending;
      t.equal(await refusal(t, auth, `Bearer ${token}`), 'CREDENTIALS_INVALID', what);
    }
  });

  await t.test('a token without exp is refused', async (t) => {
    t.equal(await refusal(t, auth, `Bearer ${await idp.sign({ sub: 'bob' }, { expiresIn: null })}`), 'CREDENTIALS_INVALID');
  });

  await t.test('roles from a space-separated claim, or a nested one', async (t) => {
    const spaced = createAuthenticator(authConfig({ jwt: idp.config({ rolesClaim: 'scope' }) }));
    t.same((await spaced.authenticate(`Bearer ${await idp.sign({ sub: 'c', scope: 'read  write' })}`)).roles, ['read', 'write']);
    const nested = createAuthenticator(authConfig({ jwt: idp.config({ rolesClaim: 'realm_access.roles', principalClaim: 'preferred_username' }) }));
    const who = await nested.authenticate(`Bearer ${await idp.sign({ sub: 'uuid-1', preferred_username: 'carol', realm_access: { roles: ['ops'] } })}`);
    t.same(who, { name: 'carol', roles: ['ops'], via: 'jwt' });
  });

  await t.test('a provider whose keys cannot be fetched is a 503, not a 401', async (t) => {
    const fresh = createAuthenticator(authConfig({ jwt: idp.config() }));
    idp.down = true;
    t.teardown(() => {
      idp.down = false;
    });
    t.equal(await refusal(t, fresh, `Bearer ${await idp.sign({ sub: 'bob' })}`), 'IDENTITY_PROVIDER_UNAVAILABLE');
  });
});

t.test('JWTs verified against a PEM public key file', async (t) => {
  const idp: IdentityProvider = await startIdentityProvider();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-auth-'));
  t.teardown(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await idp.close();
  });
  const pem = path.join(dir, 'idp.pem');
  fs.writeFileSync(pem, idp.publicPem);
  const { jwksUri: _unused, ...fileConfig } = idp.config({ publicKeyFile: pem });
  const auth = createAuthenticator(authConfig({ jwt: fileConfig }));
  const fetched = idp.fetches;
  t.same((await auth.authenticate(`Bearer ${await idp.sign({ sub: 'dave' })}`)).name, 'dave');
  t.equal(idp.fetches, fetched, 'no JWKS request');
  t.equal(await refusal(t, auth, `Bearer ${await idp.sign({ sub: 'x' }, { alg: 'HS256', key: new TextEncoder().encode(idp.publicPem) })}`), 'CREDENTIALS_INVALID', 'HS256 with the PEM as secret');
  t.equal(await refusal(t, auth, `Bearer ${await idp.sign({ sub: 'x' }, { expiresIn: -600 })}`), 'CREDENTIALS_INVALID', 'expired');

  const key = path.join(dir, 'private.pem');
  fs.writeFileSync(key, await exportPKCS8((await generateKeyPair('RS256', { extractable: true })).privateKey));
  const refused = (file: string) => {
    try {
      createAuthenticator(authConfig({ jwt: { ...fileConfig, publicKeyFile: file } }));
    } catch (err) {
      return isIcefrontError(err, 'CONFIG_INVALID');
    }
    return false;
  };
  t.ok(refused(key), 'a private key is refused at start-up');
  t.ok(refused(path.join(dir, 'missing.pem')), 'a missing file is refused at start-up');
  fs.writeFileSync(path.join(dir, 'junk.pem'), 'not a key');
  t.ok(refused(path.join(dir, 'junk.pem')), 'a file that is not a key is refused at start-up');
});
