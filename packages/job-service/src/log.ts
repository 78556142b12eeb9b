// The one logger of the job service: pino (Fastify's own), for the HTTP API and for worker processes alike.
// Keys and secrets never reach it: headers are redacted, and a key or a results-link token in a URL is masked.
import { pino, type Logger as PinoLogger, type LoggerOptions } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const maskSecrets = (s: string) => s.replace(/(evk|whsec|evl)_[A-Za-z0-9_-]+/g, '$1_[redacted]');

/**
 * `overrides`: pino options that win over the defaults (e.g. `{ level: 'warn' }`).
 *
 * Lines go to stdout asynchronously: pino's default writes each line with a synchronous write(2) on the event
 * loop, a third of the loop's busy time under a burst of small requests (two lines each), and when whatever reads
 * stdout falls behind and the pipe fills, every request waits for it. Lines still pending are written when the
 * process exits (pino flushes its destination then).
 */
export function createLogger(level: string, overrides: LoggerOptions = {}): PinoLogger {
  return pino(
    {
      level,
      redact: ['req.headers.authorization', 'headers.authorization', 'signing_secret', '*.signing_secret'],
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: maskSecrets(String(req.url)),
          remoteAddress: req.ip,
        }),
      },
      ...overrides,
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
