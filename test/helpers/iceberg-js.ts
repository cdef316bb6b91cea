/**
 * Real-HTTP helpers: start an app on 127.0.0.1 port 0, point iceberg-js at it, and send
 * requests whose path bytes reach the server untouched (no URL normalisation of `..` or `%2E`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { IcebergRestCatalog } from 'iceberg-js';

/** Listens on an ephemeral port; returns the base URL. Close with `app.close()`. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** An iceberg-js 1.0.0 client that learns its prefix from `/v1/config?warehouse=`. */
export function icebergJsCatalog(baseUrl: string, warehouse: string, auth?: { token: string }): IcebergRestCatalog {
  return new IcebergRestCatalog({ baseUrl, warehouse, ...(auth ? { auth: { type: 'bearer' as const, token: auth.token } } : {}) });
}

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** One request with `path` sent byte for byte as given. */
export function rawRequest(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
