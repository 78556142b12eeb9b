// `npm start`: starts the products on their embedded defaults.
// Discovery job service: `evident-jobs serve` with SQLite under ./data, worker threads, 127.0.0.1:8000
// (PORT and the EVIDENT_* variables of the job service apply), plus a development API key that is kept in
// ./data/dev-api-key.json (readable by you only; the service stores just its hash) and reused across starts.
import { resolve } from 'node:path';
import { configFromEnv, ensureDevKey, startServer } from '@evident/job-service';

const config = configFromEnv();
config.dataDir = resolve(process.env.EVIDENT_DATA_DIR ?? 'data');
const server = await startServer(config, { logger: { level: process.env.EVIDENT_LOG_LEVEL ?? 'warn' } });
const dev = await ensureDevKey(server.store, config.dataDir);

console.log(`Evident discovery job service listening on ${server.url}  (data: ${config.dataDir})`);
console.log(`  API docs:        ${server.url}/v1/docs   (OpenAPI: ${server.url}/v1/openapi.json)`);
console.log(`  development key: ${dev.key}`);
console.log(`                   (${dev.reused ? 'reused from' : 'new, saved in'} ${dev.file}; plan ${dev.plan})`);
console.log(`  try:  curl -s -X POST ${server.url}/v1/demo/run -H "Authorization: Bearer ${dev.key}" \\`);
console.log(`          -H 'content-type: application/json' -d '{"items": 10, "cpu_ms": 2000}'`);

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    server.close().then(() => process.exit(0), () => process.exit(1));
  });
}
