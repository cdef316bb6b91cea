export { createLogger, REDACT_PATHS, type Logger, type LoggerOptions } from './logger.js';
