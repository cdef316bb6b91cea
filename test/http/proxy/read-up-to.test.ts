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

t.test('a body that breaks off before it ends rejects with its error; after the bound, the stream handed on breaks', async (t) => {
  const broken = (n: number) =>
    new Readable({
      read() {
        if (n-- > 0) this.push(Buffer.alloc(1000, 120));
        else this.destroy(new Error('reset'));
      },
    });
  await t.rejects(readUpTo(broken(2), 10_000), /reset/);
  const rest = (await readUpTo(broken(5), 2500)) as Readable;
  await new Promise((r) => setTimeout(r, 20)); // the body breaks before anyone reads on: not the process
  await t.rejects(
    (async () => {
      for await (const _ of rest);
    })(),
    /reset/,
  );
});
