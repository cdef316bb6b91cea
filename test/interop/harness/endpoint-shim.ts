/**
 * A small HTTP shim in front of a real REST catalog (the fixture) that hides some of its
 * endpoints: `/v1/config` answers the upstream's config without them, and a request to a hidden
 * endpoint answers 406 UnsupportedOperationException without reaching the upstream (as a server
 * that lacks the route would). Everything else is streamed through unchanged. Every request is
 * logged (method, path), so a test can count what reached the upstream.
 *
 * This turns the fixture (which plans and pages) into the upstream kinds the field has: `/plan`
 * without `/tasks` (Gravitino's Iceberg REST server today) or no planning at all (Nessie, Polaris).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ShimRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly url: string;
  /** Whether the shim refused it as a hidden endpoint. */
  readonly hidden: boolean;
}

export interface EndpointShim {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: ShimRequest[];
  close(): Promise<void>;
}

/** `hide`: endpoint strings as `/v1/config` advertises them (`POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks`). */
export async function startEndpointShim(upstream: string, hide: readonly string[]): Promise<EndpointShim> {
  const target = new URL(upstream);
  const hidden = hide.map(toMatcher);
  const requests: ShimRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    const refused = hidden.some((m) => m.method === req.method && m.pattern.test(path));
    requests.push({ method: req.method ?? '', url, hidden: refused });
    if (refused) {
      const body = JSON.stringify({ error: { message: `Endpoint not supported: ${req.method} ${path}`, type: 'UnsupportedOperationException', code: 406 } });
      res.writeHead(406, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      req.resume();
      return;
    }
    const isConfig = req.method === 'GET' && /^\/v1\/config$/.test(path);
    const headers = { ...req.headers, host: target.host };
    if (isConfig) delete headers['accept-encoding'];
    const out = http.request({ hostname: target.hostname, port: target.port, method: req.method, path: url, headers }, (up) => {
      if (!isConfig || up.statusCode !== 200) {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { endpoints?: string[] };
        if (Array.isArray(doc.endpoints)) doc.endpoints = doc.endpoints.filter((e) => !hide.includes(e));
        const body = JSON.stringify(doc);
        const { 'content-length': _length, 'transfer-encoding': _te, etag: _etag, ...rest } = up.headers;
        res.writeHead(200, { ...rest, 'content-length': Buffer.byteLength(body) }).end(body);
      });
    });
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks` → method + a path regex (the fixture has no prefix). */
function toMatcher(endpoint: string): { method: string; pattern: RegExp } {
  const [method, template] = endpoint.split(' ') as [string, string];
  const source = template
    .replace('/v1/{prefix}', '/v1(?:/[^/]+)?')
    .replace(/\{[^}]+\}/g, '[^/]+')
    .replace(/\//g, '\\/');
  return { method, pattern: new RegExp(`^${source}$`) };
}
