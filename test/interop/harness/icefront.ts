/**
 * Icefront in-process (the project's own builder), listening on 127.0.0.1 port 0, with every
 * request it answered recorded, so a failing comparison can show what went over the wire.
 */
import type { AddressInfo } from 'node:net';
import type { CatalogConfig, Config, FilesystemCatalogConfig, RestCatalogConfig } from '../../../src/config/index.js';
import { stringifyJson } from '../../../src/json/index.js';
import { buildIcefront } from '../../../src/main.js';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** The JSON body of a request Icefront itself parsed (plan, tasks), re-serialised int64-exact. */
  readonly body?: string;
  /** The response body of an error Icefront produced itself (status ≥ 400, not streamed). */
  readonly error?: string;
  /** The caller's `Idempotency-Key` header, when it sent one (REST spec: mutations may carry it). */
  readonly idempotencyKey?: string;
}

export interface InteropIcefront {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request answered so far, in order. */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startInteropIcefront(catalogs: CatalogConfig[], planning: { batchSize?: number } = {}): Promise<InteropIcefront> {
  return startRecordedIcefront({
    source: '',
    server: { host: '127.0.0.1', port: 0, bodyLimit: 1 << 20 },
    planning: { batchSize: planning.batchSize ?? 100, maxResponseBytes: 1 << 20, cacheBytes: 64 << 20 },
    catalogs: new Map(catalogs.map((c) => [c.name, c])),
    logLevel: process.env['ICEFRONT_INTEROP_LOG'] ?? 'silent',
  });
}

/**
 * Icefront on a whole Config (e.g. one the real loader read from a file), recording every request,
 * listening on `config.server`'s host and port (0: a free one).
 */
export async function startRecordedIcefront(config: Config): Promise<InteropIcefront> {
  const { app } = buildIcefront(config);
  const requests: RecordedRequest[] = [];
  const errors = new WeakMap<object, string>();
  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') errors.set(req, payload);
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const error = errors.get(req);
    requests.push({
      method: req.method,
      url: req.url,
      status: reply.statusCode,
      ...(req.body !== undefined && req.body !== null && { body: stringifyJson(req.body) }),
      ...(error !== undefined && { error }),
      ...(typeof req.headers['idempotency-key'] === 'string' && { idempotencyKey: req.headers['idempotency-key'] }),
    });
  });
  const { host, port } = config.server;
  await app.listen({ host, port });
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${(app.server.address() as AddressInfo).port}`;
  return { url, requests, close: () => app.close() };
}

/** A `type: rest` catalog in front of an upstream (the fixture), with the upstream planning. */
export function restCatalog(name: string, uri: string, planning: RestCatalogConfig['planning'] = 'upstream'): RestCatalogConfig {
  return { type: 'rest', name, uri, planning, auth: { mode: 'forward' }, connectTimeoutMs: 5000, requestTimeoutMs: 60_000 };
}

/** A `type: filesystem` catalog over a warehouse folder (Icefront plans every scan itself). */
export function filesystemCatalog(name: string, warehouse: string): FilesystemCatalogConfig {
  return { type: 'filesystem', name, warehouse, locations: [], planning: 'on' };
}
