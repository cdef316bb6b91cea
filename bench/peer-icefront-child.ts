/**
 * Icefront in a process of its own for bench/peer.ts, so its memory can be read from /proc:
 *   peer-icefront-child.ts CONFIG.yaml
 * Loads the YAML config as `icefront serve` does, listens on 127.0.0.1 port 0, prints
 * `LISTENING <url> <v8 heap limit MiB>`, then one line per answered request,
 * `REQ <method> <status> <url> <ms from request to response>`, so the parent can see which requests a client made. Exits when
 * its stdin closes (the parent is gone).
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import { loadConfigFile } from '../src/config/index.js';
import { buildIcefront } from '../src/main.js';

const config = loadConfigFile(process.argv[2]!);
const { app } = buildIcefront(config);
app.addHook('onResponse', async (req, reply) => {
  fs.writeSync(1, `REQ ${req.method} ${reply.statusCode} ${req.url} ${reply.elapsedTime.toFixed(2)}\n`);
});
await app.listen({ host: '127.0.0.1', port: 0 });
const heapLimitMB = v8.getHeapStatistics().heap_size_limit / 2 ** 20;
fs.writeSync(1, `LISTENING http://127.0.0.1:${(app.server.address() as AddressInfo).port} ${heapLimitMB.toFixed(0)}\n`);
process.stdin.resume();
process.stdin.on('end', () => void app.close().then(() => process.exit(0)));
