#!/usr/bin/env node
// kb-mcp: the Evident KB as a Model Context Protocol server over stdio. KB_DB_PATH names the base.
// stdout carries only protocol messages; everything else goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../mcp/server.js';
import { openBase, StartupError } from '../mcp/open-base.js';

// Any stray console output from dependencies must not corrupt the protocol stream.
for (const m of ['log', 'info', 'debug', 'warn'] as const) console[m] = (...a: unknown[]) => console.error(...a);

async function main(): Promise<void> {
  const db = await openBase(process.env.KB_DB_PATH, 'kb-mcp');
  const server = createMcpServer(db);
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
  process.stderr.write(`kb-mcp: serving ${process.env.KB_DB_PATH!.replace(/:[^:@/]*@/, ':***@')} over stdio\n`);
}

main().catch((e) => {
  process.stderr.write(e instanceof StartupError ? `${e.message}\n` : `kb-mcp: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
