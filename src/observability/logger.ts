import { pino, type Logger, type DestinationStream } from 'pino';

/**
 * Paths pino redacts wherever they appear in a log record: inbound Authorization, tokens,
 * secrets and vended storage credentials must never reach a log line.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.authorization',
  '*.token',
  '*.secret',
  '*.password',
  '*["client-secret"]',
  '*["token-secret"]',
  '*["s3.secret-access-key"]',
  '*["s3.session-token"]',
  '*["s3.access-key-id"]',
  'config["s3.secret-access-key"]',
  'config["s3.session-token"]',
];

export interface LoggerOptions {
  readonly level: string;
  /** Where records go; stdout by default. Tests pass a stream to inspect them. */
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'icefront' },
      redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}

export type { Logger } from 'pino';
