/**
 * One raw framing written on a socket of its own (test/http/hostile/inputs.ts RAW_FRAMINGS), and
 * what came back: the hostile-requests test and the soak (bench/soak/load.ts) judge it alike.
 */
import net from 'node:net';
import { errorModelProblem } from './tally.js';

/** Writes raw bytes and collects the answer until close (or gives up after `ms`). */
export function rawExchange(port: number, bytes: string, ms = 2000, host = '127.0.0.1'): Promise<{ answer: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answer: Buffer.concat(chunks).toString('latin1'), closed: false });
    }, ms);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // one complete answer is enough on a kept-alive connection
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /content-length: (\d+)/i.exec(text);
      const head = text.indexOf('\r\n\r\n');
      if (m && head !== -1 && text.length >= head + 4 + Number(m[1]) && !/HTTP\/1\.1 100 /.test(text.slice(0, 20))) {
        setTimeout(() => socket.destroy(), 100);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer: Buffer.concat(chunks).toString('latin1'), closed: true });
    });
    socket.on('error', () => undefined);
  });
}

/** What an answer to a raw framing shows: how many answers it holds (more than one: something was smuggled), the first one's status, and what is wrong with its ErrorModel. */
export function readRawAnswer(answer: string): { answers: number; status?: number; problem?: string } {
  const answers = (answer.match(/^HTTP\/1\.[01] (?!100 )\d{3} /gm) ?? []).length;
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(answer.replace(/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/, ''))?.[1];
  if (status === undefined) return { answers };
  const problem = Number(status) >= 400 ? errorModelProblem(Number(status), answer.slice(answer.indexOf('\r\n\r\n') + 4)) : undefined;
  return { answers, status: Number(status), ...(problem !== undefined && { problem }) };
}
