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
const kbPortText = process.env.KB_CONSOLE_PORT ?? '8080';
const kbPort = Number(kbPortText);

/**
 * Why a product did not start, in one line a newcomer can act on: a port in use names the port and the variable
 * that moves it (the usual case: another `npm start`, or another program, already on 8000 or 8080).
 */
function notStarted(product: string, port: number, portVariable: string, e: unknown): string {
  const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  // A StartupError carries its own code (startup_failed); the system's (EADDRINUSE, EACCES) is on its cause.
  const code = err.cause?.code ?? err.code;
  if (code === 'EADDRINUSE') {
    return (
      `${product}: port ${port} is already in use (another npm start, or another program, listens on it). ` +
      `Stop that program, or choose another port: ${portVariable}=<port> npm start (0 picks a free one).`
    );
  }
  if (code === 'EACCES')
    return `${product}: not allowed to listen on port ${port}; choose another with ${portVariable}.`;
  return `${product} did not start: ${err.message}`;
}

type Kb = { kb: Awaited<ReturnType<typeof openBase>>; console: RunningConsole };
const kbStarting: Promise<Kb> = (async () => {
  if (!/^\d+$/.test(kbPortText) || kbPort > 65535) {
    throw new Error(`KB_CONSOLE_PORT must be a port number (0-65535), got '${kbPortText}'`);
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
const jobsStarting = startServer(config, { logger: { level: process.env.EVIDENT_LOG_LEVEL ?? 'warn' } });

// Both or neither: a product that cannot start stops the other, so that nothing is left half-started.
const [jobsStart, kbStart] = await Promise.allSettled([jobsStarting, kbStarting]);
if (jobsStart.status === 'rejected' || kbStart.status === 'rejected') {
  if (jobsStart.status === 'rejected') {
    console.error(notStarted('Evident discovery job service', config.port, 'PORT', jobsStart.reason));
  }
  if (kbStart.status === 'rejected') {
    console.error(notStarted('Evident KB console', kbPort, 'KB_CONSOLE_PORT', kbStart.reason));
  }
  const stops: Promise<unknown>[] = [];
  if (jobsStart.status === 'fulfilled') stops.push(jobsStart.value.close());
  if (kbStart.status === 'fulfilled') stops.push(kbStart.value.console.close().then(() => kbStart.value.kb.close()));
  await Promise.allSettled(stops);
  console.error('npm start stopped: nothing is left running.');
  process.exit(1);
}
const server = jobsStart.value;
const kb = kbStart.value;
const dev = await ensureDevKey(server.store, config.dataDir);
const example = join(root, 'packages/target-discovery/examples/request.json');

console.log(`Evident discovery job service listening on ${server.url}  (data: ${config.dataDir})`);
console.log(`  API docs:        ${server.url}/v1/docs   (OpenAPI: ${server.url}/v1/openapi.json)`);
console.log(`  development key: ${dev.key}`);
console.log(`                   (${dev.reused ? 'reused from' : 'new, saved in'} ${dev.file}; plan ${dev.plan})`);
console.log(`  try:  curl -s -X POST ${server.url}/v1/targets/discover -H "Authorization: Bearer ${dev.key}" \\`);
console.log(`          -H 'content-type: application/json' -d @${example}`);
const kbUrl = kb.console.url;
console.log(
  `Evident KB console listening on ${kbUrl}/  (base: ${kbPath}; REST API ${kbUrl}/api/v1/, docs ${kbUrl}/api/v1/docs)`,
);

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    const kbDone = kb.console.close().then(() => kb.kb.close());
    Promise.all([kbDone, server.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
