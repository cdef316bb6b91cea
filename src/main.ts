/**
 * Composition root: config → logger → storage → catalogs → service → http.
 * Nothing imports this file; cli.ts and tests call it.
 */
import type { FastifyInstance } from 'fastify';
import { createFilesystemCatalog, type Catalog } from './catalogs/index.js';
import type { Config } from './config/index.js';
import { createLogger, type Logger } from './observability/index.js';
import { createService, type Service } from './service/index.js';
import { buildServer } from './http/index.js';

export interface Icefront {
  readonly app: FastifyInstance;
  readonly logger: Logger;
}

export interface RunningIcefront extends Icefront {
  /** Base URL clients use, e.g. http://127.0.0.1:8181 */
  readonly url: string;
  close(): Promise<void>;
}

/** The catalogs and the use cases over them, without HTTP (the CLI's `plan` uses this). */
export function buildService(config: Config): Service {
  const catalogs = new Map<string, Catalog>();
  for (const [name, catalogConfig] of config.catalogs) {
    catalogs.set(name, createFilesystemCatalog(catalogConfig));
  }
  return createService({ catalogs });
}

export function buildIcefront(config: Config, options: { logger?: Logger } = {}): Icefront {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const app = buildServer({ service: buildService(config), logger, bodyLimit: config.server.bodyLimit });
  return { app, logger };
}

/** Build and listen. `port` 0 picks a free port (tests). */
export async function startIcefront(
  config: Config,
  options: { logger?: Logger; port?: number; host?: string } = {},
): Promise<RunningIcefront> {
  const icefront = buildIcefront(config, options);
  const host = options.host ?? config.server.host;
  await icefront.app.listen({ host, port: options.port ?? config.server.port });
  const address = icefront.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { ...icefront, url: `http://${shownHost}:${port}`, close: () => icefront.app.close() };
}
