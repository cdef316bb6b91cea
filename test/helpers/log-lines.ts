/** A pino destination that keeps every JSON log line, parsed, for tests that read what was logged. */
import { Writable } from 'node:stream';

export function logLines(): { lines: Record<string, unknown>[]; destination: Writable } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}
