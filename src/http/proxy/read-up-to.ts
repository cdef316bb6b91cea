/** A stream read whole when it is small enough, or handed on whole when it is not. */
import { Readable } from 'node:stream';

/**
 * The whole body when it ends within `max` bytes; else a stream of what was read and then the
 * rest, which reads the body on only as it is read itself (an error of the body meanwhile is kept
 * for that reader: it then breaks the stream, never the process). Rejects when the body breaks
 * off within `max` bytes.
 */
export function readUpTo(body: Readable, max: number): Promise<Buffer | Readable> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= max) return;
      stop();
      body.pause();
      body.on('error', () => undefined); // kept in body.errored, rethrown by the iteration below
      resolve(Readable.from(readOn(chunks, body)));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}

async function* readOn(read: readonly Buffer[], body: Readable): AsyncGenerator<Buffer> {
  yield* read;
  for await (const chunk of body) yield chunk as Buffer;
}
