// The one logger of the KB bins: pino (Fastify's own), JSON lines on stderr (stdout is kb-mcp's protocol
// channel). The level comes from --log-level, else EVIDENT_LOG_LEVEL (the job service's name for it), else
// LOG_LEVEL (the name these bins read before), else 'info'.
import { pino, type Logger } from 'pino';
import { kbServerError } from './error-codes.js';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The log level asked for, checked: the flag, EVIDENT_LOG_LEVEL, LOG_LEVEL, or 'info'. */
export function logLevelFrom(env: NodeJS.ProcessEnv = process.env, flag?: string): string {
  const [source, level] =
    flag !== undefined
      ? ['--log-level', flag]
      : env.EVIDENT_LOG_LEVEL
        ? ['EVIDENT_LOG_LEVEL', env.EVIDENT_LOG_LEVEL]
        : env.LOG_LEVEL
          ? ['LOG_LEVEL', env.LOG_LEVEL]
          : ['default', 'info'];
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    const message = `${source} must be one of ${LOG_LEVELS.join(', ')}, got '${level}'`;
    throw kbServerError('invalid_log_level', message);
  }
  return level;
}

/** A pino logger named after the bin, writing to stderr. */
export function createLogger(name: string, level: string): Logger {
  return pino({ name, level }, pino.destination({ fd: 2, sync: true }));
}
