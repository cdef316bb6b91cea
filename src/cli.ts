/**
 * The `icefront` command.
 *   icefront [serve] [--config FILE] [--port N] [--host H]   run the gateway
 *   icefront plan …                                          plan a scan (cli-plan.ts)
 */
import { parseArgs } from 'node:util';
import { describeAuth } from './auth/index.js';
import { loadConfigFile } from './config/index.js';
import { isIcefrontError } from './errors/index.js';
import { PLAN_USAGE, planCommand, UsageError } from './cli-plan.js';
import { DEFAULT_SHUTDOWN_GRACE_MS, startIcefront, type RunningIcefront } from './main.js';

const USAGE = `Usage:
  icefront [serve] [--config FILE] [--port N] [--host HOST]
      Run Icefront (default config: ./config.example.yaml).
${PLAN_USAGE}  icefront --help
`;

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: 'string', short: 'c', default: 'config.example.yaml' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfigFile(values.config!);
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: not a port number: ${values.port}`);
  }
  const running = await startIcefront(config, { port, host: values.host });
  const first = config.catalogs.keys().next().value ?? 'demo';
  console.log(`Icefront is listening on ${running.url}`);
  console.log(`Catalogs: ${[...config.catalogs.keys()].join(', ')}`);
  console.log(`Status page: ${running.url}/`);
  for (const line of describeAuth(config)) console.log(line);
  const bearer = config.auth ? `-H "Authorization: Bearer $TOKEN" ` : '';
  console.log(`Try:  curl ${bearer}'${running.url}/v1/config?warehouse=${encodeURIComponent(first)}'`);
  handleSignals(running);
}

/**
 * SIGTERM / SIGINT: graceful stop, exit 0 once every request in flight finished; exit 1 when the
 * grace period cut some (a supervisor should know requests were lost). A second signal exits at
 * once, with 1. SIGHUP: reload the config file (refused and logged when invalid).
 */
function handleSignals(running: RunningIcefront): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      running.logger.warn({ signal }, 'second signal: exiting now, without waiting for requests in flight');
      process.exit(1);
    }
    stopping = true;
    const graceMs = running.config().server.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
    running.logger.info({ signal, graceMs }, `shutting down: no new connections; requests in flight have ${graceMs} ms to finish (a second signal exits at once)`);
    running.shutdown(graceMs).then(
      (outcome) => {
        if (outcome === 'cut') running.logger.warn({ graceMs }, 'grace period over: requests still in flight were cut');
        process.exit(outcome === 'drained' ? 0 : 1);
      },
      (err: unknown) => {
        running.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', () => {
    running.logger.info('SIGHUP: reloading the configuration file');
    running.reload().catch((err: unknown) => running.logger.error({ err }, 'configuration reload failed'));
  });
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === undefined || command.startsWith('-')) return serve(argv);
  if (command === 'serve') return serve(rest);
  if (command === 'plan') return planCommand(rest, (line) => console.log(line));
  throw new UsageError(`unknown command: ${command}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
    process.stderr.write(`icefront: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (isIcefrontError(err, 'LISTEN_FAILED')) {
    process.stderr.write(`icefront: ${err.message}\n`);
    process.exit(1);
  }
  if (isIcefrontError(err, 'CONFIG_INVALID')) {
    process.stderr.write(`icefront: invalid configuration: ${err.message}\n`);
    process.exit(2);
  }
  if (isIcefrontError(err)) {
    process.stderr.write(`icefront: ${err.type} (${err.status}): ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`icefront: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
