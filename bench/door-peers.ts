/**
 * The smallest proxies a front door can be, as peers for bench/door.ts, each run in a process of
 * its own: `node --import tsx bench/door-peers.ts <http-proxy-3|undici> <upstream origin> <port file>`.
 * Both map `/v1/up/…` to `/v1/…` (the prefix rewrite a front door does), keep connections to the
 * upstream alive and set X-Forwarded-For/-Proto/-Host, and stream bodies.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyServer } from 'http-proxy-3';
import { Pool } from 'undici';

const [kind, upstream, portFile] = process.argv.slice(2) as [string, string, string];
const rewrite = (url: string) => (url.startsWith('/v1/up/') ? `/v1/${url.slice('/v1/up/'.length)}` : url);

let server: http.Server;
if (kind === 'http-proxy-3') {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const proxy = createProxyServer({ target: upstream, agent, xfwd: true });
  proxy.on('error', (_err, _req, res) => {
    if (res instanceof http.ServerResponse && !res.headersSent) res.writeHead(502).end();
  });
  server = http.createServer((req, res) => {
    req.url = rewrite(req.url ?? '/');
    proxy.web(req, res);
  });
} else {
  const pool = new Pool(upstream, { connections: 128, pipelining: 1 });
  server = http.createServer((req, res) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'connection' && k !== 'host') headers[k] = v;
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    headers['x-forwarded-proto'] = 'http';
    headers['x-forwarded-host'] = req.headers.host ?? '';
    pool
      .request({ method: req.method as 'GET', path: rewrite(req.url ?? '/'), headers, body: req.method === 'GET' || req.method === 'HEAD' ? null : req })
      .then(({ statusCode, headers: h, body }) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(h)) if (v !== undefined && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding') out[k] = v;
        res.writeHead(statusCode, out);
        body.pipe(res);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      });
  });
}
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => fs.writeFileSync(portFile, String((server.address() as AddressInfo).port)));
