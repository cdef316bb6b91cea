/**
 * The `icefront` command.
 *   icefront [serve] [--config FILE] [--port N] [--host H]   run the gateway
 *   icefront plan …                                          plan a scan (cli-plan.ts)
 *   icefront COMMAND --help, icefront help [COMMAND]         usage
 *   icefront --version                                       the package's version
 */
import fs from 'node:fs';
import { describeAuth } from './auth/index.js';
import { isIcefrontError } from './errors/index.js';
import { DEFAULT_CONFIG, parseCommand, readConfig, usageOf, UsageError } from './cli-args.js';
import { PLAN_USAGE, planCommand } from './cli-plan.js';
import { DEFAULT_SHUTDOWN_GRACE_MS, startIcefront, type RunningIcefront } from './main.js';

const SERVE_USAGE = `  icefront [serve] [--config FILE] [--port N] [--host HOST]
      Run Icefront (default config: ./${DEFAULT_CONFIG}). --port and --host override the
      config's server.port (0 picks a free port) and server.host.
`;
const USAGE = `Usage:
${SERVE_USAGE}${PLAN_USAGE}  icefront COMMAND --help, icefront help [COMMAND]
      Print this, or one command's usage.
  icefront --version
      Print Icefront's version.
`;

/** The version in package.json, one folder above this file both in src/ and in dist/. */
function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return String(pkg.version);
}

async function serve(args: string[]): Promise<void> {
  const usage = usageOf(SERVE_USAGE);
  const { values } = parseCommand(
    {
      args,
      options: {
        config: { type: 'string', short: 'c' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    },
    usage,
  );
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const config = readConfig(values.config, usage);
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: not a port number: ${values.port}`, usage);
  }
  // the process is this instance's alone: its process metrics are Icefront's
  const running = await startIcefront(config, { port, host: values.host, processMetrics: true });
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

const COMMANDS: Record<string, { readonly usage: string; run(args: string[]): Promise<void> }> = {
  serve: { usage: SERVE_USAGE, run: serve },
  plan: { usage: PLAN_USAGE, run: (args) => planCommand(args, (line) => console.log(line)) },
};

const commandOf = (name: string | undefined) => (name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined);

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    const topic = commandOf(rest[0]);
    process.stdout.write(topic ? usageOf(topic.usage) : USAGE);
    return;
  }
  if (command === '--version') {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  if (command === undefined || command.startsWith('-')) return serve(argv);
  const known = commandOf(command);
  if (!known) throw new UsageError(`unknown command: ${command}`);
  return known.run(rest);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`icefront: ${err.message}\n\n${err.usage ?? USAGE}`);
    process.exit(2);
  }
  if (isIcefrontError(err, 'LISTEN_FAILED')) {
    process.stderr.write(`icefront: ${err.message}\n`);
    process.exit(1);
  }
  if (isIcefrontError(err, 'CONFIG_INVALID')) {
    // every problem in the file, one line each (config/problems.ts)
    const problems = err.message.split('\n');
    process.stderr.write(
      problems.length === 1
        ? `icefront: invalid configuration: ${err.message}\n`
        : `icefront: invalid configuration, ${problems.length} problems:\n${problems.map((line) => `  ${line}\n`).join('')}`,
    );
    process.exit(2);
  }
  if (isIcefrontError(err)) {
    process.stderr.write(`icefront: ${err.type} (${err.status}): ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`icefront: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
