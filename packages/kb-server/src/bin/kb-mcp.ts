#!/usr/bin/env node
// kb-mcp: the Evident KB as a Model Context Protocol server over stdio. KB_DB_PATH names the base.
// stdout carries only protocol messages; everything else goes to stderr (logs: pino JSON lines, level from
// EVIDENT_LOG_LEVEL, else LOG_LEVEL, else info; `--log-level L` overrides). One incoming message (one line) is at
// most 4 MiB (`--max-message-bytes N` or KB_MCP_MAX_MESSAGE_BYTES); a larger one is answered with an error and the
// server keeps serving. `--strict` (or KB_STRICT=1) refuses claims that break the registered vocabularies instead
// of storing them with warnings. It never exits without a line on stderr. Stopping (stdin closed, SIGINT, SIGTERM)
// closes the server and the base within `--shutdown-timeout-ms` (EVIDENT_SHUTDOWN_TIMEOUT_MS, default 10 s), else
// exits anyway with a line saying so; a second signal exits at once.
import { parseArgs } from 'node:util';
import { createMcpServer } from '../mcp/server.js';
import { BoundedStdioServerTransport, MCP_MAX_MESSAGE_BYTES } from '../mcp/stdio.js';
import { createLogger, logLevelFrom } from '../surface/logger.js';
import { openBase, redact, StartupError, strictFrom } from '../surface/open-base.js';
import { createShutdown, onStopSignals, shutdownTimeoutFrom } from '../surface/shutdown.js';

// Any stray console output from dependencies must not corrupt the protocol stream.
for (const m of ['log', 'info', 'debug', 'warn'] as const) console[m] = (...a: unknown[]) => console.error(...a);

function maxMessageBytes(flag: string | undefined): number {
  const raw = flag ?? process.env.KB_MCP_MAX_MESSAGE_BYTES;
  if (raw === undefined || raw === '') return MCP_MAX_MESSAGE_BYTES;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1024)
    throw new StartupError(`kb-mcp: --max-message-bytes must be an integer of at least 1024 (got '${raw}')`);
  return n;
}

async function main(): Promise<void> {
  let level: string;
  let maxBytes: number;
  let strict: boolean;
  let timeoutMs: number;
  try {
    const { values } = parseArgs({
      options: {
        'log-level': { type: 'string' },
        'max-message-bytes': { type: 'string' },
        'shutdown-timeout-ms': { type: 'string' },
        strict: { type: 'boolean' },
      },
      strict: true,
    });
    level = logLevelFrom(process.env, values['log-level']);
    maxBytes = maxMessageBytes(values['max-message-bytes']);
    strict = strictFrom(process.env, values.strict, 'kb-mcp');
    const timeout = shutdownTimeoutFrom(process.env, values['shutdown-timeout-ms']);
    if (typeof timeout === 'string') throw new StartupError(`kb-mcp: ${timeout}`);
    timeoutMs = timeout;
  } catch (e) {
    throw e instanceof StartupError ? e : new StartupError(`kb-mcp: ${(e as Error).message}`);
  }
  const log = createLogger('kb-mcp', level);
  const db = await openBase(process.env.KB_DB_PATH, 'kb-mcp', undefined, { strict });
  const server = createMcpServer(db, { log: (message) => log.error(message) });
  // The server first: its close aborts the calls in progress, so that writes waiting their turn are not started
  // (mcp/server.ts); then the base, which finishes the write under way.
  const shutdown = createShutdown({
    name: 'kb-mcp',
    timeoutMs,
    close: async () => {
      await server.close();
      await db.close();
    },
  });
  const fatal = (e: unknown) => {
    process.stderr.write(`kb-mcp: fatal: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    shutdown.stop(1, 'fatal error');
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  server.onclose = () => shutdown.stop(0, 'transport closed');
  server.onerror = (e) => log.warn({ err: e.message }, 'kb-mcp: protocol error');
  process.stdin.on('end', () => shutdown.stop(0, 'stdin closed'));
  onStopSignals(shutdown);
  const transport = new BoundedStdioServerTransport(process.stdin, process.stdout, {
    maxMessageBytes: maxBytes,
    onRefused: (code, message) => log.warn({ code }, `kb-mcp: refused a message: ${message}`),
  });
  await server.connect(transport);
  process.stderr.write(`kb-mcp: serving ${redact(process.env.KB_DB_PATH!)} over stdio\n`);
}

// Deliberate likeness: kb-console.ts ends alike; each bin names itself in its message.
main().catch((e) => {
  process.stderr.write(
    e instanceof StartupError
      ? `${e.message}\n`
      : `kb-mcp: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exit(1);
});
