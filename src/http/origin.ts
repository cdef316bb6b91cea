/**
 * Where a request came from and where clients reach Icefront, decided once per request and never
 * from what a caller merely claims: URLs Icefront writes for clients (S3 signer, credential
 * refresh) use `server.public-url`, else the address the connection was accepted on (never the
 * Host header); X-Forwarded-* are believed, and passed on to upstreams, only from
 * `server.trusted-proxies`.
 */
import { BlockList, isIPv6 } from 'node:net';
import type { IncomingMessage } from 'node:http';

export interface OriginOptions {
  readonly publicUrl?: string;
  readonly trustedProxies?: readonly string[];
}

/** The headers a trusted proxy sets and anyone else may forge. */
export const FORWARDED_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port'] as const;

export interface Origin {
  /** Whether the peer is a configured proxy (its X-Forwarded-* are kept). */
  trusted(req: IncomingMessage): boolean;
  /** The base URL clients reach Icefront at (no trailing slash). */
  publicBaseUrl(req: IncomingMessage): string;
}

export function createOrigin(options: OriginOptions): Origin {
  const proxies = new BlockList();
  for (const entry of options.trustedProxies ?? []) {
    const [address, bits] = entry.split('/');
    const family = isIPv6(address!) ? 'ipv6' : 'ipv4';
    if (bits === undefined) proxies.addAddress(address!, family);
    else proxies.addSubnet(address!, Number(bits), family);
  }
  const trusted = (req: IncomingMessage): boolean => {
    const peer = req.socket.remoteAddress;
    if (peer === undefined) return false;
    // an IPv4 peer on a dual-stack socket arrives as ::ffff:a.b.c.d
    const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer)?.[1];
    return v4 !== undefined ? proxies.check(v4, 'ipv4') : proxies.check(peer, isIPv6(peer) ? 'ipv6' : 'ipv4');
  };
  return {
    trusted,
    publicBaseUrl(req) {
      if (options.publicUrl !== undefined) return options.publicUrl;
      const forwardedHost = first(req.headers['x-forwarded-host']);
      if (forwardedHost !== undefined && trusted(req)) {
        const proto = first(req.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
        return `${proto}://${forwardedHost}`;
      }
      const { localAddress, localPort } = req.socket;
      if (localAddress === undefined || localPort === undefined) return 'http://127.0.0.1';
      const host = isIPv6(localAddress) && !localAddress.startsWith('::ffff:') ? `[${localAddress}]` : localAddress.replace(/^::ffff:/i, '');
      return `http://${host}:${localPort}`;
    },
  };
}

/** The first value of a header (a list's first element when a proxy chain appended to it). */
function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const v = text?.split(',')[0]?.trim();
  return v !== undefined && /^[A-Za-z0-9.\-:[\]]+$/.test(v) ? v : undefined;
}
