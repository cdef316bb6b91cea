import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { fail } from '../errors/index.js';
import { buildAuth, type Invalid, type RawAuth } from './auth.js';
import { substituteEnv } from './env.js';
import { CONFIG_SCHEMA } from './schema.js';
import type { CatalogConfig, Config, LocationRemap, RestCatalogConfig, UpstreamAuth } from './types.js';

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8181,
  bodyLimit: 1024 * 1024,
  batchSize: 100,
  maxResponseBytes: 1024 * 1024,
  cacheBytes: 256 * 1024 * 1024,
  logLevel: 'info',
  connectTimeoutMs: 5000,
  requestTimeoutMs: 30000,
  // a filesystem table's current-metadata choice is reused this long (issue #12: commits visible within 1 s)
  refreshMs: 250,
} as const;

const ajv = new Ajv({ allErrors: false, strict: false });
const validate = ajv.compile(CONFIG_SCHEMA);

/**
 * Read, substitute, validate and freeze a YAML config file, and check the folders it names are
 * there (parseConfig checks the text only). Errors name the key and line.
 */
export function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): Config {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (err) {
    throw fail('CONFIG_INVALID', `${file}: cannot read config file (${(err as Error).message})`, err);
  }
  const { config, invalid } = parse(text, abs, env);
  checkWarehouses(config, invalid);
  return config;
}

/** Parse config text; `source` is the file it came from (relative paths resolve beside it). */
export function parseConfig(text: string, source: string, env: NodeJS.ProcessEnv = process.env): Config {
  return parse(text, source, env).config;
}

function parse(text: string, source: string, env: NodeJS.ProcessEnv): { config: Config; invalid: Invalid } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const where = (node: Node | undefined | null): string => {
    const offset = node?.range?.[0];
    return offset === undefined ? source : `${source}:${lines.linePos(offset).line}`;
  };
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw fail('CONFIG_INVALID', `${source}:${lines.linePos(e.pos[0]).line}: ${e.message.split('\n')[0]}`);
  }
  substituteTree(doc, doc.contents as Node | null, [], env, where);
  const data: unknown = doc.toJS() ?? {};
  if (!validate(data)) {
    const err = validate.errors![0]!;
    const keyPath = errorPath(err);
    const node = nearestNode(doc, keyPath);
    throw fail('CONFIG_INVALID', `${where(node)}: ${keyPath.join('.') || '(root)'}: ${describe(err)}`);
  }
  const invalid: Invalid = (keyPath, message) =>
    fail('CONFIG_INVALID', `${where(nearestNode(doc, keyPath.map(String)))}: ${keyPath.join('.')}: ${message}`);
  return { config: build(data as RawConfig, source, invalid), invalid };
}

/**
 * A filesystem catalog's warehouse must be a folder that is there: refused at start (issue #13:
 * a missing one started silently and failed every request later).
 */
function checkWarehouses(config: Config, invalid: Invalid): void {
  for (const c of config.catalogs.values()) {
    if (c.type !== 'filesystem') continue;
    const keyPath = ['catalogs', c.name, 'warehouse'];
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(c.warehouse, { throwIfNoEntry: false });
    } catch (err) {
      throw invalid(keyPath, `cannot read the folder ${c.warehouse} (${(err as Error).message})`);
    }
    if (!stat) throw invalid(keyPath, `the folder ${c.warehouse} does not exist (a relative path is resolved against the config file's folder)`);
    if (!stat.isDirectory()) throw invalid(keyPath, `${c.warehouse} is not a folder`);
  }
}

function substituteTree(
  doc: Document,
  node: Node | null,
  keyPath: (string | number)[],
  env: NodeJS.ProcessEnv,
  where: (n: Node | undefined | null) => string,
): void {
  if (isMap(node)) {
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const value = pair.value as Node | null;
      if (isScalar(value) && typeof value.value === 'string') {
        const s = substituteEnv(value.value, env);
        if (s.kind === 'absent') node.delete(pair.key);
        else if (s.kind === 'error')
          throw fail('CONFIG_INVALID', `${where(value)}: ${[...keyPath, key].join('.')}: environment variable ${s.variable} is not set`);
        else value.value = coerce(s.value, value.value);
      } else substituteTree(doc, value, [...keyPath, key], env, where);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      const child = item as Node | null;
      if (isScalar(child) && typeof child.value === 'string') {
        const s = substituteEnv(child.value, env);
        if (s.kind === 'error')
          throw fail('CONFIG_INVALID', `${where(child)}: ${[...keyPath, i].join('.')}: environment variable ${s.variable} is not set`);
        if (s.kind === 'value') child.value = s.value;
      } else substituteTree(doc, child, [...keyPath, i], env, where);
    });
  }
}

/** A whole-value substitution that yields a number keeps YAML's typing (`port: ${PORT}`). */
function coerce(substituted: string, original: string): string | number {
  if (original !== substituted && /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(original) && /^-?\d+$/.test(substituted))
    return Number(substituted);
  return substituted;
}

function errorPath(err: ErrorObject): string[] {
  const parts = err.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (err.keyword === 'additionalProperties') parts.push(String(err.params.additionalProperty));
  if (err.keyword === 'required') parts.push(String(err.params.missingProperty));
  if (err.propertyName !== undefined) parts.push(err.propertyName);
  else if (err.keyword === 'propertyNames' && err.params.propertyName) parts.push(String(err.params.propertyName));
  return parts;
}

function describe(err: ErrorObject): string {
  if (err.propertyName !== undefined) return 'is not a valid name (letters, digits, . _ ~ -; it becomes a URL path segment)';
  switch (err.keyword) {
    case 'additionalProperties':
      return 'unknown key';
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of ${(err.params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `must be ${String(err.params.allowedValue)}`;
    default:
      return err.message ?? 'is invalid';
  }
}

function nearestNode(doc: Document, keyPath: string[]): Node | undefined {
  for (let n = keyPath.length; n >= 0; n--) {
    const prefix = keyPath.slice(0, n);
    const node = (prefix.length === 0 ? doc.contents : doc.getIn(prefix, true)) as Node | undefined;
    if (node && node.range) {
      if (n === keyPath.length || !isMap(node)) return node;
      // The key itself (e.g. an unknown key) is on the pair's key node.
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === keyPath[n]);
      return (pair?.key as Node | undefined) ?? node;
    }
  }
  return undefined;
}

interface RawConfig {
  server?: { host?: string; port?: number; 'body-limit'?: number; 'public-url'?: string; 'trusted-proxies'?: string[]; 'upstream-buffer-bytes'?: number; 'shutdown-grace-ms'?: number; 'readiness-interval-ms'?: number };
  planning?: { 'batch-size'?: number; 'max-response-bytes'?: number; 'cache-bytes'?: number; 'token-secret'?: string; workers?: number | 'auto' };
  logging?: { level?: string };
  tracing?: { 'otlp-endpoint'?: string; 'service-name'?: string; 'sample-ratio'?: number };
  auth?: RawAuth;
  catalogs: Record<string, RawFilesystemCatalog | RawRestCatalog>;
}

interface RawFilesystemCatalog {
  type: 'filesystem';
  warehouse: string;
  locations?: Record<string, string>;
  planning?: string | boolean;
  'refresh-ms'?: number;
}

interface RawRestCatalog {
  type: 'rest';
  uri: string;
  warehouse?: string;
  planning?: 'auto' | 'upstream' | 'upstream-paged' | 'local';
  auth?: { mode: 'forward' } | { mode: 'bearer'; token: string } | { mode: 'oauth2'; 'token-url': string; 'client-id': string; 'client-secret': string; scope?: string };
  timeouts?: { 'connect-ms'?: number; 'request-ms'?: number };
  limits?: { 'config-bytes'?: number; 'load-table-bytes'?: number; 'max-in-flight'?: number; 'max-queued'?: number };
  storage?: {
    s3?: { endpoint?: string; region?: string; 'path-style'?: boolean; 'access-key-id'?: string; 'secret-access-key'?: string; 'session-token'?: string };
    local?: { roots: string[]; locations?: Record<string, string> };
  };
}

/** `locations` map → remaps with directories resolved against the config file, longest prefix first. */
function remapsOf(locations: Record<string, string> | undefined, base: string): LocationRemap[] {
  return Object.entries(locations ?? {})
    .map(([prefix, dir]) => ({ prefix, dir: path.resolve(base, dir) }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

function buildRest(name: string, c: RawRestCatalog, base: string): RestCatalogConfig {
  const a = c.auth ?? { mode: 'forward' };
  const auth: UpstreamAuth =
    a.mode === 'bearer'
      ? { mode: 'bearer', token: a.token }
      : a.mode === 'oauth2'
        ? { mode: 'oauth2', tokenUrl: a['token-url'], clientId: a['client-id'], clientSecret: a['client-secret'], ...(a.scope && { scope: a.scope }) }
        : { mode: 'forward' };
  const s3 = c.storage?.s3;
  const local = c.storage?.local;
  const storage = {
    ...(s3 && {
      s3: Object.freeze({
        region: s3.region ?? 'us-east-1',
        pathStyle: s3['path-style'] ?? false,
        ...(s3.endpoint && { endpoint: s3.endpoint }),
        ...(s3['access-key-id'] && { accessKeyId: s3['access-key-id'] }),
        ...(s3['secret-access-key'] && { secretAccessKey: s3['secret-access-key'] }),
        ...(s3['session-token'] && { sessionToken: s3['session-token'] }),
      }),
    }),
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

function build(raw: RawConfig, source: string, invalid: Invalid): Config {
  const base = source ? path.dirname(source) : process.cwd();
  const catalogs = new Map<string, CatalogConfig>();
  for (const [name, c] of Object.entries(raw.catalogs)) {
    if (c.type === 'rest') {
      catalogs.set(name, buildRest(name, c, base));
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
        refreshMs: c['refresh-ms'] ?? DEFAULTS.refreshMs,
      }),
    );
  }
  const p = raw.planning ?? {};
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
    }),
    planning: Object.freeze({
      batchSize: p['batch-size'] ?? DEFAULTS.batchSize,
      maxResponseBytes: p['max-response-bytes'] ?? DEFAULTS.maxResponseBytes,
      cacheBytes: p['cache-bytes'] ?? DEFAULTS.cacheBytes,
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
    ...(raw.auth && { auth: buildAuth(raw.auth, base, invalid) }),
  });
}
