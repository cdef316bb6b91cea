/** Helpers the benchmarks share for starting servers on loopback ports. */
import fs from 'node:fs';
import net from 'node:net';

export const which = (bin: string): string | undefined => {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/bin']) if (fs.existsSync(`${dir}/${bin}`)) return `${dir}/${bin}`;
  return undefined;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not answer 200`);
}
