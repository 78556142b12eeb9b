// `npm start`: both products on their embedded defaults, data under ./data (EVIDENT_DATA_DIR).
// - Discovery job service: `evident-jobs serve` in this process, SQLite + worker threads, 127.0.0.1:8000 (PORT and
//   the EVIDENT_* variables apply), with a development API key kept in ./data/dev-api-key.json (readable by you
//   only; the service stores just its hash) and reused across starts.
// - Evident KB: `kb-console` (REST API + web console) on ./data/kb.sqlite, 127.0.0.1:8080 (KB_CONSOLE_PORT), run
//   as its own process exactly as the bin runs.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv, ensureDevKey, startServer } from '@evident/job-service';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const config = configFromEnv();
config.dataDir = resolve(process.env.EVIDENT_DATA_DIR ?? 'data');
mkdirSync(config.dataDir, { recursive: true });

const kbPath = join(config.dataDir, 'kb.sqlite');
const kbConsole = spawn(
  process.execPath,
  [...process.execArgv, join(root, 'packages/kb-core/src/bin/kb-console.ts'), '--db', kbPath,
    '--port', process.env.KB_CONSOLE_PORT ?? '8080'],
  { stdio: ['ignore', 'inherit', 'pipe'], env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' } },
);
const kbUrl = new Promise<string>((ok, fail) => {
  // Its start-up line is summarised below; what it says after that (warnings, errors) passes through.
  let err = '';
  let listening = false;
  kbConsole.stderr!.on('data', (d) => {
    if (listening) return void process.stderr.write(d);
    err += d;
    const url = / at (http:\/\/\S+?)\/ /.exec(err)?.[1];
    if (url) {
      listening = true;
      ok(url);
    }
  });
  kbConsole.once('exit', (code) => fail(new Error(`kb-console exited (${code}) before listening:\n${err}`)));
});

const server = await startServer(config, { logger: { level: process.env.EVIDENT_LOG_LEVEL ?? 'warn' } }).catch((e) => {
  console.error(`Evident discovery job service did not start: ${(e as Error).message}`);
  kbConsole.kill('SIGTERM');
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
try {
  const url = await kbUrl;
  console.log(`Evident KB console listening on ${url}/  (base: ${kbPath}; REST API ${url}/api/v1/, docs ${url}/api/v1/docs)`);
} catch (e) {
  console.error(`Evident KB console did not start: ${(e as Error).message}`);
}

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    kbConsole.kill('SIGTERM');
    server.close().then(() => process.exit(0), () => process.exit(1));
  });
}
// If this process dies without a signal, do not leave the console behind.
process.on('exit', () => kbConsole.kill('SIGTERM'));
