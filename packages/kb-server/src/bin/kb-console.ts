#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node
// kb-console: REST API (/api/v1, OpenAPI at /api/v1/openapi.json, docs at /api/v1/docs) and web console (/).
import { parseArgs } from 'node:util';
import { useTextExtractor } from '@evident/kb';
import { startConsole } from '../console/server.js';
import { textExtractionProcess } from '../console/text-extraction.js';
import { httpLimitsFromEnv } from '../console/http-guards.js';
import { createLogger, logLevelFrom } from '../surface/logger.js';
import { openBase, redact, StartupError, strictFrom } from '../surface/open-base.js';
import { createShutdown, onStopSignals, shutdownTimeoutFrom } from '../surface/shutdown.js';

const USAGE = `usage: kb-console [--db PATH] [--port 8080] [--host 127.0.0.1] [--allowed-hosts NAMES] [--body-limit BYTES]
                  [--request-timeout-ms N] [--headers-timeout-ms N] [--keep-alive-timeout-ms N]
                  [--max-connections-per-client N] [--shutdown-timeout-ms N] [--replica-heap-mb N]
                  [--replica-idle-seconds N] [--log-level LEVEL] [--strict]

  --db PATH        knowledge base: a file path or a postgres:// URL (default: $KB_DB_PATH)
  --port N         port to listen on (default 8080; 0 picks a free one)
  --host HOST      interface to bind (default 127.0.0.1); any other than loopback needs KB_CONSOLE_TOKEN
  --allowed-hosts  comma-separated further names the Host header may carry (default: $KB_CONSOLE_ALLOWED_HOSTS);
                   loopback names and the bound host (all this machine's addresses for 0.0.0.0) always are
  --body-limit N   largest request body in bytes (default 4194304)
  --request-timeout-ms N     whole request deadline, else 408 (default $EVIDENT_REQUEST_TIMEOUT_MS, else 120000)
  --headers-timeout-ms N     request headers deadline, else 408 (default $EVIDENT_HEADERS_TIMEOUT_MS, else 20000)
  --keep-alive-timeout-ms N  idle keep-alive connections close (default $EVIDENT_KEEP_ALIVE_TIMEOUT_MS, else 5000)
  --max-connections-per-client N  open connections per address, 0: no cap
                   (default $EVIDENT_MAX_CONNECTIONS_PER_CLIENT, else 64)
  --shutdown-timeout-ms N    on SIGINT/SIGTERM, exit anyway if closing takes longer (a second signal exits at
                   once; default $EVIDENT_SHUTDOWN_TIMEOUT_MS, else 10000)
  --replica-heap-mb N  heap cap of the thread queries and what-ifs run on, in MB (at least 16; default: the
                   console's heap in use when the thread starts plus 512); past it a call is stopped, 413
  --replica-idle-seconds N  that thread ends after N s without a call, giving its memory back, and is built
                   again by the next (default $EVIDENT_THREAD_IDLE_SECONDS, else 30; at most 86400). It is built
                   in the background at start. The child process texts are extracted in (POST /claims/text)
                   ends after the same idle time
  --log-level L    fatal, error, warn, info, debug, trace or silent (default: $EVIDENT_LOG_LEVEL, else
                   $LOG_LEVEL, else info); logs are JSON lines (pino) on stderr
  --strict         refuse claims that break the registered vocabularies (predicate class, subject/object
                   types) instead of storing them with warnings (default: $KB_STRICT=1, else not strict)
  KB_CONSOLE_TOKEN when set, /api/v1 requires "Authorization: Bearer <token>"; required off loopback`;

function fail(message: string): never {
  process.stderr.write(`kb-console: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseCli() {
  return parseArgs({
    options: {
      db: { type: 'string' },
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      'body-limit': { type: 'string' },
      'allowed-hosts': { type: 'string' },
      'request-timeout-ms': { type: 'string' },
      'headers-timeout-ms': { type: 'string' },
      'keep-alive-timeout-ms': { type: 'string' },
      'max-connections-per-client': { type: 'string' },
      'shutdown-timeout-ms': { type: 'string' },
      'replica-heap-mb': { type: 'string' },
      'replica-idle-seconds': { type: 'string' },
      'log-level': { type: 'string' },
      strict: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values;
}

/** The replica thread's settings (kb-core's configureOffThread) from the flags and the environment. */
function offThreadSettings(heapMb: string | undefined, idleSeconds: string | undefined) {
  const int = (v: string, flag: string, min: number, max: number) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isInteger(n) || n < min || n > max)
      fail(`--${flag} must be an integer from ${min} to ${max}, got '${v}'`);
    return n;
  };
  const idle = idleSeconds ?? process.env.EVIDENT_THREAD_IDLE_SECONDS;
  return {
    ...(heapMb === undefined ? {} : { heap_mb: int(heapMb, 'replica-heap-mb', 16, 1_048_576) }),
    ...(idle === undefined || idle === '' ? {} : { idle_ms: int(idle, 'replica-idle-seconds', 0, 86_400) * 1000 }),
  };
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parseCli>;
  try {
    args = parseCli();
  } catch (e) {
    fail((e as Error).message);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be an integer from 0 to 65535, got '${args.port}'`);
  const bodyLimit = args['body-limit'] === undefined ? undefined : Number(args['body-limit']);
  if (bodyLimit !== undefined && (!Number.isInteger(bodyLimit) || bodyLimit < 1024))
    fail('--body-limit must be an integer of at least 1024 bytes');
  const limits = httpLimitsFromEnv(process.env);
  for (const [flag, field, min] of [
    ['request-timeout-ms', 'requestTimeoutMs', 1],
    ['headers-timeout-ms', 'headersTimeoutMs', 1],
    ['keep-alive-timeout-ms', 'keepAliveTimeoutMs', 1],
    ['max-connections-per-client', 'maxConnectionsPerClient', 0],
  ] as const) {
    const v = args[flag];
    if (v === undefined) continue;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) fail(`--${flag} must be an integer >= ${min}`);
    limits[field] = n;
  }
  const offThread = offThreadSettings(args['replica-heap-mb'], args['replica-idle-seconds']);
  const timeoutMs = shutdownTimeoutFrom(process.env, args['shutdown-timeout-ms']);
  if (typeof timeoutMs === 'string') fail(timeoutMs);
  const allowedHosts = (args['allowed-hosts'] ?? process.env.KB_CONSOLE_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  let level: string;
  try {
    level = logLevelFrom(process.env, args['log-level']);
  } catch (e) {
    fail((e as Error).message);
  }
  const path = args.db ?? process.env.KB_DB_PATH;
  let strict: boolean;
  try {
    strict = strictFrom(process.env, args.strict, 'kb-console');
  } catch (e) {
    fail((e as Error).message);
  }
  const db = await openBase(path, 'kb-console', undefined, { strict });
  db.configureOffThread(offThread);
  // ingestText's extraction runs in a child process, so that a long text never holds the console's thread.
  const extraction = textExtractionProcess(offThread.idle_ms === undefined ? {} : { idleMs: offThread.idle_ms });
  useTextExtractor(extraction.extract);
  const token = process.env.KB_CONSOLE_TOKEN || undefined;
  const log = createLogger('kb-console', level);
  const options = {
    token,
    ...(bodyLimit ? { bodyLimit } : {}),
    loggerInstance: log,
    port,
    host: args.host!,
    limits,
    allowedHosts,
    warmReplica: true,
  };
  const running = await startConsole(db, options).catch(async (e: unknown) => {
    extraction.close();
    await db.close();
    throw e;
  });
  const { url } = running;
  onStopSignals(
    createShutdown({
      name: 'kb-console',
      timeoutMs,
      close: async () => {
        await running.close();
        extraction.close();
        await db.close();
      },
    }),
  );
  // The one line a person starting it needs, whatever the log level.
  process.stderr.write(
    `kb-console: ${redact(path!)} at ${url}/ (API ${url}/api/v1/, docs ${url}/api/v1/docs)${token ? ', bearer token required' : ''}\n`,
  );
}

// Deliberate likeness: kb-mcp.ts ends alike; each bin names itself in its message.
main().catch((e) => {
  process.stderr.write(
    e instanceof StartupError
      ? `${e.message}\n`
      : `kb-console: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exit(1);
});
