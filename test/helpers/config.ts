/** A whole Config for tests that build Icefront in-process: loopback, port 0, silent, small planning bounds. */
import type { AuthConfig, CatalogConfig, Config } from '../../src/config/index.js';

export function testConfig(catalogs: readonly CatalogConfig[], options: { batchSize?: number; auth?: AuthConfig } = {}): Config {
  return {
    source: '',
    server: { host: '127.0.0.1', port: 0, bodyLimit: 1 << 20 },
    planning: { batchSize: options.batchSize ?? 100, maxResponseBytes: 1 << 20, cacheBytes: 64 << 20 },
    catalogs: new Map(catalogs.map((c) => [c.name, c])),
    logLevel: 'silent',
    ...(options.auth && { auth: options.auth }),
  };
}
