/** Reading S3 response bodies: whole, or a slice of a stream that is released once read. */
import { fail } from '../../errors/index.js';

/**
 * Bytes [skip, skip + take) of a body, reading no further than needed; the rest of the stream
 * is cancelled. Used for 206 answers (skip 0) and for servers that ignore `Range` (200).
 */
export async function readSlice(body: ReadableStream<Uint8Array> | null, skip: number, take: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Buffer[] = [];
  let toSkip = skip;
  let got = 0;
  try {
    while (got < take) {
      const { done, value } = await reader.read();
      if (done) break;
      let chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      if (toSkip > 0) {
        const drop = Math.min(toSkip, chunk.length);
        toSkip -= drop;
        chunk = chunk.subarray(drop);
      }
      if (chunk.length === 0) continue;
      const part = chunk.subarray(0, take - got);
      chunks.push(part);
      got += part.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, got);
}

/** The first byte of a `Content-Range: bytes a-b/size` header, when there is one. */
export function contentRangeStart(header: string | null): number | undefined {
  const m = header === null ? null : /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(header.trim());
  return m ? Number(m[1]) : undefined;
}

/** `Content-Length` of a HEAD answer as a byte count. */
export function contentLength(location: string, header: string | null): number {
  const size = header === null || !/^\d+$/.test(header.trim()) ? NaN : Number(header.trim());
  if (!Number.isSafeInteger(size)) throw fail('STORAGE_FAILURE', `Cannot read ${location} (no usable Content-Length)`);
  return size;
}
