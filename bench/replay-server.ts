/**
 * The floor of server-side planning (issue #41 goal 1): a server that answers a client's catalog
 * requests with answers recorded from Icefront, from memory, doing nothing per request. While
 * `recording`, it passes every request through to the target (headers as sent, Host included, so
 * what the target writes about itself names this server) and keeps each answer as sent (status,
 * headers, body bytes: gzip stays gzip); then it answers by method, path with query, body and
 * Accept-Encoding. A request it has no answer for is a 404 ErrorModel, counted in `misses`, so a
 * walk that strayed from the recorded one cannot pass for a replay.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

interface Recorded {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface ReplayServer {
  readonly url: string;
  /** True: pass through and record; false: answer from the recording. */
  recording: boolean;
  readonly answers: number;
  readonly misses: number;
  close(): Promise<void>;
}

/** Headers that describe one connection or message framing, not the answer. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

export async function startReplayServer(target: string): Promise<ReplayServer> {
  const recorded = new Map<string, Recorded>();
  let misses = 0;
  const keyOf = (req: http.IncomingMessage, body: Buffer) =>
    JSON.stringify([req.method, req.url, createHash('sha256').update(body).digest('hex'), req.headers['accept-encoding'] ?? '']);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = keyOf(req, body);
      const send = (r: Recorded) => {
        res.writeHead(r.status, { ...r.headers, 'content-length': r.body.length });
        res.end(r.body);
      };
      if (!state.recording) {
        const hit = recorded.get(key);
        if (hit) return send(hit);
        misses++;
        const error = Buffer.from(JSON.stringify({ error: { message: `not recorded: ${req.method} ${req.url}`, type: 'NotFoundException', code: 404 } }));
        return send({ status: 404, headers: { 'content-type': 'application/json' }, body: error });
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => v !== undefined && !HOP.has(k))) as Record<string, string | string[]>;
      request(new URL(req.url ?? '/', target), { method: req.method as 'GET', headers, ...(body.length > 0 && { body }) })
        .then(async (up) => {
          const kept: Recorded = {
            status: up.statusCode,
            headers: Object.fromEntries(Object.entries(up.headers).filter(([k, v]) => v !== undefined && !HOP.has(k)).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)])),
            body: Buffer.from(await up.body.arrayBuffer()),
          };
          recorded.set(key, kept);
          send(kept);
        })
        .catch((err: unknown) => {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `replay server: ${(err as Error).message}`, type: 'BadGatewayException', code: 502 } }));
        });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: ReplayServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    recording: true,
    get answers() {
      return recorded.size;
    },
    get misses() {
      return misses;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return state;
}
