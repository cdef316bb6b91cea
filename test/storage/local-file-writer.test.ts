import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isIcefrontError, type ErrorCode } from '../../src/errors/index.js';
import { createLocalFileWriter } from '../../src/storage/index.js';

function sandbox(t: { teardown(fn: () => void): void }): { wh: string; outside: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-writer-')));
  t.teardown(() => fs.rmSync(base, { recursive: true, force: true }));
  const wh = path.join(base, 'warehouse');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(wh);
  fs.mkdirSync(outside);
  return { wh, outside };
}

async function errorCode(p: Promise<unknown>): Promise<ErrorCode | string> {
  try {
    await p;
  } catch (err) {
    return isIcefrontError(err) ? err.code : `non-Icefront error: ${String(err)}`;
  }
  return 'no error';
}

t.test('of many writers racing to create one file, exactly one does and its bytes are whole', async (t) => {
  const { wh } = sandbox(t);
  const writer = createLocalFileWriter([wh]);
  const file = path.join(wh, 'db', 't', 'metadata', 'v2.metadata.json');
  const bodies = Array.from({ length: 16 }, (_, i) => Buffer.alloc(256 * 1024, 65 + i));
  const results = await Promise.all(bodies.map((b) => writer.createExclusive(file, b)));
  t.equal(results.filter(Boolean).length, 1, 'one creation succeeded');
  const winner = bodies[results.indexOf(true)]!;
  t.ok(fs.readFileSync(file).equals(winner), 'the file holds the winner’s bytes, whole');
  t.same(fs.readdirSync(path.dirname(file)), ['v2.metadata.json'], 'no temporary file is left behind');
});

t.test('an existing file is never replaced by createExclusive, nor one a symbolic link names; replace swaps it whole', async (t) => {
  const { wh, outside } = sandbox(t);
  const writer = createLocalFileWriter([wh]);
  const file = `file://${wh}/hint.text`;
  t.equal(await writer.createExclusive(file, Buffer.from('1')), true);
  t.equal(await writer.createExclusive(file, Buffer.from('2')), false);
  t.equal(fs.readFileSync(path.join(wh, 'hint.text'), 'utf8'), '1');
  await writer.replace(file, Buffer.from('3'));
  t.equal(fs.readFileSync(path.join(wh, 'hint.text'), 'utf8'), '3');
  fs.symlinkSync(path.join(outside, 'target'), path.join(wh, 'dangling'));
  t.equal(await writer.createExclusive(path.join(wh, 'dangling'), Buffer.from('x')), false, 'a dangling link is a file already there, not written through');
  t.same(fs.readdirSync(outside), [], 'nothing was created where the link points');
});

t.test('nothing outside the roots is written, by path, traversal, symlink or remote scheme', async (t) => {
  const { wh, outside } = sandbox(t);
  fs.symlinkSync(outside, path.join(wh, 'escape'));
  const writer = createLocalFileWriter([wh]);
  t.equal(await errorCode(writer.createExclusive(path.join(outside, 'x'), Buffer.from('x'))), 'PATH_OUTSIDE_WAREHOUSE');
  t.equal(await errorCode(writer.replace(`${wh}/../outside/y`, Buffer.from('y'))), 'PATH_OUTSIDE_WAREHOUSE');
  t.equal(await errorCode(writer.createExclusive(path.join(wh, 'escape', 'z'), Buffer.from('z'))), 'PATH_OUTSIDE_WAREHOUSE');
  t.equal(await errorCode(writer.removeTree(path.join(wh, 'escape'))), 'PATH_OUTSIDE_WAREHOUSE');
  t.equal(await errorCode(writer.createExclusive('s3://bucket/k', Buffer.from('k'))), 'PATH_OUTSIDE_WAREHOUSE');
  t.equal(await errorCode(writer.createExclusive(path.join(wh, 'escape', 'new', 'u'), Buffer.from('u'))), 'PATH_OUTSIDE_WAREHOUSE');
  t.same(fs.readdirSync(outside), [], 'the outside folder is untouched');
});

t.test('directories: made once, removed only when empty, trees removed whole', async (t) => {
  const { wh } = sandbox(t);
  const writer = createLocalFileWriter([wh]);
  const ns = path.join(wh, 'a', 'b');
  t.equal(await writer.makeDirectory(ns), true);
  t.equal(await writer.makeDirectory(ns), false, 'a second make says it existed');
  fs.writeFileSync(path.join(ns, 'f'), 'x');
  t.equal(await writer.removeEmptyDirectory(ns), false, 'a directory holding a file stays');
  t.ok(fs.existsSync(ns));
  await writer.removeTree(path.join(wh, 'a'));
  t.notOk(fs.existsSync(path.join(wh, 'a')));
  await writer.removeTree(path.join(wh, 'a'));
  await writer.deleteFile(path.join(wh, 'gone'));
  t.pass('removing what is gone is not an error');
});
