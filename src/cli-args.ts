/**
 * What every `icefront` command shares: its own usage text on errors and `--help`, and the
 * config file it reads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfigFile, type Config } from './config/index.js';

/** A command line the command cannot run: printed with that command's usage, exit status 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** One command's usage block (indented lines, as in the full usage) as its own help. */
export const usageOf = (block: string): string => `Usage:\n${block}`;

/** The config file read when `--config` is not given, relative to the working directory. */
export const DEFAULT_CONFIG = 'config.example.yaml';

/** `parseArgs`, whose errors (an unknown option, a missing value) come with the command's usage. */
export function parseCommand<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) throw new UsageError(err.message, usage);
    throw err;
  }
}

/**
 * The config a command runs with: `--config FILE`, else ./config.example.yaml (there in a
 * checkout of the repository). A file that is not there is named with its resolved path and
 * how to pass another, not as a read error.
 */
export function readConfig(given: string | undefined, usage: string): Config {
  const file = given ?? DEFAULT_CONFIG;
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved)) {
    const why = given === undefined ? `no --config given and no ${DEFAULT_CONFIG} here: ${resolved} does not exist` : `no config file at ${resolved}`;
    throw new UsageError(`${why}. Pass one with --config FILE (docs/configuration.md describes it).`, usage);
  }
  return loadConfigFile(file);
}
