import t from 'tap';
import net from 'node:net';
import { buildServer } from '../../src/http/index.js';
import { createService } from '../../src/service/index.js';
import { OPENAPI_SKIP, openApiAvailable, validateAgainst } from '../helpers/openapi.js';
import { listen } from '../helpers/iceberg-js.js';

/** Writes raw bytes to the server and returns everything it answers before closing. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

t.test('requests Node cannot parse still get an IcebergErrorResponse', { skip: openApiAvailable() ? false : OPENAPI_SKIP }, async (t) => {
  const app = buildServer({ service: createService({ catalogs: new Map() }), bodyLimit: 1024 });
  const port = Number(new URL(await listen(app)).port);
  t.teardown(() => app.close());

  for (const [label, bytes, status] of [
    ['a malformed request line', 'NOT A REQUEST\r\n\r\n', 400],
    ['a control character in the path', 'GET /v1/\x01 HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['headers beyond the size limit', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`, 431],
  ] as const) {
    const answer = await exchange(port, bytes);
    const [head, body = ''] = answer.split('\r\n\r\n');
    t.match(head, new RegExp(`^HTTP/1\\.1 ${status} `), `${label}: status ${status}`);
    const parsed = JSON.parse(body) as { error: { code: number } };
    t.same(validateAgainst('IcebergErrorResponse', parsed), [], `${label}: envelope`);
    t.equal(parsed.error.code, status);
  }
});
