#!/usr/bin/env node
// kb-mcp: the Evident KB as a Model Context Protocol server over stdio. KB_DB_PATH names the base.
// stdout carries only protocol messages; everything else goes to stderr (logs: pino JSON lines, level from
// EVIDENT_LOG_LEVEL, else LOG_LEVEL, else info; `--log-level L` overrides).
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../mcp/server.js';
import { createLogger, logLevelFrom } from '../surface/logger.js';
import { openBase, redact, StartupError } from '../surface/open-base.js';

// Any stray console output from dependencies must not corrupt the protocol stream.
for (const m of ['log', 'info', 'debug', 'warn'] as const) console[m] = (...a: unknown[]) => console.error(...a);

async function main(): Promise<void> {
  let level: string;
  try {
    const { values } = parseArgs({ options: { 'log-level': { type: 'string' } }, strict: true });
    level = logLevelFrom(process.env, values['log-level']);
  } catch (e) {
    throw new StartupError(`kb-mcp: ${(e as Error).message}`);
  }
  const log = createLogger('kb-mcp', level);
  const db = await openBase(process.env.KB_DB_PATH, 'kb-mcp');
  const server = createMcpServer(db, { log: (message) => log.error(message) });
  let closing = false;
  const shutdown = async (code: number) => {
    if (closing) return;
    closing = true;
    try {
      await server.close();
      await db.close();
    } finally {
      process.exit(code);
    }
  };
  server.onclose = () => void shutdown(0);
  process.stdin.on('end', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  await server.connect(new StdioServerTransport());
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
