// `npm start`: both products on their embedded defaults, data under ./data (EVIDENT_DATA_DIR).
// - Discovery job service: `evident-jobs serve` in this process, SQLite + worker threads, 127.0.0.1:8000 (PORT and
//   the EVIDENT_* variables apply), with a development API key kept in ./data/dev-api-key.json (readable by you
//   only; the service stores just its hash) and reused across starts.
// - Evident KB: the console (REST API + web console, what `kb-console` serves) on ./data/kb.sqlite, 127.0.0.1:8080
//   (KB_CONSOLE_PORT), started in this process through @evident/kb-server's startConsole, which answers with the
//   URL it listens on: nothing to parse out of a child's output, and one process to stop.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv, ensureDevKey, startServer } from '@evident/job-service';
import {
  createLogger,
  logLevelFrom,
  openBase,
  startConsole,
  strictFrom,
  type RunningConsole,
} from '@evident/kb-server';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const config = configFromEnv();
config.dataDir = resolve(process.env.EVIDENT_DATA_DIR ?? 'data');
mkdirSync(config.dataDir, { recursive: true, mode: 0o700 }); // keys and bases: readable by you only
// Both products log at EVIDENT_LOG_LEVEL (LOG_LEVEL for the KB, as before), warn unless set.
const kbLogLevel = logLevelFrom({
  EVIDENT_LOG_LEVEL: process.env.EVIDENT_LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'warn',
});

const kbPath = join(config.dataDir, 'kb.sqlite');
const kbPort = Number(process.env.KB_CONSOLE_PORT ?? '8080');
const kbStarted: Promise<{ kb: Awaited<ReturnType<typeof openBase>>; console: RunningConsole }> = (async () => {
  if (!Number.isInteger(kbPort) || kbPort < 0 || kbPort > 65535) {
    throw new Error(`KB_CONSOLE_PORT must be a port number, got '${process.env.KB_CONSOLE_PORT}'`);
  }
  const kb = await openBase(kbPath, 'kb-console', undefined, { strict: strictFrom(process.env, false, 'kb-console') });
  try {
    const loggerInstance = createLogger('kb-console', kbLogLevel);
    // The same request timeouts and connection cap as the job service (EVIDENT_* variables).
    const limits = {
      requestTimeoutMs: config.requestTimeoutMs,
      headersTimeoutMs: config.headersTimeoutMs,
      keepAliveTimeoutMs: config.keepAliveTimeoutMs,
      maxConnectionsPerClient: config.maxConnectionsPerClient,
    };
    return { kb, console: await startConsole(kb, { port: kbPort, loggerInstance, limits }) };
  } catch (e) {
    await kb.close();
    throw e;
  }
})();
kbStarted.catch(() => {}); // reported below, after the job service's lines

const server = await startServer(config, { logger: { level: process.env.EVIDENT_LOG_LEVEL ?? 'warn' } }).catch((e) => {
  console.error(`Evident discovery job service did not start: ${(e as Error).message}`);
  process.exit(1);
});
const dev = await ensureDevKey(server.store, config.dataDir);
const example = join(root, 'packages/target-discovery/examples/request.json');

console.log(`Evident discovery job service listening on ${server.url}  (data: ${config.dataDir})`);
console.log(`  API docs:        ${server.url}/v1/docs   (OpenAPI: ${server.url}/v1/openapi.json)`);
console.log(`  development key: ${dev.key}`);
console.log(`                   (${dev.reused ? 'reused from' : 'new, saved in'} ${dev.file}; plan ${dev.plan})`);
console.log(`  try:  curl -s -X POST ${server.url}/v1/targets/discover -H "Authorization: Bearer ${dev.key}" \\`);
console.log(`          -H 'content-type: application/json' -d @${example}`);
let kb: Awaited<typeof kbStarted> | undefined;
try {
  kb = await kbStarted;
  const url = kb.console.url;
  console.log(
    `Evident KB console listening on ${url}/  (base: ${kbPath}; REST API ${url}/api/v1/, docs ${url}/api/v1/docs)`,
  );
} catch (e) {
  console.error(`Evident KB console did not start: ${(e as Error).message}`);
}

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    const kbDone = kb ? kb.console.close().then(() => kb!.kb.close()) : Promise.resolve();
    Promise.all([kbDone, server.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
