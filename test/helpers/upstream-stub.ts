/**
 * A real Iceberg REST upstream on 127.0.0.1 (port 0) for tests: /v1/config, loadTable from
 * metadata JSON files, an OAuth2 token endpoint, bearer checks, fault modes and a request log.
 * Everything is configurable per test; `fault` and `respond` may be changed while it runs.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { RestCatalogConfig } from '../../src/config/index.js';

export type StubFault =
  /** Accept the request, never answer. */
  | 'hang'
  /** Send headers and part of the body, then nothing. */
  | 'stall-body'
  /** Send headers, then one body byte every 50 ms, forever (defeats idle timeouts). */
  | 'drip'
  /** Reset the connection (TCP RST) before answering. */
  | 'reset'
  /** Close the connection (FIN) before answering: no status line, no bytes at all. */
  | 'close'
  /** Send headers and part of the body, then close the socket. */
  | 'close-mid-body'
  /** Answer 200 `application/json` with a body that is not JSON. */
  | 'garbage';

export interface StubTable {
  readonly namespace: readonly string[];
  readonly name: string;
  /** A metadata JSON file, embedded byte for byte in the LoadTableResult. */
  readonly metadataFile: string;
  /** LoadTableResult `config` (e.g. vended `s3.access-key-id`). */
  readonly config?: Readonly<Record<string, string>>;
}

export interface StubOAuth {
  readonly clientId: string;
  readonly clientSecret: string;
  /** `expires_in` of issued tokens (seconds); omitted from the answer when null. Default 3600. */
  readonly expiresIn?: number | null;
}

export interface UpstreamStubOptions {
  /** The catalog prefix /v1/config announces (may hold `/`, `|` or `%7C`). */
  readonly prefix?: string;
  /** Where /v1/config puts the prefix (default: overrides). */
  readonly prefixIn?: 'defaults' | 'overrides';
  /** The prefix as it must appear in request paths (default: `prefix` with `|` as `%7C`). */
  readonly prefixPath?: string;
  /** The `endpoints` list; omitted from /v1/config when undefined. */
  readonly endpoints?: readonly string[];
  /** Announced as `overrides.namespace-separator` and used to split namespace segments. */
  readonly namespaceSeparator?: string;
  readonly defaults?: Readonly<Record<string, string>>;
  readonly overrides?: Readonly<Record<string, string>>;
  readonly idempotencyKeyLifetime?: string;
  /** /v1/config answers 404 NoSuchWarehouseException unless `?warehouse=` equals this. */
  readonly warehouse?: string;
  /** Catalog routes require `Authorization: Bearer <requireToken>` (or an issued OAuth token). */
  readonly requireToken?: string;
  /** Serve POST /oauth/token (client-credentials grant); catalog routes then require an issued token. */
  readonly oauth?: StubOAuth;
  readonly tables?: readonly StubTable[];
  /** Serve under this base path (e.g. `/api/catalog`). */
  readonly basePath?: string;
  /** Listen on this port (e.g. one a closed stub used: it comes back); default a free one. */
  readonly port?: number;
  /** A table load whose If-None-Match names the table's current ETag answers 304 (as Rustberg and Gravitino do). */
  readonly conditionalLoads?: boolean;
  /** Serve HTTPS with these options (key, cert, and for mTLS ca + requestCert); `uri` is then https://. */
  readonly tls?: https.ServerOptions;
}

/** Requests held by `hold`: answered as usual once released. */
export interface StubHold {
  /** Settles when the first matching request has arrived (and is being held). */
  readonly arrived: Promise<void>;
  /** Answers every held request, and those arriving later, as usual. */
  release(): void;
}

export interface LoggedRequest {
  readonly method: string;
  /** The raw request target, exactly as received. */
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** The client's port: which of Icefront's connections carried the request. */
  readonly port: number;
}

export interface StubAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface UpstreamStub {
  /** The base URI to configure (`http://127.0.0.1:<port>` + basePath). */
  readonly uri: string;
  readonly origin: string;
  readonly tokenUrl: string;
  readonly requests: LoggedRequest[];
  /** Applied to requests whose raw URL matches `match` (all when absent). */
  fault: { readonly mode: StubFault; readonly match?: RegExp } | undefined;
  /** Consulted first; an answer short-circuits normal routing. */
  respond: ((req: LoggedRequest) => StubAnswer | undefined) | undefined;
  /** The next N token requests answer 503. */
  tokenFailures: number;
  /** Tokens issued so far, in order. */
  readonly issuedTokens: string[];
  /** Requests whose raw URL matches `match` wait, unanswered, until `release()`. */
  hold(match: RegExp): StubHold;
  /** Invalidate every issued token (catalog routes then answer 401 to them). */
  revokeTokens(): void;
  /** Close the listener: later connections to its port are refused. */
  refuse(): Promise<void>;
  close(): Promise<void>;
}

const json = (status: number, value: unknown): StubAnswer => ({ status, body: JSON.stringify(value) });
const errorModel = (code: number, type: string, message: string) => json(code, { error: { message, type, code } });

/** The newest `v<N>.metadata.json` of a table's metadata directory, as a stub table. */
export function stubTableFromDir(dir: string, namespace: readonly string[], name: string, config?: Record<string, string>): StubTable {
  const versions = fs
    .readdirSync(dir)
    .map((f) => /^v(\d+)\.metadata\.json$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(b[1]) - Number(a[1]));
  if (versions.length === 0) throw new Error(`no vN.metadata.json in ${dir}`);
  return { namespace, name, metadataFile: path.join(dir, versions[0]![0]), ...(config ? { config } : {}) };
}

/** A RestCatalogConfig for `stub` (forward auth, short timeouts) with `overrides` applied. */
export function stubCatalogConfig(stub: UpstreamStub, overrides: Partial<RestCatalogConfig> = {}): RestCatalogConfig {
  return {
    type: 'rest',
    name: 'up',
    uri: stub.uri,
    planning: 'auto',
    auth: { mode: 'forward' },
    connectTimeoutMs: 1000,
    requestTimeoutMs: 2000,
    ...overrides,
  };
}

export async function startUpstreamStub(options: UpstreamStubOptions = {}): Promise<UpstreamStub> {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const prefixPath = options.prefixPath ?? options.prefix?.replaceAll('|', '%7C');
  const separator = options.namespaceSeparator ?? '%1F';
  const issued = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const holds: { readonly match: RegExp; readonly released: Promise<void>; readonly arrive: () => void }[] = [];
  let tokenCount = 0;

  const authorized = (req: LoggedRequest): boolean => {
    if (options.requireToken === undefined && options.oauth === undefined) return true;
    const auth = req.headers.authorization ?? '';
    if (options.requireToken !== undefined && auth === `Bearer ${options.requireToken}`) return true;
    return auth.startsWith('Bearer ') && issued.has(auth.slice(7));
  };

  const token = (req: LoggedRequest): StubAnswer => {
    if (stub.tokenFailures > 0) {
      stub.tokenFailures--;
      return json(503, { error: 'temporarily_unavailable' });
    }
    const form = new URLSearchParams(req.body);
    const oauth = options.oauth!;
    if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type' });
    if (form.get('client_id') !== oauth.clientId || form.get('client_secret') !== oauth.clientSecret) {
      // echoes the secret on purpose: tests check Icefront never quotes a token endpoint's body
      return json(401, { error: 'invalid_client', error_description: `bad secret ${form.get('client_secret')}` });
    }
    const value = `tok-${++tokenCount}`;
    issued.add(value);
    stub.issuedTokens.push(value);
    const expiresIn = oauth.expiresIn === undefined ? 3600 : oauth.expiresIn;
    return json(200, { access_token: value, token_type: 'bearer', ...(expiresIn === null ? {} : { expires_in: expiresIn }) });
  };

  const config = (query: URLSearchParams): StubAnswer => {
    if (options.warehouse !== undefined && query.get('warehouse') !== options.warehouse) {
      return errorModel(404, 'NoSuchWarehouseException', `Warehouse not found: ${query.get('warehouse')}`);
    }
    const defaults: Record<string, string> = { ...options.defaults };
    const overrides: Record<string, string> = { ...options.overrides };
    if (options.prefix !== undefined) (options.prefixIn === 'defaults' ? defaults : overrides)['prefix'] = options.prefix;
    if (options.namespaceSeparator !== undefined) overrides['namespace-separator'] = options.namespaceSeparator;
    return json(200, {
      defaults,
      overrides,
      ...(options.endpoints ? { endpoints: options.endpoints } : {}),
      ...(options.idempotencyKeyLifetime ? { 'idempotency-key-lifetime': options.idempotencyKeyLifetime } : {}),
    });
  };

  const loadTable = (rawNamespace: string, rawTable: string, ifNoneMatch: string | undefined): StubAnswer => {
    const namespace = rawNamespace.split(separator).map(decodeURIComponent);
    const name = decodeURIComponent(rawTable);
    const table = options.tables?.find((t) => t.name === name && t.namespace.join('\u0000') === namespace.join('\u0000'));
    if (!table) return errorModel(404, 'NoSuchTableException', `Table does not exist: ${namespace.join('.')}.${name}`);
    const etag = `"${tokenCount}-${path.basename(table.metadataFile)}"`;
    if (options.conditionalLoads && ifNoneMatch === etag) return { status: 304, body: '', headers: { etag } };
    const metadata = fs.readFileSync(table.metadataFile, 'utf8');
    const location = `file://${table.metadataFile}`;
    // the metadata text is embedded verbatim so 64-bit ids stay exact
    const body = `{"metadata-location":${JSON.stringify(location)},"metadata":${metadata},"config":${JSON.stringify(table.config ?? {})}}`;
    return { status: 200, body, headers: { etag } };
  };

  const route = (req: LoggedRequest): StubAnswer => {
    const custom = stub.respond?.(req);
    if (custom) return custom;
    const [rawPath, rawQuery = ''] = req.url.split('?', 2) as [string, string?];
    if (options.oauth && req.method === 'POST' && rawPath === '/oauth/token') return token(req);
    if (!rawPath.startsWith(`${basePath}/v1/`)) return errorModel(404, 'NotFoundException', `No route: ${rawPath}`);
    if (!authorized(req)) return errorModel(401, 'NotAuthorizedException', 'Not authorized');
    const rest = rawPath.slice(basePath.length);
    if (req.method === 'GET' && rest === '/v1/config') return config(new URLSearchParams(rawQuery));
    const head = prefixPath === undefined ? '/v1/' : `/v1/${prefixPath}/`;
    if (!rest.startsWith(head)) return errorModel(404, 'NotFoundException', `Unknown prefix: ${rest}`);
    const table = /^namespaces\/([^/]+)\/tables\/([^/]+)$/.exec(rest.slice(head.length));
    if (req.method === 'GET' && table) return loadTable(table[1]!, table[2]!, req.headers['if-none-match']);
    return errorModel(404, 'NotFoundException', `No route: ${req.method} ${rest}`);
  };

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const logged: LoggedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), port: req.socket.remotePort ?? 0 };
      stub.requests.push(logged);
      const held = holds.find((h) => h.match.test(logged.url));
      if (held) {
        held.arrive();
        void held.released.then(() => answer(logged, res));
        return;
      }
      answer(logged, res);
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  const answer = (logged: LoggedRequest, res: http.ServerResponse) => {
    const fault = stub.fault;
    if (fault && (fault.match === undefined || fault.match.test(logged.url))) return injectFault(fault.mode, res, timers);
    const answered = route(logged);
    res.writeHead(answered.status, { 'content-type': 'application/json', ...answered.headers });
    res.end(answered.body);
  };
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  let closed = false;
  const shutdown = async () => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearInterval(timer);
    const done = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await done;
  };

  const stub: UpstreamStub = {
    uri: `${origin}${basePath}`,
    origin,
    tokenUrl: `${origin}/oauth/token`,
    requests: [],
    fault: undefined,
    respond: undefined,
    tokenFailures: 0,
    issuedTokens: [],
    hold(match) {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      const entry = { match, released, arrive };
      holds.push(entry);
      return {
        arrived,
        release() {
          holds.splice(holds.indexOf(entry), 1);
          release();
        },
      };
    },
    revokeTokens: () => issued.clear(),
    refuse: shutdown,
    close: shutdown,
  };
  return stub;
}

function injectFault(mode: StubFault, res: http.ServerResponse, timers: Set<NodeJS.Timeout>): void {
  const partial = () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    res.write('{"defaults":{');
  };
  switch (mode) {
    case 'hang':
      return;
    case 'stall-body':
      return partial();
    case 'drip': {
      partial();
      const timer = setInterval(() => res.write(' '), 50);
      timers.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        timers.delete(timer);
      });
      return;
    }
    case 'reset':
      res.socket?.resetAndDestroy();
      return;
    case 'close':
      res.socket?.destroy();
      return;
    case 'close-mid-body':
      partial();
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    case 'garbage':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html><body>502 Bad Gateway</body></html>');
      return;
  }
}

/** A loopback port nothing listens on: connections to it are refused (an upstream that is down). */
export async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}
