import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { fail } from '../errors/index.js';
import { buildAuth, type RawAuth } from './auth.js';
import { substituteEnv } from './env.js';
import { Problems, type Report } from './problems.js';
import { misplacedUnderCatalogs, schemaProblems } from './schema-errors.js';
import { CONFIG_SCHEMA } from './schema.js';
import type { CatalogConfig, Config, LocationRemap, RestCatalogConfig, S3StorageConfig, SqlCatalogConfig, ServerTlsConfig, UpstreamAuth, UpstreamTlsConfig } from './types.js';

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8181,
  bodyLimit: 1024 * 1024,
  // Pages are cut by bytes (issue #31): with no count bound, 100,000 files are 35 answers at
  // 1,000,000 bytes instead of 1,000 at 100 tasks; Spark's planning through Icefront took 1.8 s
  // instead of 3.3 s, pyiceberg's 4.3 s instead of 5.5 s (npm run bench:pages). 1,000,000 bytes
  // passes a gateway with a 1 MB cap; larger pages saved the clients nothing more.
  batchSize: 0,
  maxResponseBytes: 1_000_000,
  gzipPageBytes: 1_000_000,
  cacheBytes: 256 * 1024 * 1024,
  // Past versions, superseded snapshots' answers and tables nobody plans any more leave the caches
  // after this long unread, so memory follows what is in use (issue #43) instead of filling the
  // budget over hours. Iceberg Java's CachingCatalog expires after 30 s, its manifest cache after 60 s.
  cacheIdleSeconds: 300,
  logLevel: 'info',
  connectTimeoutMs: 5000,
  requestTimeoutMs: 30000,
  // a filesystem table's current-metadata choice is reused this long (issue #12: commits visible within 1 s)
  refreshMs: 250,
} as const;

// every error at once (issue #32); `verbose` gives each error its schema (the keys an unknown one may be a typo of)
const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
const validate = ajv.compile(CONFIG_SCHEMA);

/**
 * Read, substitute, validate and freeze a YAML config file, and check the folders it names are
 * there (parseConfig checks the text only). Errors name the key and line, every one at once.
 */
export function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): Config {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (err) {
    throw fail('CONFIG_INVALID', `${file}: cannot read config file (${(err as Error).message})`, err);
  }
  const { config, problems } = parse(text, abs, env);
  checkWarehouses(config, problems.key);
  problems.throwIfAny();
  return config;
}

/** Parse config text; `source` is the file it came from (relative paths resolve beside it). */
export function parseConfig(text: string, source: string, env: NodeJS.ProcessEnv = process.env): Config {
  return parse(text, source, env).config;
}

/**
 * Each stage reports every problem it finds; a stage runs only on what the one before accepted
 * (YAML syntax, then `${VAR}` and the schema together, then the checks a schema cannot say).
 */
function parse(text: string, source: string, env: NodeJS.ProcessEnv): { config: Config; problems: Problems } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const problems = new Problems(source, lines, doc);
  for (const e of doc.errors) problems.atOffset(e.pos[0], e.message.split('\n')[0]!);
  problems.throwIfAny();
  const vars = { unset: new Map<string, { variable: string; node: Node }>(), failed: [] as string[][] };
  substituteTree(doc.contents as Node | null, [], env, problems, vars);
  const data: unknown = doc.toJS() ?? {};
  if (!validate(data)) {
    const misplaced = misplacedUnderCatalogs(data);
    for (const p of misplaced) problems.onKey(p.keyPath, p.message);
    // said better already: a misplaced block's contents, a value whose variable is not set
    const explained = [...misplaced.map((p) => p.keyPath), ...vars.failed];
    for (const p of schemaProblems(validate.errors ?? [])) {
      if (explained.some((prefix) => prefix.every((part, i) => p.keyPath[i] === part))) continue;
      const unset = p.message === 'is required' ? vars.unset.get(JSON.stringify(p.keyPath)) : undefined;
      if (unset) problems.at(unset.node, `${p.keyPath.join('.')}: environment variable ${unset.variable} is not set`);
      else problems.key(p.keyPath, p.message);
    }
  }
  problems.throwIfAny();
  // a key a check below finds missing because its whole value was an unset ${VAR} is told as such
  const report: Report = (keyPath, message) => {
    const unset = vars.unset.get(JSON.stringify(keyPath.map(String)));
    if (unset) problems.at(unset.node, `${keyPath.join('.')}: environment variable ${unset.variable} is not set`);
    else problems.key(keyPath, message);
  };
  const config = build(data as RawConfig, source, report, env);
  problems.throwIfAny();
  return { config, problems };
}

/**
 * A filesystem catalog's warehouse must be a folder that is there: refused at start (issue #13:
 * a missing one started silently and failed every request later).
 */
function checkWarehouses(config: Config, report: Report): void {
  for (const c of config.catalogs.values()) {
    if (c.type !== 'filesystem') continue;
    const keyPath = ['catalogs', c.name, 'warehouse'];
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(c.warehouse, { throwIfNoEntry: false });
    } catch (err) {
      report(keyPath, `cannot read the folder ${c.warehouse} (${(err as Error).message})`);
      continue;
    }
    if (!stat) report(keyPath, `the folder ${c.warehouse} does not exist (a relative path is resolved against the config file's folder)`);
    else if (!stat.isDirectory()) report(keyPath, `${c.warehouse} is not a folder`);
  }
}

/**
 * `${VAR}` substitution through the tree. A variable unset inside a longer string is a problem
 * (and its key is in `failed`, so its unsubstituted value is not judged too); a whole value whose
 * variable is unset is removed, and remembered in `unset`, so that a key it leaves missing is
 * reported as that variable not being set rather than as "is required".
 */
function substituteTree(
  node: Node | null,
  keyPath: string[],
  env: NodeJS.ProcessEnv,
  problems: Problems,
  vars: { unset: Map<string, { variable: string; node: Node }>; failed: string[][] },
): void {
  const notSet = (at: Node, childPath: string[], variable: string) => {
    problems.at(at, `${childPath.join('.')}: environment variable ${variable} is not set`);
    vars.failed.push(childPath);
  };
  if (isMap(node)) {
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const value = pair.value as Node | null;
      const childPath = [...keyPath, key];
      if (isScalar(value) && typeof value.value === 'string') {
        const s = substituteEnv(value.value, env);
        if (s.kind === 'absent') {
          vars.unset.set(JSON.stringify(childPath), { variable: /^\$\{(.+)\}$/.exec(value.value)![1]!, node: value });
          node.delete(pair.key);
        } else if (s.kind === 'error') notSet(value, childPath, s.variable);
        else value.value = coerce(s.value, value.value);
      } else substituteTree(value, childPath, env, problems, vars);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      const child = item as Node | null;
      const childPath = [...keyPath, String(i)];
      if (isScalar(child) && typeof child.value === 'string') {
        const s = substituteEnv(child.value, env);
        if (s.kind === 'error') notSet(child, childPath, s.variable);
        if (s.kind === 'value') child.value = s.value;
      } else substituteTree(child, childPath, env, problems, vars);
    });
  }
}

/** A whole-value substitution that yields a number keeps YAML's typing (`port: ${PORT}`). */
function coerce(substituted: string, original: string): string | number {
  if (original !== substituted && /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(original) && /^-?\d+$/.test(substituted))
    return Number(substituted);
  return substituted;
}

interface RawConfig {
  server?: { host?: string; port?: number; 'body-limit'?: number; 'public-url'?: string; 'trusted-proxies'?: string[]; 'upstream-buffer-bytes'?: number; 'shutdown-grace-ms'?: number; 'readiness-interval-ms'?: number; tls?: { 'cert-file': string; 'key-file': string; 'ca-file'?: string } };
  planning?: { 'batch-size'?: number; 'max-response-bytes'?: number; 'gzip-page-bytes'?: number; 'cache-bytes'?: number; 'cache-idle-seconds'?: number; 'token-secret'?: string; workers?: number | 'auto' };
  logging?: { level?: string };
  tracing?: { 'otlp-endpoint'?: string; 'service-name'?: string; 'sample-ratio'?: number };
  auth?: RawAuth;
  catalogs: Record<string, RawFilesystemCatalog | RawSqlCatalog | RawRestCatalog>;
}

interface RawFilesystemCatalog {
  type: 'filesystem';
  warehouse: string;
  locations?: Record<string, string>;
  planning?: string | boolean;
  'refresh-ms'?: number;
  'read-only'?: boolean;
  'metadata-cache-bytes'?: number;
}

interface RawSqlCatalog {
  type: 'sql';
  uri: string;
  'catalog-name'?: string;
  'warehouse-location': string;
  locations?: Record<string, string>;
  planning?: string | boolean;
  'read-only'?: boolean;
  'metadata-cache-bytes'?: number;
  'schema-version'?: 'V0' | 'V1';
  storage?: { s3?: RawS3Storage };
}

interface RawS3Storage {
  endpoint?: string;
  region?: string;
  'path-style'?: boolean;
  'access-key-id'?: string;
  'secret-access-key'?: string;
  'session-token'?: string;
}

interface RawRestCatalog {
  type: 'rest';
  uri: string;
  warehouse?: string;
  planning?: 'auto' | 'upstream' | 'upstream-paged' | 'local';
  auth?:
    | { mode: 'forward' }
    | { mode: 'bearer'; token: string }
    | { mode: 'oauth2'; 'token-url': string; 'client-id': string; 'client-secret': string; scope?: string }
    | { mode: 'sigv4'; 'signing-name': string; region?: string; profile?: string; 'role-arn'?: string; 'role-session-name'?: string; 'external-id'?: string };
  timeouts?: { 'connect-ms'?: number; 'request-ms'?: number };
  tls?: { 'ca-file'?: string; 'cert-file'?: string; 'key-file'?: string; 'server-name'?: string };
  limits?: { 'config-bytes'?: number; 'load-table-bytes'?: number; 'max-in-flight'?: number; 'max-queued'?: number };
  storage?: {
    s3?: RawS3Storage;
    local?: { roots: string[]; locations?: Record<string, string> };
  };
}

/** `locations` map → remaps with directories resolved against the config file, longest prefix first. */
function remapsOf(locations: Record<string, string> | undefined, base: string): LocationRemap[] {
  return Object.entries(locations ?? {})
    .map(([prefix, dir]) => ({ prefix, dir: path.resolve(base, dir) }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

function buildSql(name: string, c: RawSqlCatalog, base: string, report: Report): SqlCatalogConfig {
  const raw = c['warehouse-location'];
  const common = {
    type: 'sql',
    name,
    uri: c.uri.startsWith('sqlite:') && !c.uri.startsWith('sqlite::memory:') ? sqliteUri(c.uri, base) : c.uri,
    catalogName: c['catalog-name'] ?? name,
    planning: c.planning === 'off' || c.planning === false ? 'off' : 'on',
    ...(c['read-only'] === true && { readOnly: true }),
    ...(c['metadata-cache-bytes'] !== undefined && { metadataCacheBytes: c['metadata-cache-bytes'] }),
    ...(c['schema-version'] && { schemaVersion: c['schema-version'] }),
  } as const;
  const at = (...keys: string[]) => ['catalogs', name, ...keys];
  // the sqlite driver is Node's own node:sqlite, unflagged from 22.13 (README, supported lines):
  // refused here, at start-up, rather than as every request's 500
  if (/^sqlite:/i.test(c.uri) && !isBuiltin('node:sqlite'))
    report(at('uri'), `a sqlite: database needs Node.js 22.13 or newer, whose built-in node:sqlite is the driver; this is Node.js ${process.version} (run a newer Node.js, or use a postgresql:// uri)`);
  if (/^s3[an]?:\/\//i.test(raw)) {
    // issue #40 item 3: an S3 warehouse, reached with `storage.s3` (as a `rest` catalog's tables are)
    const s3 = c.storage?.s3;
    const key = raw.replace(/^s3[an]?:\/\/[^/]*\/?/i, '');
    if (key.split('/').some((segment) => segment === '.' || segment === '..')) report(at('warehouse-location'), 'an S3 key prefix cannot hold . or .. segments');
    if (c.locations) report(at('locations'), 'remaps locations to local folders; a catalog whose warehouse-location is on S3 reads and writes S3 only');
    // createS3FileIO signs with the credentials it is given and looks for none elsewhere (no
    // environment, profile or instance role): without them every request is anonymous
    const keyId = s3?.['access-key-id'];
    const secret = s3?.['secret-access-key'];
    if (!keyId !== !secret) report(at('storage', 's3', keyId ? 'secret-access-key' : 'access-key-id'), `is required with ${keyId ? 'access-key-id' : 'secret-access-key'} (or give neither: anonymous requests)`);
    else if (!keyId && c['read-only'] !== true)
      report(
        at('storage', 's3', 'access-key-id'),
        `catalog "${name}" writes its metadata files to ${raw}: give storage.s3.access-key-id and secret-access-key (e.g. "\${AWS_ACCESS_KEY_ID}"); only a read-only catalog may read S3 anonymously`,
      );
    return Object.freeze({
      ...common,
      warehouseLocation: raw.replace(/\/+$/, ''),
      locations: Object.freeze([]),
      s3: buildS3Storage(s3 ?? {}),
    });
  }
  if (c.storage?.s3) report(at('storage', 's3'), 'is for a warehouse-location on S3 (s3://bucket/prefix); this catalog writes to a local folder');
  // a bare path is a folder relative to the config file; `file:` URIs are taken as they are
  const warehouseDir = raw.startsWith('file:') ? fileURLToPath(new URL(raw.replace(/^file:(?!\/\/)/, 'file://'))) : path.resolve(base, raw);
  return Object.freeze({
    ...common,
    warehouseLocation: pathToFileURL(warehouseDir).href.replace(/\/+$/, ''),
    warehouseDir,
    locations: Object.freeze(remapsOf(c.locations, base)),
  });
}

/** `storage.s3` of a `rest` or `sql` catalog: region us-east-1 and virtual-hosted addressing unless given. */
function buildS3Storage(s3: RawS3Storage): S3StorageConfig {
  return Object.freeze({
    region: s3.region ?? 'us-east-1',
    pathStyle: s3['path-style'] ?? false,
    ...(s3.endpoint && { endpoint: s3.endpoint }),
    ...(s3['access-key-id'] && { accessKeyId: s3['access-key-id'] }),
    ...(s3['secret-access-key'] && { secretAccessKey: s3['secret-access-key'] }),
    ...(s3['session-token'] && { sessionToken: s3['session-token'] }),
  });
}

/** `sqlite:relative.db` is relative to the config file; `sqlite:/abs` and `sqlite:///abs` are absolute. */
function sqliteUri(uri: string, base: string): string {
  const rest = uri.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  return `sqlite:${path.resolve(base, rest)}`;
}

/** A `*-file` of TLS settings, read now: its PEM text, or undefined after reporting why not. */
function readPem(file: string | undefined, key: 'ca-file' | 'cert-file' | 'key-file', base: string, report: (message: string) => void): string | undefined {
  if (file === undefined) return undefined;
  const abs = path.resolve(base, file);
  const [kind, what] = key === 'key-file' ? [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'private key'] : [/-----BEGIN CERTIFICATE-----/, 'certificate'];
  try {
    const text = fs.readFileSync(abs, 'utf8');
    if (!kind.test(text)) report(`${abs} holds no PEM ${what}`);
    return text;
  } catch (err) {
    report(`cannot read ${abs} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; a relative path is resolved against the config file's folder)`);
    return undefined;
  }
}

/** `server.tls`, its files read now (a reload reads them again: a rotated certificate is served to new connections). */
function buildServerTls(raw: RawConfig, base: string, report: Report): ServerTlsConfig | undefined {
  const tls = raw.server?.tls;
  if (!tls) return undefined;
  const read = (key: 'ca-file' | 'cert-file' | 'key-file') => readPem(tls[key], key, base, (message) => report(['server', 'tls', key], message));
  const cert = read('cert-file') ?? '';
  const key = read('key-file') ?? '';
  const ca = read('ca-file');
  return Object.freeze({ cert, key, ...(ca !== undefined && { ca }) });
}

/**
 * A `rest` catalog's `tls` files, read now (relative paths beside the config file), so a missing
 * or unreadable one is told at start with its key, and a reload sees a rotated one.
 */
function buildUpstreamTls(name: string, c: RawRestCatalog, base: string, report: Report): UpstreamTlsConfig | undefined {
  const tls = c.tls;
  if (!tls) return undefined;
  const at = (key: string) => ['catalogs', name, 'tls', key];
  if (!/^https:/i.test(c.uri)) report(['catalogs', name, 'tls'], `applies to an https:// upstream; uri is ${c.uri.split(':')[0]}://`);
  const read = (key: 'ca-file' | 'cert-file' | 'key-file') => readPem(tls[key], key, base, (message) => report(at(key), message));
  const ca = read('ca-file');
  const cert = read('cert-file');
  const key = read('key-file');
  return Object.freeze({
    ...(ca !== undefined && { ca }),
    ...(cert !== undefined && { cert }),
    ...(key !== undefined && { key }),
    ...(tls['server-name'] !== undefined && { serverName: tls['server-name'] }),
  });
}

/**
 * `auth.mode: sigv4`: the region is the config's, else AWS's own variables' (AWS_REGION, then
 * AWS_DEFAULT_REGION); a signature names its region, so without one the catalog cannot start.
 */
function buildSigv4(name: string, a: Extract<NonNullable<RawRestCatalog['auth']>, { mode: 'sigv4' }>, report: Report, env: NodeJS.ProcessEnv): UpstreamAuth {
  const region = a.region ?? (env['AWS_REGION'] || undefined) ?? (env['AWS_DEFAULT_REGION'] || undefined);
  if (region === undefined) report(['catalogs', name, 'auth'], 'sigv4 needs a region to sign for: set auth.region (or AWS_REGION in the environment)');
  return {
    mode: 'sigv4',
    signingName: a['signing-name'],
    region: region ?? '',
    ...(a.profile !== undefined && { profile: a.profile }),
    ...(a['role-arn'] !== undefined && { roleArn: a['role-arn'] }),
    ...(a['role-session-name'] !== undefined && { roleSessionName: a['role-session-name'] }),
    ...(a['external-id'] !== undefined && { externalId: a['external-id'] }),
  };
}

function buildRest(name: string, c: RawRestCatalog, base: string, report: Report, env: NodeJS.ProcessEnv): RestCatalogConfig {
  const tls = buildUpstreamTls(name, c, base, report);
  const a = c.auth ?? { mode: 'forward' };
  const auth: UpstreamAuth =
    a.mode === 'bearer'
      ? { mode: 'bearer', token: a.token }
      : a.mode === 'oauth2'
        ? { mode: 'oauth2', tokenUrl: a['token-url'], clientId: a['client-id'], clientSecret: a['client-secret'], ...(a.scope && { scope: a.scope }) }
        : a.mode === 'sigv4'
          ? buildSigv4(name, a, report, env)
          : { mode: 'forward' };
  const s3 = c.storage?.s3;
  const local = c.storage?.local;
  const storage = {
    ...(s3 && { s3: buildS3Storage(s3) }),
    ...(local && {
      local: Object.freeze({
        roots: Object.freeze(local.roots.map((r) => path.resolve(base, r))),
        locations: Object.freeze(remapsOf(local.locations, base)),
      }),
    }),
  };
  return Object.freeze({
    type: 'rest',
    name,
    uri: c.uri.replace(/\/+$/, ''),
    ...(c.warehouse !== undefined && { warehouse: c.warehouse }),
    planning: c.planning ?? 'auto',
    auth: Object.freeze(auth),
    connectTimeoutMs: c.timeouts?.['connect-ms'] ?? DEFAULTS.connectTimeoutMs,
    requestTimeoutMs: c.timeouts?.['request-ms'] ?? DEFAULTS.requestTimeoutMs,
    ...(tls && { tls }),
    ...((s3 || local) && { storage: Object.freeze(storage) }),
    ...(c.limits && {
      limits: Object.freeze({
        ...(c.limits['config-bytes'] && { configBytes: c.limits['config-bytes'] }),
        ...(c.limits['load-table-bytes'] && { loadTableBytes: c.limits['load-table-bytes'] }),
        ...(c.limits['max-in-flight'] !== undefined && { maxInFlight: c.limits['max-in-flight'] }),
        ...(c.limits['max-queued'] !== undefined && { maxQueued: c.limits['max-queued'] }),
      }),
    }),
  });
}

function build(raw: RawConfig, source: string, report: Report, env: NodeJS.ProcessEnv): Config {
  const base = source ? path.dirname(source) : process.cwd();
  const catalogs = new Map<string, CatalogConfig>();
  for (const [name, c] of Object.entries(raw.catalogs)) {
    if (c.type === 'rest') {
      catalogs.set(name, buildRest(name, c, base, report, env));
      continue;
    }
    if (c.type === 'sql') {
      catalogs.set(name, buildSql(name, c, base, report));
      continue;
    }
    const locations = remapsOf(c.locations, base);
    catalogs.set(
      name,
      Object.freeze({
        type: 'filesystem',
        name,
        warehouse: path.resolve(base, c.warehouse),
        locations: Object.freeze(locations),
        planning: c.planning === 'off' || c.planning === false ? 'off' : 'on',
        // a writable catalog's commits are seen by the next load on every replica (issue #40): nothing reused unless asked
        refreshMs: c['refresh-ms'] ?? (c['read-only'] === true ? DEFAULTS.refreshMs : 0),
        ...(c['read-only'] === true && { readOnly: true }),
        ...(c['metadata-cache-bytes'] !== undefined && { metadataCacheBytes: c['metadata-cache-bytes'] }),
      }),
    );
  }
  const p = raw.planning ?? {};
  const serverTls = buildServerTls(raw, base, report);
  return Object.freeze({
    source,
    server: Object.freeze({
      host: raw.server?.host ?? DEFAULTS.host,
      port: raw.server?.port ?? DEFAULTS.port,
      bodyLimit: raw.server?.['body-limit'] ?? DEFAULTS.bodyLimit,
      ...(raw.server?.['public-url'] && { publicUrl: raw.server['public-url'].replace(/\/+$/, '') }),
      trustedProxies: Object.freeze([...(raw.server?.['trusted-proxies'] ?? [])]),
      ...(raw.server?.['upstream-buffer-bytes'] && { upstreamBufferBytes: raw.server['upstream-buffer-bytes'] }),
      ...(raw.server?.['shutdown-grace-ms'] !== undefined && { shutdownGraceMs: raw.server['shutdown-grace-ms'] }),
      ...(raw.server?.['readiness-interval-ms'] !== undefined && { readinessIntervalMs: raw.server['readiness-interval-ms'] }),
      ...(serverTls && { tls: serverTls }),
    }),
    planning: Object.freeze({
      batchSize: p['batch-size'] ?? DEFAULTS.batchSize,
      maxResponseBytes: p['max-response-bytes'] ?? DEFAULTS.maxResponseBytes,
      gzipPageBytes: p['gzip-page-bytes'] ?? Math.max(DEFAULTS.gzipPageBytes, p['max-response-bytes'] ?? 0),
      cacheBytes: p['cache-bytes'] ?? DEFAULTS.cacheBytes,
      cacheIdleMs: (p['cache-idle-seconds'] ?? DEFAULTS.cacheIdleSeconds) * 1000,
      ...(p['token-secret'] ? { tokenSecret: p['token-secret'] } : {}),
      ...(typeof p.workers === 'number' && { workers: p.workers }),
    }),
    catalogs,
    logLevel: raw.logging?.level ?? DEFAULTS.logLevel,
    ...(raw.tracing && {
      tracing: Object.freeze({
        ...(raw.tracing['otlp-endpoint'] && { otlpEndpoint: raw.tracing['otlp-endpoint'] }),
        ...(raw.tracing['service-name'] && { serviceName: raw.tracing['service-name'] }),
        ...(raw.tracing['sample-ratio'] !== undefined && { sampleRatio: raw.tracing['sample-ratio'] }),
      }),
    }),
    ...(raw.auth && { auth: buildAuth(raw.auth, base, report) }),
  });
}
