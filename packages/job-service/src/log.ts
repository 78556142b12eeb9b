// The one logger of the job service: pino (Fastify's own), for the HTTP API and for worker processes alike.
// Keys and secrets never reach it: headers are redacted, and a key or a results-link token in a URL is masked.
import { pino, type Logger as PinoLogger, type LoggerOptions } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Log bytes held in memory while stdout is not read (`EVIDENT_LOG_BUFFER_MB`, 16): about 50,000 request lines. */
export const LOG_BUFFER_DEFAULT_BYTES = 16 * 1024 * 1024;

const maskSecrets = (s: string) => s.replace(/(evk|whsec|evl)_[A-Za-z0-9_-]+/g, '$1_[redacted]');

/**
 * `overrides`: pino options that win over the defaults (e.g. `{ level: 'warn' }`).
 *
 * Lines go to stdout asynchronously: pino's default writes each line with a synchronous write(2) on the event
 * loop, a third of the loop's busy time under a burst of small requests (two lines each), and when whatever reads
 * stdout falls behind and the pipe fills, every request waits for it. Lines still pending are written when the
 * process exits (pino flushes its destination then).
 *
 * What waits is bounded by `bufferBytes`: with a reader that never reads, an unbounded buffer would grow with
 * every request until the process runs out of memory. A line that does not fit is dropped (sonic-boom's
 * `maxLength`) and counted; once the buffer has been written out (the reader caught up), one warning says how
 * many were dropped.
 */
export function createLogger(
  level: string,
  overrides: LoggerOptions = {},
  bufferBytes: number = LOG_BUFFER_DEFAULT_BYTES,
): PinoLogger {
  const maxLength = Math.max(64 * 1024, bufferBytes);
  const destination = pino.destination({ dest: 1, sync: false, maxLength });
  const logger = pino(
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
    destination,
  );
  let dropped = 0;
  destination.on('drop', () => {
    dropped++;
  });
  // 'drain': everything held has been written. The count is reset before the warning is written, so the warning
  // itself (dropped in turn if the reader stalls again) is counted in the next report, never lost silently.
  destination.on('drain', () => {
    if (dropped === 0) return;
    const lines = dropped;
    dropped = 0;
    logger.warn({ dropped_lines: lines, buffer_bytes: maxLength }, 'log lines dropped while stdout was not read');
  });
  return logger;
}
