#!/usr/bin/env node
// kb-mcp: the Evident KB as a Model Context Protocol server over stdio. KB_DB_PATH names the base.
// stdout carries only protocol messages; everything else goes to stderr (logs: pino JSON lines, level from
// EVIDENT_LOG_LEVEL, else LOG_LEVEL, else info; `--log-level L` overrides). One incoming message (one line) is at
// most 4 MiB (`--max-message-bytes N` or KB_MCP_MAX_MESSAGE_BYTES); a larger one is answered with an error and the
// server keeps serving. `--strict` (or KB_STRICT=1) refuses claims that break the registered vocabularies instead
// of storing them with warnings. It never exits without a line on stderr.
import { parseArgs } from 'node:util';
import { createMcpServer } from '../mcp/server.js';
import { BoundedStdioServerTransport, MCP_MAX_MESSAGE_BYTES } from '../mcp/stdio.js';
import { createLogger, logLevelFrom } from '../surface/logger.js';
import { openBase, redact, StartupError, strictFrom } from '../surface/open-base.js';

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
  try {
    const { values } = parseArgs({
      options: {
        'log-level': { type: 'string' },
        'max-message-bytes': { type: 'string' },
        strict: { type: 'boolean' },
      },
      strict: true,
    });
    level = logLevelFrom(process.env, values['log-level']);
    maxBytes = maxMessageBytes(values['max-message-bytes']);
    strict = strictFrom(process.env, values.strict, 'kb-mcp');
  } catch (e) {
    throw e instanceof StartupError ? e : new StartupError(`kb-mcp: ${(e as Error).message}`);
  }
  const log = createLogger('kb-mcp', level);
  const db = await openBase(process.env.KB_DB_PATH, 'kb-mcp', undefined, { strict });
  const server = createMcpServer(db, { log: (message) => log.error(message) });
  let closing = false;
  const shutdown = async (code: number, why: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`kb-mcp: stopping (${why})\n`);
    try {
      await server.close();
      await db.close();
    } finally {
      process.exit(code);
    }
  };
  const fatal = (e: unknown) => {
    process.stderr.write(`kb-mcp: fatal: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    void shutdown(1, 'fatal error').catch(() => process.exit(1));
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  server.onclose = () => void shutdown(0, 'transport closed');
  server.onerror = (e) => log.warn({ err: e.message }, 'kb-mcp: protocol error');
  process.stdin.on('end', () => void shutdown(0, 'stdin closed'));
  process.on('SIGINT', () => void shutdown(0, 'SIGINT'));
  process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));
  const transport = new BoundedStdioServerTransport(process.stdin, process.stdout, {
    maxMessageBytes: maxBytes,
    onRefused: (code, message) => log.warn({ code }, `kb-mcp: refused a message: ${message}`),
  });
  await server.connect(transport);
  process.stderr.write(`kb-mcp: serving ${redact(process.env.KB_DB_PATH!)} over stdio\n`);
}

main().catch((e) => {
  process.stderr.write(
    e instanceof StartupError
      ? `${e.message}\n`
      : `kb-mcp: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exit(1);
});
