import { Readable } from 'node:stream';
import t from 'tap';
import { readUpTo } from '../../../src/http/proxy/read-up-to.js';

const chunks = (n: number, size: number) => Array.from({ length: n }, (_, i) => Buffer.alloc(size, 97 + (i % 26)));

t.test('a body that ends within the bound is read whole', async (t) => {
  const parts = chunks(4, 1000);
  const read = await readUpTo(Readable.from(parts), 4000);
  t.ok(Buffer.isBuffer(read));
  t.same(read, Buffer.concat(parts));
});

t.test('a body past the bound is handed on as a stream of every byte, in order: what was read, then the rest', async (t) => {
  const parts = chunks(10, 1000);
  const read = await readUpTo(Readable.from(parts), 2500);
  t.notOk(Buffer.isBuffer(read));
  const got: Buffer[] = [];
  for await (const c of read as Readable) got.push(c as Buffer);
  t.same(Buffer.concat(got), Buffer.concat(parts));
});

/** A body of `n` chunks of 1,000 bytes, already arrived, that then breaks on its own (a reset socket), read or not. */
function broken(n: number): Readable {
  const body = new Readable({ read() {} });
  for (let i = 0; i < n; i++) body.push(Buffer.alloc(1000, 120));
  setTimeout(() => body.destroy(new Error('reset')), 10);
  return body;
}

t.test('a body that breaks off before it ends rejects with its error; after the bound, the stream handed on breaks', async (t) => {
  await t.rejects(readUpTo(broken(2), 10_000), /reset/);
  const rest = (await readUpTo(broken(5), 2500)) as Readable;
  await new Promise((r) => setTimeout(r, 50)); // the body breaks while no one reads on: the stream handed on keeps the error, the process lives
  await t.rejects(
    (async () => {
      for await (const _ of rest);
    })(),
    /reset/,
  );
});
