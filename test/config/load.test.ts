import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfigFile, parseConfig, type FilesystemCatalogConfig, type RestCatalogConfig } from '../../src/config/index.js';
import { isIcefrontError } from '../../src/errors/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isIcefrontError(err, 'CONFIG_INVALID')) return err.message;
    throw err;
  }
  throw new Error('expected a CONFIG_INVALID error');
}

t.test('the example config loads with the demo catalog on 127.0.0.1:8181', async (t) => {
  // parsed, not loaded: its .demo/warehouse exists only once `npm start` (or `npm run demo`) wrote it
  const file = path.join(REPO, 'config.example.yaml');
  const config = parseConfig(fs.readFileSync(file, 'utf8'), file);
  t.equal(config.server.host, '127.0.0.1');
  t.equal(config.server.port, 8181);
  const demo = config.catalogs.get('demo') as FilesystemCatalogConfig | undefined;
  t.ok(demo, 'demo catalog present');
  t.equal(demo!.warehouse, path.join(REPO, '.demo/warehouse'), 'the generated demo, resolved beside the config file');
  t.same(demo!.locations, [], 'its tables record file:// locations: nothing to remap');
  t.ok(Object.isFrozen(config) && Object.isFrozen(demo), 'config is frozen');
});

t.test('relative paths resolve against the config file, not the working directory', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-cfg-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'c.yaml');
  fs.writeFileSync(file, 'catalogs:\n  a:\n    type: filesystem\n    warehouse: ./wh\n    locations:\n      "s3://b/x": ../elsewhere\n');
  fs.mkdirSync(path.join(dir, 'wh'));
  const c = loadConfigFile(file).catalogs.get('a') as FilesystemCatalogConfig;
  t.equal(c.warehouse, path.join(dir, 'wh'));
  t.equal(c.locations[0]!.dir, path.join(path.dirname(dir), 'elsewhere'));
});

t.test('a filesystem warehouse that is not there, or is a file, is refused with its line and resolved path', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-cfg-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'c.yaml');
  fs.writeFileSync(file, 'catalogs:\n  ok: {type: filesystem, warehouse: ./ok}\n  a:\n    type: filesystem\n    warehouse: ./wh\n');
  fs.mkdirSync(path.join(dir, 'ok'));
  const missing = configError(() => loadConfigFile(file));
  t.equal(missing, `${file}:5: catalogs.a.warehouse: the folder ${path.join(dir, 'wh')} does not exist (a relative path is resolved against the config file's folder)`);
  fs.writeFileSync(path.join(dir, 'wh'), 'not a folder');
  t.equal(configError(() => loadConfigFile(file)), `${file}:5: catalogs.a.warehouse: ${path.join(dir, 'wh')} is not a folder`);
  fs.rmSync(path.join(dir, 'wh'));
  fs.mkdirSync(path.join(dir, 'wh'));
  t.equal((loadConfigFile(file).catalogs.get('a') as FilesystemCatalogConfig).warehouse, path.join(dir, 'wh'), 'a folder loads');
  t.ok(parseConfig(fs.readFileSync(file, 'utf8'), file), 'parseConfig checks the text only');
});

t.test('an unknown key is reported with its name and line', async (t) => {
  const msg = configError(() => parseConfig('server:\n  host: x\n  prot: 1\ncatalogs:\n  a: {type: filesystem, warehouse: w}\n', 'c.yaml'));
  t.match(msg, /^c\.yaml:3: server\.prot: unknown key/);
});

t.test('a wrong type is reported with its key path and line', async (t) => {
  const msg = configError(() => parseConfig('catalogs:\n  a:\n    type: filesystem\n    warehouse: w\nserver:\n  port: eighty\n', 'c.yaml'));
  t.match(msg, /^c\.yaml:6: server\.port: /);
});

t.test('a missing required key names the key and the line of its parent', async (t) => {
  const msg = configError(() => parseConfig('catalogs:\n  a:\n    type: filesystem\n', 'c.yaml'));
  t.match(msg, /^c\.yaml:3: catalogs\.a\.warehouse: is required/);
});

t.test('an unsupported catalog type is rejected', async (t) => {
  const msg = configError(() => parseConfig('catalogs:\n  a:\n    type: hive\n    warehouse: w\n', 'c.yaml'));
  t.match(msg, /catalogs\.a\.type: must be one of/);
});

t.test('a catalog name that is not a URL-safe path segment is rejected', async (t) => {
  const msg = configError(() => parseConfig('catalogs:\n  "a/b":\n    type: filesystem\n    warehouse: w\n', 'c.yaml'));
  t.match(msg, /catalogs\.a\/b: is not a valid name/);
});

t.test('malformed YAML is reported with a line', async (t) => {
  const msg = configError(() => parseConfig('catalogs:\n  a: [\n', 'c.yaml'));
  t.match(msg, /^c\.yaml:\d+: /);
});

t.test('${ENV} is substituted; a whole-value unset variable makes an optional key absent', async (t) => {
  const text = 'server:\n  port: ${PORT}\nplanning:\n  token-secret: ${SECRET}\ncatalogs:\n  a: {type: filesystem, warehouse: "${WH}/x"}\n';
  const c = parseConfig(text, '/etc/c.yaml', { PORT: '9000', WH: '/data' });
  t.equal(c.server.port, 9000);
  t.equal((c.catalogs.get('a') as FilesystemCatalogConfig).warehouse, '/data/x');
  t.equal(c.planning.tokenSecret, undefined, 'unset optional secret is absent');
  const withSecret = parseConfig(text, '/etc/c.yaml', { PORT: '1', WH: '/d', SECRET: 'a-long-enough-secret' });
  t.equal(withSecret.planning.tokenSecret, 'a-long-enough-secret');
});

t.test('an unset variable inside a longer string is an error naming the variable', async (t) => {
  const msg = configError(() => parseConfig('catalogs:\n  a:\n    type: filesystem\n    warehouse: "${NOPE}/x"\n', 'c.yaml', {}));
  t.match(msg, /^c\.yaml:4: catalogs\.a\.warehouse: environment variable NOPE is not set/);
});

t.test('a missing config file is a clear error', async (t) => {
  const msg = configError(() => loadConfigFile('/nonexistent/icefront.yaml'));
  t.match(msg, /cannot read config file/);
});

t.test('planning defaults apply when the section is absent', async (t) => {
  const c = parseConfig('catalogs:\n  a: {type: filesystem, warehouse: w, planning: off}\n', '/c.yaml');
  t.equal(c.planning.batchSize, 0, 'no count bound: pages are cut by bytes');
  t.equal(c.planning.maxResponseBytes, 1_000_000, 'within a 1 MB gateway cap');
  t.equal(c.planning.cacheBytes, 268435456);
  t.equal((c.catalogs.get('a') as FilesystemCatalogConfig).planning, 'off');
});

t.test('a rest catalog is validated: uri, planning mode, auth mode and its keys, timeouts, storage', async (t) => {
  const c = parseConfig(
    [
      'catalogs:',
      '  up:',
      '    type: rest',
      '    uri: http://127.0.0.1:9000/api/catalog/',
      '    warehouse: wh',
      '    planning: local',
      '    auth: { mode: oauth2, token-url: "http://127.0.0.1:9000/token", client-id: me, client-secret: "${SECRET}" }',
      '    timeouts: { connect-ms: 100, request-ms: 2000 }',
      '    storage: { s3: { endpoint: "http://127.0.0.1:9001", path-style: true, access-key-id: a, secret-access-key: b } }',
      '',
    ].join('\n'),
    '/c.yaml',
    { SECRET: 's3cr3t' },
  );
  const up = c.catalogs.get('up') as RestCatalogConfig;
  t.equal(up.type, 'rest');
  t.equal(up.uri, 'http://127.0.0.1:9000/api/catalog', 'trailing slash dropped');
  t.equal(up.planning, 'local');
  t.same(up.auth, { mode: 'oauth2', tokenUrl: 'http://127.0.0.1:9000/token', clientId: 'me', clientSecret: 's3cr3t' });
  t.equal(up.connectTimeoutMs, 100);
  t.equal(up.storage?.s3?.region, 'us-east-1', 'default region');
  const defaults = parseConfig('catalogs:\n  up: { type: rest, uri: "https://example.test" }\n', '/c.yaml').catalogs.get('up') as RestCatalogConfig;
  t.same(defaults.auth, { mode: 'forward' });
  t.equal(defaults.planning, 'auto');
  t.match(configError(() => parseConfig('catalogs:\n  up: { type: rest, uri: "ftp://x" }\n', 'c.yaml')), /catalogs\.up\.uri: /);
  t.match(configError(() => parseConfig('catalogs:\n  up: { type: rest, uri: "http://x", auth: { mode: bearer } }\n', 'c.yaml')), /catalogs\.up\.auth\.token: is required/);
  t.match(configError(() => parseConfig('catalogs:\n  up: { type: rest, uri: "http://x", planning: maybe }\n', 'c.yaml')), /catalogs\.up\.planning: must be one of/);
});

t.test("a rest catalog's storage.local roots and locations resolve against the config file; roots are required", async (t) => {
  const yaml = (local: string) => `catalogs:\n  up:\n    type: rest\n    uri: "http://127.0.0.1:9"\n    storage:\n      local: ${local}\n`;
  const c = parseConfig(yaml('{ roots: [./wh, /abs/wh2], locations: { "s3://b/x": ../moved } }'), '/etc/icefront/c.yaml').catalogs.get('up') as RestCatalogConfig;
  t.same(c.storage?.local?.roots, ['/etc/icefront/wh', '/abs/wh2']);
  t.same(c.storage?.local?.locations, [{ prefix: 's3://b/x', dir: '/etc/moved' }]);
  t.equal(c.storage?.s3, undefined, 'no s3 section invented');
  t.match(configError(() => parseConfig(yaml('{ roots: [] }'), 'c.yaml')), /c\.yaml:6: catalogs\.up\.storage\.local\.roots: /);
  t.match(configError(() => parseConfig(yaml('{ locations: {} }'), 'c.yaml')), /catalogs\.up\.storage\.local\.roots: is required/);
});

t.test('server.public-url and server.trusted-proxies are validated', async (t) => {
  const c = parseConfig('server: { public-url: "https://icefront.example/", trusted-proxies: [10.0.0.0/8, "::1"] }\ncatalogs: { d: { type: filesystem, warehouse: ./w } }\n', '/c.yaml');
  t.equal(c.server.publicUrl, 'https://icefront.example', 'trailing slash dropped');
  t.same(c.server.trustedProxies, ['10.0.0.0/8', '::1']);
  t.same(parseConfig('catalogs: { d: { type: filesystem, warehouse: ./w } }\n', '/c.yaml').server.trustedProxies, [], 'none by default');
  t.match(configError(() => parseConfig('server: { public-url: "ftp://x" }\ncatalogs: { d: { type: filesystem, warehouse: ./w } }\n', 'c.yaml')), /server\.public-url: /);
  t.match(configError(() => parseConfig('server: { public-url: "http://x/a?b" }\ncatalogs: { d: { type: filesystem, warehouse: ./w } }\n', 'c.yaml')), /server\.public-url: /);
  t.match(configError(() => parseConfig('server: { trusted-proxies: [evil.example] }\ncatalogs: { d: { type: filesystem, warehouse: ./w } }\n', 'c.yaml')), /server\.trusted-proxies\/0|server\.trusted-proxies\.0/);
});

t.test('tracing: an OTLP endpoint, a service name and a sample ratio; a malformed endpoint or ratio names its line', async (t) => {
  const base = 'catalogs:\n  a: {type: filesystem, warehouse: w}\n';
  t.equal(parseConfig(base, 'c.yaml').tracing, undefined, 'off by default');
  const on = parseConfig(`${base}tracing:\n  otlp-endpoint: "http://collector:4318/v1/traces"\n  service-name: icefront-eu\n  sample-ratio: 0.25\n`, 'c.yaml');
  t.same(on.tracing, { otlpEndpoint: 'http://collector:4318/v1/traces', serviceName: 'icefront-eu', sampleRatio: 0.25 });
  t.match(configError(() => parseConfig(`${base}tracing:\n  otlp-endpoint: "collector:4318"\n`, 'c.yaml')), /^c\.yaml:4: tracing\.otlp-endpoint/);
  t.match(configError(() => parseConfig(`${base}tracing:\n  sample-ratio: 2\n`, 'c.yaml')), /^c\.yaml:4: tracing\.sample-ratio/);
});

// issue #32: first-use papercuts in config errors

t.test('a typo in a key is reported as an unknown key with the known key it is nearest to, not as the key it misses', async (t) => {
  const msg = configError(() => parseConfig('catalogs:\n  lake:\n    type: filesystem\n    warehous: ./wh\n', 'c.yaml'));
  t.equal(msg, 'c.yaml:4: catalogs.lake.warehous: unknown key (did you mean `warehouse`?)');
  t.notMatch(msg, /is required/, 'the missing warehouse is that typo, said once');
  const far = configError(() => parseConfig('server:\n  colour: blue\ncatalogs:\n  a: {type: filesystem, warehouse: w}\n', 'c.yaml'));
  t.equal(far, 'c.yaml:2: server.colour: unknown key', 'no guess when no known key is near');
  t.match(configError(() => parseConfig('catalogs:\n  a: {type: filesytem, warehouse: w}\n', 'c.yaml')), /catalogs\.a\.type: must be one of filesystem, sql, rest \(did you mean `filesystem`\?\)/);
});

t.test('every problem in the file is reported at once, one line each with its key path, in file order', async (t) => {
  const text = [
    'server:', //                                           1
    '  prot: 8181', //                                      2
    'planning:', //                                         3
    '  batch_size: 10', //                                  4
    '  workers: many', //                                   5
    'catalogs:', //                                         6
    '  up:', //                                             7
    '    type: rest', //                                    8
    '    uri: "http://127.0.0.1:9"', //                     9
    '    limits: { max-inflight: 4 }', //                  10
    '    storage: { s3: { regoin: eu } }', //               11
    '    auth: { mode: bearer, tokn: t }', //               12
    '  lake:', //                                           13
    '    type: filesystem', //                              14
    '    warehous: ./wh', //                                15
    'auth:', //                                             16
    '  tokens: [{ sha256: "' + 'a'.repeat(64) + '", principal: a }]', // 17
    '  limit: { burst: 1 }', //                             18
    'loging: { level: debug }', //                          19
    '',
  ].join('\n');
  t.equal(
    configError(() => parseConfig(text, 'c.yaml')),
    [
      'c.yaml:2: server.prot: unknown key (did you mean `port`?)',
      'c.yaml:4: planning.batch_size: unknown key (did you mean `batch-size`?)',
      'c.yaml:5: planning.workers: must be integer or auto',
      'c.yaml:10: catalogs.up.limits.max-inflight: unknown key (did you mean `max-in-flight`?)',
      'c.yaml:11: catalogs.up.storage.s3.regoin: unknown key (did you mean `region`?)',
      'c.yaml:12: catalogs.up.auth.tokn: unknown key (did you mean `token`?)',
      'c.yaml:15: catalogs.lake.warehous: unknown key (did you mean `warehouse`?)',
      'c.yaml:18: auth.limit: unknown key (did you mean `limits`?)',
      'c.yaml:19: loging: unknown key (did you mean `logging`?)',
    ].join('\n'),
  );
});

t.test('a catalog without its type is told so once, not against every type it could have been', async (t) => {
  t.equal(configError(() => parseConfig('catalogs:\n  a:\n    warehouse: w\n', 'c.yaml')), 'c.yaml:3: catalogs.a.type: is required');
  t.equal(configError(() => parseConfig('catalogs:\n  a: { type: rest, uri: "http://x", auth: { token: t } }\n', 'c.yaml')), 'c.yaml:2: catalogs.a.auth.mode: is required');
});

t.test('checks beyond the schema report every problem too: auth rules, warehouse folders', async (t) => {
  const auth = configError(() => parseConfig('catalogs:\n  a: {type: filesystem, warehouse: w}\nauth:\n  tokens: [{ sha256: "' + 'a'.repeat(64) + '", principal: a }]\n  allow:\n    - { catalogs: [a] }\n    - { roles: [r], catalogs: [a], namespaces: ["*"] }\n', 'c.yaml'));
  t.equal(auth, 'c.yaml:6: auth.allow.0: names nobody: give principals, roles or both\nc.yaml:7: auth.allow.1.namespaces.0: has an empty or "*" level (leave namespaces out to mean the whole catalog)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-cfg-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'c.yaml');
  fs.writeFileSync(file, 'catalogs:\n  a: {type: filesystem, warehouse: ./one}\n  b: {type: filesystem, warehouse: ./two}\n');
  const missing = configError(() => loadConfigFile(file)).split('\n');
  t.equal(missing.length, 2, 'both missing folders');
  t.match(missing[0], `${file}:2: catalogs.a.warehouse: the folder ${path.join(dir, 'one')} does not exist`);
  t.match(missing[1], `${file}:3: catalogs.b.warehouse: the folder ${path.join(dir, 'two')} does not exist`);
});

t.test('a required key whose whole value is an unset ${VAR} names the variable, at its line', async (t) => {
  t.equal(configError(() => parseConfig('catalogs:\n  lake:\n    type: rest\n    uri: "${LAKE_URI}"\n', 'c.yaml', {})), 'c.yaml:4: catalogs.lake.uri: environment variable LAKE_URI is not set');
  t.equal(
    configError(() => parseConfig('catalogs:\n  up: { type: rest, uri: "http://x", auth: { mode: bearer, token: "${UP_TOKEN}" } }\n', 'c.yaml', {})),
    'c.yaml:2: catalogs.up.auth.token: environment variable UP_TOKEN is not set',
  );
  t.equal(
    configError(() => parseConfig('catalogs:\n  a:\n    type: filesystem\n    warehouse: "${WH}/x"\n  b:\n    type: rest\n    uri: "http://${HOST}:9"\n', 'c.yaml', {})),
    'c.yaml:4: catalogs.a.warehouse: environment variable WH is not set\nc.yaml:7: catalogs.b.uri: environment variable HOST is not set',
    'every unset variable, and nothing said about the values left unsubstituted',
  );
  t.equal(parseConfig('planning:\n  token-secret: "${SECRET}"\ncatalogs:\n  a: {type: filesystem, warehouse: w}\n', 'c.yaml', {}).planning.tokenSecret, undefined, 'an optional key still stays absent');
});

t.test('a top-level block indented under catalogs is named as such, not as a catalog without a type', async (t) => {
  const msg = configError(() => parseConfig('catalogs:\n  demo: {type: filesystem, warehouse: w}\n  planning:\n    batch-size: 10\n', 'c.yaml'));
  t.equal(msg, "c.yaml:3: catalogs.planning: looks like the top-level 'planning' block, indented under catalogs by mistake; catalogs holds one entry per catalog, each with a 'type'");
  const nameless = configError(() => parseConfig('catalogs:\n  type: filesystem\n  warehouse: ./wh\n', 'c.yaml'));
  t.match(nameless, /^c\.yaml:2: catalogs\.type: looks like a catalog's 'type' key, not a catalog \(is the catalog's name missing above it\?\)/);
  t.match(nameless, /\nc\.yaml:3: catalogs\.warehouse: looks like a catalog's 'warehouse' key/);
  const named = parseConfig('catalogs:\n  planning: {type: filesystem, warehouse: w}\n', 'c.yaml');
  t.ok(named.catalogs.has('planning'), 'a catalog may still be called planning when it has a type');
});

const sqlYaml = (...lines: string[]) => ['catalogs:', '  lake:', '    type: sql', '    uri: sqlite:/tmp/x.db', ...lines.map((l) => `    ${l}`), ''].join('\n');
const S3_KEYS = ['storage:', '  s3:', '    access-key-id: AKID', '    secret-access-key: "${SECRET}"'];

t.test("a sql catalog's warehouse-location is a local folder or s3://bucket/prefix; another store is refused, saying why", async (t) => {
  const msg = configError(() => parseConfig(sqlYaml('warehouse-location: gs://bucket/lake'), 'c.yaml'));
  t.match(msg, /catalogs\.lake\.warehouse-location: must be a local folder \(a path, or a file: URI\) or s3:\/\/bucket\/prefix/);
  t.match(configError(() => parseConfig(sqlYaml('warehouse-location: s3:///lake', ...S3_KEYS), 'c.yaml', { SECRET: 's' })), /catalogs\.lake\.warehouse-location: must be/, 'a bucket is needed');
  const local = parseConfig(sqlYaml('warehouse-location: file:///srv/lake'), '/etc/c.yaml').catalogs.get('lake');
  t.equal(local?.type === 'sql' && local.warehouseDir, '/srv/lake');
  t.equal(local?.type === 'sql' && local.s3, undefined, 'a local warehouse has no S3 settings');
  const relative = parseConfig(sqlYaml('warehouse-location: lake'), '/etc/c.yaml').catalogs.get('lake');
  t.equal(relative?.type === 'sql' && relative.warehouseLocation, 'file:///etc/lake', 'a bare path, beside the config file');
  for (const scheme of ['s3', 's3a', 's3n']) {
    const lake = parseConfig(sqlYaml(`warehouse-location: ${scheme}://bucket/lake/`, ...S3_KEYS), '/etc/c.yaml', { SECRET: 's' }).catalogs.get('lake');
    t.equal(lake?.type === 'sql' && lake.warehouseLocation, `${scheme}://bucket/lake`, `${scheme}:// is S3 (storage/s3 s3-location.ts), kept as written without the trailing slash`);
    t.equal(lake?.type === 'sql' && lake.warehouseDir, undefined, 'no local folder');
  }
});

t.test("a sql catalog on S3 takes storage.s3 as a rest catalog does: the same keys, parsed the same way", async (t) => {
  const s3Block = '{ endpoint: "http://127.0.0.1:9001", region: eu-west-1, path-style: true, access-key-id: AKID, secret-access-key: "${SECRET}", session-token: tok }';
  const c = parseConfig(
    ['catalogs:', '  lake:', '    type: sql', '    uri: sqlite:/tmp/x.db', '    warehouse-location: s3://bucket/lake', `    storage: { s3: ${s3Block} }`, '  up:', '    type: rest', '    uri: http://127.0.0.1:9000', `    storage: { s3: ${s3Block} }`, ''].join('\n'),
    '/etc/c.yaml',
    { SECRET: 'shh' },
  );
  const lake = c.catalogs.get('lake');
  if (lake?.type !== 'sql') return void t.fail('a sql catalog');
  t.same(lake.s3, { region: 'eu-west-1', pathStyle: true, endpoint: 'http://127.0.0.1:9001', accessKeyId: 'AKID', secretAccessKey: 'shh', sessionToken: 'tok' });
  t.same(lake.s3, (c.catalogs.get('up') as RestCatalogConfig).storage?.s3, "the rest catalog's parse of the same block");
  t.same(lake.locations, []);
  t.ok(Object.isFrozen(lake.s3));
  const defaults = parseConfig(sqlYaml('warehouse-location: s3://bucket/lake', ...S3_KEYS), '/etc/c.yaml', { SECRET: 's' }).catalogs.get('lake');
  t.same(defaults?.type === 'sql' && defaults.s3, { region: 'us-east-1', pathStyle: false, accessKeyId: 'AKID', secretAccessKey: 's' }, 'AWS defaults: us-east-1, virtual-hosted');
  t.match(configError(() => parseConfig(sqlYaml('warehouse-location: s3://bucket/lake', 'storage: { s3: { path-style-access: true } }'), 'c.yaml')), /catalogs\.lake\.storage\.s3\.path-style-access: unknown key/);
});

t.test('a writable sql catalog on S3 without credentials is refused at start, naming the catalog; a read-only one may read anonymously', async (t) => {
  const none = configError(() => parseConfig(sqlYaml('warehouse-location: s3://bucket/lake'), 'c.yaml'));
  t.match(none, /^c\.yaml:\d+: catalogs\.lake\.storage\.s3\.access-key-id: catalog "lake" writes its metadata files to s3:\/\/bucket\/lake: give storage\.s3\.access-key-id and secret-access-key/);
  t.match(configError(() => parseConfig(sqlYaml('warehouse-location: s3://bucket/lake', 'storage: { s3: { region: eu-west-1 } }'), 'c.yaml')), /catalogs\.lake\.storage\.s3\.access-key-id: catalog "lake" writes/);
  t.match(
    configError(() => parseConfig(sqlYaml('warehouse-location: s3://bucket/lake', 'storage: { s3: { access-key-id: AKID } }'), 'c.yaml')),
    /catalogs\.lake\.storage\.s3\.secret-access-key: is required with access-key-id \(or give neither: anonymous requests\)/,
  );
  t.equal(
    configError(() => parseConfig(sqlYaml('warehouse-location: s3://bucket/lake', ...S3_KEYS), 'c.yaml', {})),
    'c.yaml:9: catalogs.lake.storage.s3.secret-access-key: environment variable SECRET is not set',
    'a key missing because its ${VAR} is unset is named as such, at its line',
  );
  const readOnly = parseConfig(sqlYaml('warehouse-location: s3://bucket/lake', 'read-only: true'), 'c.yaml').catalogs.get('lake');
  t.same(readOnly?.type === 'sql' && readOnly.s3, { region: 'us-east-1', pathStyle: false }, 'read-only: anonymous requests');
});

t.test('storage.s3 on a local sql warehouse, and locations or dot segments on an S3 one, are refused, each at its key', async (t) => {
  t.match(
    configError(() => parseConfig(sqlYaml('warehouse-location: /srv/lake', 'storage: { s3: { region: eu-west-1 } }'), 'c.yaml')),
    /catalogs\.lake\.storage\.s3: is for a warehouse-location on S3 \(s3:\/\/bucket\/prefix\); this catalog writes to a local folder/,
  );
  t.match(
    configError(() => parseConfig(sqlYaml('warehouse-location: s3://bucket/lake', 'locations: { "s3://bucket/old": /srv/old }', ...S3_KEYS), 'c.yaml', { SECRET: 's' })),
    /catalogs\.lake\.locations: remaps locations to local folders; a catalog whose warehouse-location is on S3 reads and writes S3 only/,
  );
  t.match(
    configError(() => parseConfig(sqlYaml('warehouse-location: s3://bucket/a/../lake', ...S3_KEYS), 'c.yaml', { SECRET: 's' })),
    /catalogs\.lake\.warehouse-location: an S3 key prefix cannot hold \. or \.\. segments/,
  );
});

t.test("metadata-cache-bytes sets an own catalog's table-metadata budget; absent, the default stands; a negative one names its line", async (t) => {
  const sized = parseConfig(sqlYaml('warehouse-location: /srv/lake', 'metadata-cache-bytes: 8388608'), '/etc/c.yaml').catalogs.get('lake');
  t.equal(sized?.type === 'sql' && sized.metadataCacheBytes, 8388608);
  const plain = parseConfig(sqlYaml('warehouse-location: /srv/lake'), '/etc/c.yaml').catalogs.get('lake');
  t.equal(plain?.type === 'sql' && plain.metadataCacheBytes, undefined, 'absent: the catalog keeps its default');
  t.match(configError(() => parseConfig(sqlYaml('warehouse-location: /srv/lake', 'metadata-cache-bytes: -1'), 'c.yaml')), /^c\.yaml:6: catalogs\.lake\.metadata-cache-bytes: /);
  const fsYaml = ['catalogs:', '  demo:', '    type: filesystem', `    warehouse: ${JSON.stringify(path.join(REPO, 'fixtures', 'warehouse'))}`, '    metadata-cache-bytes: 0', ''].join('\n');
  const demo = parseConfig(fsYaml, '/etc/c.yaml').catalogs.get('demo');
  t.equal(demo?.type === 'filesystem' && demo.metadataCacheBytes, 0, 'on a filesystem catalog too (0: nothing held)');
});

t.test('planning.cache-idle-seconds is kept in milliseconds; absent, five minutes; 0 keeps values until pushed out; a negative one names its line', async (t) => {
  const yaml = (line: string) => `planning:\n${line}catalogs:\n  a: {type: filesystem, warehouse: w}\n`;
  t.equal(parseConfig('catalogs:\n  a: {type: filesystem, warehouse: w}\n', 'c.yaml').planning.cacheIdleMs, 300_000);
  t.equal(parseConfig(yaml('  cache-idle-seconds: 45\n'), 'c.yaml').planning.cacheIdleMs, 45_000);
  t.equal(parseConfig(yaml('  cache-idle-seconds: 0\n'), 'c.yaml').planning.cacheIdleMs, 0);
  t.match(configError(() => parseConfig(yaml('  cache-idle-seconds: -5\n'), 'c.yaml')), /^c\.yaml:2: planning\.cache-idle-seconds: /);
});
