// kb-server's own error codes, beyond HTTP's (@evident/http-guards' HTTP_ERRORS) and the library's (KB_ERRORS):
// the conditions of starting a server, and of POST /claims/text's extraction child process. Its README tables are checked against these (test/error-catalogue.test.ts).
import { defineCatalogue, errorMaker, EvidentError } from '@evident/contract';

export const KB_SERVER_ERRORS = defineCatalogue({
  startup_failed: { status: null, meaning: 'a server cannot start: a bad setting, a base it cannot open, a port' },
  extraction_timeout: { status: 408, meaning: "POST /claims/text's extraction ran past its budget and was stopped" },
  extraction_memory_limit: {
    status: 413,
    meaning: "POST /claims/text's extraction needed more than its process's heap cap and was stopped",
  },
  console_busy: {
    status: 429,
    meaning:
      "too many heavy calls (searches, topology computations, what-ifs) already running or waiting on the console's thread",
  },
  invalid_log_level: {
    status: 400,
    meaning: '--log-level, EVIDENT_LOG_LEVEL or LOG_LEVEL is not a pino level (at startup)',
  },
});

export const kbServerError = errorMaker(KB_SERVER_ERRORS);

/** A server cannot start; its message says what to fix (the bins print it and exit 1). */
export class StartupError extends EvidentError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('startup_failed', message, options.cause === undefined ? {} : { cause: options.cause });
  }
}
