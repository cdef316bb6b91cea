/**
 * A counting HTTP forwarder in front of S3 (moto, or Toxiproxy in front of moto) for
 * bench/many-clients.ts: one listener on loopback per role (e.g. `pyiceberg`, `iceberg-go`,
 * `icefront`, `fixture`), each forwarding to its own target, counting every request it forwards
 * by role, method and kind of key (`metadata` for `*.metadata.json`, `manifest-list` for
 * `snap-*.avro`, `manifest` for any other `*.avro`, `other`: bucket listings, version-hint.text…).
 *
 * What is forwarded is what was sent: the method, the path and query, every header as the client
 * sent it (Host included: the client signed its SigV4 request for the listener's host:port, and
 * moto does not check signatures, so nothing is re-signed), Range included, and the body both
 * ways, streamed. The answer's status and headers come back unchanged. Connections to the target
 * are kept alive and shared between the clients of a role.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type KeyKind = 'metadata' | 'manifest-list' | 'manifest' | 'other';

/** `role → "METHOD kind" → requests`. */
export type S3Counts = Record<string, Record<string, number>>;

export interface S3Counter {
  /** `http://127.0.0.1:<port>`: the endpoint a role's readers are given (path-style). */
  url(role: string): string;
  /** The counts since the last reset, by role then `METHOD kind` (e.g. `GET manifest`). */
  counts(): S3Counts;
  /** Forwarded requests that failed (the target unreachable, the connection cut), by role. */
  failures(): Record<string, number>;
  reset(): void;
  close(): Promise<void>;
}

export function keyKind(pathname: string): KeyKind {
  const name = decodeURIComponent(pathname.slice(pathname.lastIndexOf('/') + 1));
  if (name.endsWith('.metadata.json')) return 'metadata';
  if (name.endsWith('.avro')) return name.startsWith('snap-') ? 'manifest-list' : 'manifest';
  return 'other';
}

/** Sums `counts` over roles (all, or those named) for the keys accepted by `key` (`METHOD kind`). */
export function total(counts: S3Counts, key: (methodKind: string) => boolean, roles?: readonly string[]): number {
  let n = 0;
  for (const [role, byKey] of Object.entries(counts)) {
    if (roles && !roles.includes(role)) continue;
    for (const [k, v] of Object.entries(byKey)) if (key(k)) n += v;
  }
  return n;
}

/** A listener per role, forwarding to `targets[role]` (`http://host:port`). */
export async function startS3Counter(targets: Readonly<Record<string, string>>): Promise<S3Counter> {
  let counts: S3Counts = {};
  let failures: Record<string, number> = {};
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, keepAliveMsecs: 10_000 });
  const servers = new Map<string, http.Server>();
  const urls = new Map<string, string>();
  for (const [role, target] of Object.entries(targets)) {
    const to = new URL(target);
    const server = http.createServer((req, res) => {
      const pathname = (req.url ?? '/').split('?')[0]!;
      const key = `${req.method} ${keyKind(pathname)}`;
      const byKey = (counts[role] ??= {});
      byKey[key] = (byKey[key] ?? 0) + 1;
      const out = http.request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        },
      );
      const fail = () => {
        failures[role] = (failures[role] ?? 0) + 1;
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('s3 counter: the target failed');
        else res.destroy();
      };
      out.on('error', fail);
      res.on('close', () => {
        if (!res.writableFinished) out.destroy();
      });
      req.pipe(out);
    });
    // longer than any client keeps an idle connection, so a client never reuses one closed here
    server.keepAliveTimeout = 120_000;
    server.headersTimeout = 130_000;
    server.requestTimeout = 0;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.set(role, server);
    urls.set(role, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  return {
    url(role) {
      const u = urls.get(role);
      if (!u) throw new Error(`s3 counter: no role ${role}`);
      return u;
    },
    counts: () => structuredClone(counts),
    failures: () => ({ ...failures }),
    reset() {
      counts = {};
      failures = {};
    },
    async close() {
      for (const server of servers.values()) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      agent.destroy();
    },
  };
}
