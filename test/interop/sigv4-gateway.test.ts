/**
 * The SigV4 verifier of issue #42 judged before it judges Icefront: signers that are not Icefront
 * go through it to the Iceberg REST fixture, and it must accept exactly what AWS would.
 *
 *   botocore SigV4Auth (python) ─┐
 *   pyiceberg rest.sigv4-enabled ┼──▶ sigv4-gateway.py ──▶ Iceberg REST fixture
 *   boto3 + moto STS creds ──────┘   (botocore recomputes, 403 otherwise)
 *
 * (a) botocore-signed `GET /v1/config`, `POST /v1/namespaces` (JSON body, also sent chunked and
 * with a declared payload hash), a percent-encoded path and a query: the fixture answers. (b) a
 * wrong secret, (c) a body changed after signing (with and without X-Amz-Content-SHA256), (d) no
 * Authorization, unknown key, wrong scope, UNSIGNED-PAYLOAD: 403 with AWS's error types.
 * (e) a gateway whose clock is 20 min ahead (behind): "Signature expired" ("not yet current");
 * 4 min is within the 5 min AWS allows. (f) moto's STS in the gateway: AssumeRoleWithWebIdentity
 * with the token from a file, credentials living 3 s: accepted, refused without the session
 * token, ExpiredTokenException once expired; the test rotates the token file and botocore's own
 * web-identity provider gets new credentials that pass. (g) pyiceberg's own SigV4 (static keys
 * from the environment, then web-identity credentials it refreshes) creates and lists namespaces
 * through the gateway with nothing refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { startRestFixture } from './harness/rest-fixture.js';
import { startSigv4Gateway, type Sigv4Gateway } from './harness/sigv4-gateway.js';
import { interopToolchain, type InteropEnv } from './harness/toolchain.js';
import { runCommand } from '../helpers/run-command.js';

t.setTimeout(3 * 60_000);

const SERVICE = 'glue';
const REGION = 'us-east-1';
const KEY = { accessKeyId: 'AKIDSIGV4GATEWAY01', secretAccessKey: 'gateway/Secret+Key/0123456789abcdefghij' };
const OTHER_KEY = { accessKeyId: 'AKIDSIGV4GATEWAY02', secretAccessKey: 'second-secret' };
const ROLE_ARN = 'arn:aws:iam::123456789012:role/icefront-interop';
const SIGNATURE_MISMATCH = 'The request signature we calculated does not match the signature you provided.';

/**
 * The Python side, run per job (`python -c SIGNER '<job json>'`), one JSON line out. `requests`:
 * each signed by botocore's SigV4Auth.add_auth (unless `noAuth`), sent by http.client exactly as
 * signed (Host from the URL, as botocore assumes), optionally with another body than was signed.
 * `sts`: AssumeRoleWithWebIdentity with boto3 on the token file, then requests with those
 * credentials, fresh and after they expire. `provider`: credentials from botocore's own
 * web-identity provider (AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN, AWS_ENDPOINT_URL_STS). `pyiceberg`:
 * a RestCatalog with rest.sigv4-enabled creates a namespace and lists them.
 */
const SIGNER = String.raw`
import datetime, hashlib, http.client, json, sys, time, urllib.parse
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

job = json.loads(sys.argv[1])

def send(base, r, creds):
    u = urllib.parse.urlsplit(base)
    data = r["body"].encode() if r.get("body") is not None else None
    headers = dict(r.get("headers", {}))
    if r.get("contentSha") == "body":
        headers["X-Amz-Content-SHA256"] = hashlib.sha256(data or b"").hexdigest()
    elif r.get("contentSha") == "unsigned":
        headers["X-Amz-Content-SHA256"] = "UNSIGNED-PAYLOAD"
    if not r.get("noAuth"):
        req = AWSRequest(method=r["method"], url=base + r["path"], data=data, headers=headers)
        SigV4Auth(creds, r.get("service", job["service"]), r.get("region", job["region"])).add_auth(req)
        headers = dict(req.headers.items())
        if r.get("dropToken"):
            headers.pop("X-Amz-Security-Token", None)
    sent = r["tamperBody"].encode() if "tamperBody" in r else data
    if r.get("chunked") and sent:
        sent = iter([sent[:5], sent[5:]])  # no Content-Length: http.client sends Transfer-Encoding: chunked
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    c.request(r["method"], r["path"], body=sent, headers=headers)
    res = c.getresponse()
    text = res.read().decode("utf-8", "replace")
    c.close()
    return {"name": r["name"], "status": res.status, "errorType": res.getheader("x-amzn-ErrorType"), "contentType": res.getheader("content-type"), "body": text[:2000]}

def static(r):
    return Credentials(r.get("key", job.get("key")), r.get("secret", job.get("secret")))

if job["mode"] == "requests":
    out = [send(job["gateway"], r, static(r)) for r in job["requests"]]
elif job["mode"] == "sts":
    import boto3
    sts = boto3.client("sts", endpoint_url=job["sts"], region_name=job["region"], aws_access_key_id="unused", aws_secret_access_key="unused")
    token = open(job["tokenFile"]).read()
    c = sts.assume_role_with_web_identity(RoleArn=job["roleArn"], RoleSessionName="icefront-interop", WebIdentityToken=token)["Credentials"]
    lifetime = (c["Expiration"] - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
    creds = Credentials(c["AccessKeyId"], c["SecretAccessKey"], c["SessionToken"])
    probe = {"method": "GET", "path": "/v1/config"}
    results = [send(job["gateway"], {**probe, "name": "fresh"}, creds), send(job["gateway"], {**probe, "name": "no session token", "dropToken": True}, creds)]
    time.sleep(max(0.0, (c["Expiration"] - datetime.datetime.now(datetime.timezone.utc)).total_seconds()) + 0.5)
    results.append(send(job["gateway"], {**probe, "name": "expired"}, creds))
    out = {"accessKeyId": c["AccessKeyId"], "lifetime": lifetime, "results": results}
elif job["mode"] == "provider":
    import botocore.session
    credentials = botocore.session.get_session().get_credentials()
    frozen = credentials.get_frozen_credentials()
    out = {"method": credentials.method, "accessKeyId": frozen.access_key, "results": [send(job["gateway"], {"method": "GET", "path": "/v1/config", "name": "provider"}, frozen)]}
elif job["mode"] == "pyiceberg":
    from pyiceberg.catalog.rest import RestCatalog
    props = {"rest.sigv4-enabled": "true", "rest.signing-name": job["service"], "rest.signing-region": job["region"]}
    if job.get("warehouse"):
        props["warehouse"] = job["warehouse"]  # a query with reserved characters and a space: GET /v1/config?warehouse=…
    catalog = RestCatalog("gw", uri=job["gateway"], **props)
    catalog.create_namespace(job["create"])
    out = {"namespaces": [list(n) for n in catalog.list_namespaces()]}
print(json.dumps(out))
`;

interface Sent {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly key?: string;
  readonly secret?: string;
  readonly service?: string;
  readonly region?: string;
  readonly contentSha?: 'body' | 'unsigned';
  readonly tamperBody?: string;
  readonly chunked?: boolean;
  readonly noAuth?: boolean;
}

interface Answer {
  readonly name: string;
  readonly status: number;
  readonly errorType: string | null;
  readonly contentType: string | null;
  readonly body: string;
}

/** The environment of every Python job: the test's, without any AWS setting of this machine. */
function pythonEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_')));
  return { ...base, AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null', AWS_EC2_METADATA_DISABLED: 'true', ...extra };
}

async function python<T>(env: InteropEnv, job: Record<string, unknown>, extraEnv: NodeJS.ProcessEnv = {}): Promise<T> {
  const r = await runCommand(env.python, ['-c', SIGNER, JSON.stringify({ service: SERVICE, region: REGION, ...job })], { env: pythonEnv(extraEnv), timeoutMs: 60_000 });
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.code !== 0 || (!last.startsWith('{') && !last.startsWith('['))) throw new Error(`python ${String(job['mode'])} job exited ${r.code}:\n${r.stderr.slice(-3000)}\n${r.stdout.slice(-1000)}`);
  return JSON.parse(last) as T;
}

function signed(gateway: Sigv4Gateway, env: InteropEnv, requests: readonly Sent[]): Promise<Answer[]> {
  return python<Answer[]>(env, { mode: 'requests', gateway: gateway.url, key: KEY.accessKeyId, secret: KEY.secretAccessKey, requests });
}

/** One answer's check: accepted (the fixture's status) or refused with `type` and a message matching `message`. */
function judged(t: Test, gateway: Sigv4Gateway, a: Answer | undefined, want: { status: number; type?: string; message?: RegExp }): void {
  if (!a) {
    t.fail('no answer');
    return;
  }
  const ok = a.status === want.status && (a.errorType ?? undefined) === want.type;
  t.ok(ok, `${a.name}: ${want.status}${want.type ? ` ${want.type}` : ''}`, ok ? {} : { got: a, gatewayLog: gateway.log().slice(-4000) });
  if (want.type) {
    let doc: { __type?: string; message?: string } = {};
    try {
      doc = JSON.parse(a.body) as typeof doc;
    } catch {
      // not the gateway's refusal: the checks below fail and show the answer
    }
    t.equal(doc.__type, want.type, `${a.name}: body __type`);
    t.equal(a.contentType, 'application/x-amz-json-1.1', `${a.name}: AWS JSON content type`);
    if (want.message) t.match(doc.message ?? a.body, want.message, `${a.name}: message`);
  }
}

const env = await interopToolchain(t);
if (env) {
  t.comment(`moto ${env.versions['moto']} (botocore and boto3 as tools/interop/requirements.txt pins them), pyiceberg ${env.versions['pyiceberg']}`);
  const fixture = await startRestFixture(env, { jvmOptions: ['-Xmx256m'] });
  t.teardown(() => fixture.close());
  const gateway = await startSigv4Gateway(env, { upstream: fixture.url, service: SERVICE, region: REGION, keys: [KEY, OTHER_KEY] });
  t.teardown(() => gateway.close());

  const NS_BODY = JSON.stringify({ namespace: ['signed'], properties: { owner: 'botocore' } });

  await t.test('(a) requests botocore signed reach the fixture; (b)–(d) what does not verify is refused as AWS refuses it', async (t) => {
    await gateway.reset();
    const json = { 'content-type': 'application/json' };
    const answers = await signed(gateway, env, [
      { name: 'GET /v1/config', method: 'GET', path: '/v1/config' },
      { name: 'POST /v1/namespaces', method: 'POST', path: '/v1/namespaces', body: NS_BODY, headers: json },
      { name: 'GET the namespace created', method: 'GET', path: '/v1/namespaces/signed' },
      {
        name: 'POST chunked, payload hash declared',
        method: 'POST',
        path: '/v1/namespaces',
        body: JSON.stringify({ namespace: ['signed', 'child'], properties: {} }),
        headers: json,
        contentSha: 'body',
        chunked: true,
      },
      // the fixture's namespace separator is %2E (its /v1/config overrides); Jetty refuses %1F in a path
      { name: 'GET a percent-encoded path (nested namespace)', method: 'GET', path: '/v1/namespaces/signed%2Echild' },
      { name: 'GET with a query', method: 'GET', path: '/v1/namespaces?parent=signed&pageSize=10' },
      { name: 'GET with reserved characters in the query, percent-encoded', method: 'GET', path: '/v1/config?warehouse=s3%3A%2F%2Fwarehouse%2Fa%20b' },
      // botocore signs a URL's query as it is; SigV4's canonical query encodes every reserved character
      { name: 'GET with a query signed unencoded', method: 'GET', path: '/v1/config?warehouse=s3://warehouse/x' },
      { name: 'GET an unknown namespace (the fixture 404s)', method: 'GET', path: '/v1/namespaces/nothing%20here' },
      { name: 'the second key', method: 'GET', path: '/v1/config', key: OTHER_KEY.accessKeyId, secret: OTHER_KEY.secretAccessKey },
      // (b)
      { name: 'wrong secret', method: 'GET', path: '/v1/config', secret: `${KEY.secretAccessKey}x` },
      { name: 'wrong secret, POST', method: 'POST', path: '/v1/namespaces', body: NS_BODY, headers: json, secret: OTHER_KEY.secretAccessKey },
      // (c)
      { name: 'body changed after signing', method: 'POST', path: '/v1/namespaces', body: NS_BODY, headers: json, tamperBody: NS_BODY.replace('signed', 'forged') },
      {
        name: 'body changed after signing, payload hash declared',
        method: 'POST',
        path: '/v1/namespaces',
        body: NS_BODY,
        headers: json,
        contentSha: 'body',
        tamperBody: NS_BODY.replace('signed', 'forged'),
      },
      // (d) and other refusals
      { name: 'no Authorization', method: 'GET', path: '/v1/config', noAuth: true },
      { name: 'unknown key id', method: 'GET', path: '/v1/config', key: 'AKIDNOBODYKNOWS', secret: 'x' },
      { name: 'scoped to another region', method: 'GET', path: '/v1/config', region: 'eu-west-1' },
      { name: 'scoped to another service', method: 'GET', path: '/v1/config', service: 'execute-api' },
      { name: 'UNSIGNED-PAYLOAD', method: 'POST', path: '/v1/namespaces', body: NS_BODY, headers: json, contentSha: 'unsigned' },
    ]);
    const by = new Map(answers.map((a) => [a.name, a]));
    const mismatch = new RegExp(SIGNATURE_MISMATCH.replace(/[.]/g, '\\.'));
    judged(t, gateway, by.get('GET /v1/config'), { status: 200 });
    t.ok(JSON.parse(by.get('GET /v1/config')!.body).defaults !== undefined, 'the fixture’s config came back through the gateway');
    judged(t, gateway, by.get('POST /v1/namespaces'), { status: 200 });
    judged(t, gateway, by.get('GET the namespace created'), { status: 200 });
    t.match(JSON.parse(by.get('GET the namespace created')!.body).properties, { owner: 'botocore' }, 'the signed body is what the fixture stored');
    judged(t, gateway, by.get('POST chunked, payload hash declared'), { status: 200 });
    judged(t, gateway, by.get('GET a percent-encoded path (nested namespace)'), { status: 200 });
    judged(t, gateway, by.get('GET with a query'), { status: 200 });
    t.same(JSON.parse(by.get('GET with a query')!.body).namespaces, [['signed', 'child']], 'the query reached the fixture');
    judged(t, gateway, by.get('GET with reserved characters in the query, percent-encoded'), { status: 200 });
    judged(t, gateway, by.get('GET with a query signed unencoded'), { status: 403, type: 'InvalidSignatureException', message: mismatch });
    judged(t, gateway, by.get('GET an unknown namespace (the fixture 404s)'), { status: 404 });
    judged(t, gateway, by.get('the second key'), { status: 200 });
    judged(t, gateway, by.get('wrong secret'), { status: 403, type: 'InvalidSignatureException', message: mismatch });
    judged(t, gateway, by.get('wrong secret, POST'), { status: 403, type: 'InvalidSignatureException', message: mismatch });
    judged(t, gateway, by.get('body changed after signing'), { status: 403, type: 'InvalidSignatureException', message: mismatch });
    judged(t, gateway, by.get('body changed after signing, payload hash declared'), { status: 403, type: 'XAmzContentSHA256Mismatch', message: /x-amz-content-sha256/ });
    judged(t, gateway, by.get('no Authorization'), { status: 403, type: 'MissingAuthenticationTokenException', message: /^Missing Authentication Token$/ });
    judged(t, gateway, by.get('unknown key id'), { status: 403, type: 'UnrecognizedClientException', message: /security token included in the request is invalid/ });
    judged(t, gateway, by.get('scoped to another region'), { status: 403, type: 'InvalidSignatureException', message: /Credential should be scoped to a valid region, not 'eu-west-1'/ });
    judged(t, gateway, by.get('scoped to another service'), { status: 403, type: 'InvalidSignatureException', message: /Credential should be scoped to correct service: 'glue'/ });
    judged(t, gateway, by.get('UNSIGNED-PAYLOAD'), { status: 403, type: 'InvalidSignatureException', message: /UNSIGNED-PAYLOAD/ });
    t.match(gateway.log(), /--- canonical request ---\nPOST\n\/v1\/namespaces\n/, 'a mismatch logs the canonical request');

    const stats = await gateway.stats();
    t.same(
      stats,
      {
        accepted: 9,
        refused: { InvalidSignatureException: 7, XAmzContentSHA256Mismatch: 1, MissingAuthenticationTokenException: 1, UnrecognizedClientException: 1 },
        keys: { [KEY.accessKeyId]: 8, [OTHER_KEY.accessKeyId]: 1 },
        unsignedPayload: 1,
        sts: { assumeRoleWithWebIdentity: 0, assumeRole: 0, tokens: [] },
      },
      'stats: every request judged once',
    );
    const direct = await fetch(`${fixture.url}/v1/namespaces`);
    const names = ((await direct.json()) as { namespaces: string[][] }).namespaces;
    t.notOk(
      names.some((n) => n[0] === 'forged'),
      'no refused body reached the fixture',
    );
  });

  await t.test('(e) X-Amz-Date against a skewed gateway clock: ±20 min refused, 4 min accepted', async (t) => {
    const [ahead, behind, near] = await Promise.all(
      [1200, -1200, 240].map((clockOffsetSeconds) => startSigv4Gateway(env, { upstream: fixture.url, service: SERVICE, region: REGION, keys: [KEY], clockOffsetSeconds })),
    );
    t.teardown(() => Promise.all([ahead!.close(), behind!.close(), near!.close()]).then(() => undefined));
    const [a, b, n] = await Promise.all(
      [ahead!, behind!, near!].map((g, i) => signed(g, env, [{ name: `GET /v1/config, gateway clock ${['+20 min', '-20 min', '+4 min'][i]}`, method: 'GET', path: '/v1/config' }])),
    );
    judged(t, ahead!, a![0], {
      status: 403,
      type: 'InvalidSignatureException',
      message: /^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 5 min\.\)$/,
    });
    judged(t, behind!, b![0], {
      status: 403,
      type: 'InvalidSignatureException',
      message: /^Signature not yet current: \d{8}T\d{6}Z is still later than \d{8}T\d{6}Z \(\d{8}T\d{6}Z \+ 5 min\.\)$/,
    });
    judged(t, near!, n![0], { status: 200 });
  });

  await t.test('(f) moto STS in the gateway: web-identity credentials pass, expire (ExpiredTokenException), and a rotated token brings new ones', async (t) => {
    const sts = await startSigv4Gateway(env, { upstream: fixture.url, service: SERVICE, region: REGION, keys: [], sts: { durationSeconds: 3 } });
    t.teardown(() => sts.close());
    t.match(sts.stsEndpoint, /^http:\/\/127\.0\.0\.1:\d+$/, 'the STS endpoint is printed');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-sigv4-'));
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    const tokenFile = path.join(dir, 'web-identity-token');
    fs.writeFileSync(tokenFile, 'web-identity-token-1');

    const first = await python<{ accessKeyId: string; lifetime: number; results: Answer[] }>(env, { mode: 'sts', gateway: sts.url, sts: sts.stsEndpoint, tokenFile, roleArn: ROLE_ARN });
    t.ok(first.lifetime > 0 && first.lifetime <= 3.5, `moto issued credentials living the forced 3 s (${first.lifetime.toFixed(2)} s left on receipt)`);
    t.match(first.accessKeyId, /^ASIA/, 'temporary credentials');
    const [fresh, noToken, expired] = first.results;
    judged(t, sts, fresh, { status: 200 });
    judged(t, sts, noToken, { status: 403, type: 'UnrecognizedClientException', message: /security token included in the request is invalid/ });
    judged(t, sts, expired, { status: 403, type: 'ExpiredTokenException', message: /^The security token included in the request is expired$/ });

    // the token file is rotated; botocore's own web-identity provider reads it and assumes the role again
    fs.writeFileSync(tokenFile, 'web-identity-token-2');
    const webIdentityEnv = { AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile, AWS_ROLE_ARN: ROLE_ARN, AWS_ROLE_SESSION_NAME: 'icefront-interop', AWS_ENDPOINT_URL_STS: sts.stsEndpoint!, AWS_REGION: REGION };
    const second = await python<{ method: string; accessKeyId: string; results: Answer[] }>(env, { mode: 'provider', gateway: sts.url }, webIdentityEnv);
    t.equal(second.method, 'assume-role-with-web-identity', 'botocore found the web-identity settings');
    t.not(second.accessKeyId, first.accessKeyId, 'new credentials');
    judged(t, sts, second.results[0], { status: 200 });

    const stats = await sts.stats();
    t.same(stats.sts.tokens, ['web-identity-token-1', 'web-identity-token-2'], 'moto STS saw both tokens, in order');
    t.equal(stats.accepted, 2, 'two requests accepted');
    t.same(stats.refused, { UnrecognizedClientException: 1, ExpiredTokenException: 1 }, 'refused: the one without its session token, the expired one');
    t.same(Object.keys(stats.keys).sort(), [first.accessKeyId, second.accessKeyId].sort(), 'each set of credentials signed one accepted request');

    // (g, refreshing) pyiceberg signing with web-identity credentials that botocore refreshes
    await sts.reset();
    const listed = await python<{ namespaces: string[][] }>(env, { mode: 'pyiceberg', gateway: sts.url, create: 'pyiceberg_sts' }, webIdentityEnv);
    t.ok(listed.namespaces.some((n) => n.join('.') === 'pyiceberg_sts'), 'pyiceberg on STS credentials created and listed a namespace');
    const after = await sts.stats();
    t.same(after.refused, {}, 'nothing pyiceberg sent on STS credentials was refused', { log: sts.log().slice(-4000) });
    t.ok(after.accepted >= 3, `pyiceberg's config, create and list were verified (${after.accepted})`);
    t.ok(after.sts.assumeRoleWithWebIdentity >= 1, `botocore refreshed the short-lived credentials (${after.sts.assumeRoleWithWebIdentity} AssumeRoleWithWebIdentity)`);
  });

  await t.test("(g) pyiceberg's own SigV4 (rest.sigv4-enabled, static keys from the environment) passes the verifier", async (t) => {
    await gateway.reset();
    const listed = await python<{ namespaces: string[][] }>(
      env,
      { mode: 'pyiceberg', gateway: gateway.url, create: 'pyiceberg_signed', warehouse: 's3://warehouse/signed path' },
      { AWS_ACCESS_KEY_ID: KEY.accessKeyId, AWS_SECRET_ACCESS_KEY: KEY.secretAccessKey },
    );
    t.same(
      listed.namespaces.map((n) => n.join('.')).sort(),
      ['pyiceberg_signed', 'pyiceberg_sts', 'signed'],
      'pyiceberg created a namespace and listed every one through the gateway',
    );
    const stats = await gateway.stats();
    t.same(stats.refused, {}, 'nothing pyiceberg sent was refused', { log: gateway.log().slice(-4000) });
    t.ok(stats.accepted >= 3, `config, create and list verified (${stats.accepted})`);
    t.match(gateway.log(), /^200 GET \/v1\/config\?warehouse=s3%3A%2F%2Fwarehouse%2Fsigned\+path$/m, 'its /v1/config with the warehouse in the query (`+` for the space, as requests encodes it) was verified');
    t.same(stats.keys, { [KEY.accessKeyId]: stats.accepted }, 'all with its key');
  });
}
