#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node
// evident-jobs: serve | worker | keys create/list/revoke | submit | results | export
// The bin sets glibc's mmap threshold (ignored elsewhere): left dynamic, it rises to the size of every large buffer
// freed (up to 32 MB), after which such buffers come from malloc's arenas, and freed they stay resident (README,
// "Memory after large bodies"). Fixed at its default of 128 KiB, they are mapped and unmapped whole.
import { Command, InvalidArgumentError, Option } from 'commander';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { configFromEnv, type ServiceConfig } from '../config.js';
import { startServer, startWorker } from '../service.js';
import { openStore } from '../store/open.js';
import { PLAN_NAMES, type PlanName } from '../plans.js';
import { LOG_LEVELS } from '../log.js';
import { submitCommand } from './submit.js';
import { resultsCommand } from './results.js';
import { exportCommand } from './export.js';

const int =
  (name: string, min = 0) =>
  (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
    return n;
  };

const program = new Command('evident-jobs').description('Evident discovery job service');

function storeConfig(o: { dataDir?: string; databaseUrl?: string }): ServiceConfig {
  const c = configFromEnv();
  if (o.dataDir) c.dataDir = resolve(o.dataDir);
  if (o.databaseUrl) c.databaseUrl = o.databaseUrl;
  return c;
}

// The same setting has the same flag in every command: --threads (worker threads running jobs), --log-level.
const threadsOption = () =>
  new Option('--threads <n>', 'worker threads running jobs ($EVIDENT_WORKER_THREADS)').argParser(int('--threads'));
const logLevelOption = () =>
  new Option('--log-level <level>', 'log level ($EVIDENT_LOG_LEVEL, default info)').choices([...LOG_LEVELS]);

/** Applies the options serve and worker share. `--workers` is serve's old name for --threads (deprecated, hidden). */
function applyRunOptions(c: ServiceConfig, o: { threads?: number; workers?: number; logLevel?: string }): void {
  if (o.workers !== undefined) console.error('evident-jobs: --workers is deprecated; use --threads');
  const threads = o.threads ?? o.workers;
  if (threads !== undefined) c.workerThreads = threads;
  if (o.logLevel !== undefined) c.logLevel = o.logLevel;
}

program
  .command('serve')
  .description('run the HTTP API (embedded: SQLite + worker threads; with DATABASE_URL: PostgreSQL + pg-boss)')
  .option('--port <n>', 'port (0 picks a free one)', int('--port'))
  .option('--host <host>', 'interface to bind', undefined)
  .option('--data-dir <dir>', 'embedded data directory (default ./data)')
  .option('--database-url <url>', 'PostgreSQL URL (default: $DATABASE_URL)')
  .option('--redis-url <url>', 'Redis URL for shared rate limits (default: $REDIS_URL)')
  .addOption(threadsOption())
  .addOption(new Option('--workers <n>').argParser(int('--workers')).hideHelp())
  .addOption(logLevelOption())
  .option('--with-worker', 'PostgreSQL mode: also run jobs in this process')
  .option('--max-attempts <n>', 'runs of a job before it fails', int('--max-attempts', 1))
  .option('--body-limit-mb <n>', 'largest request body (default 100)', Number)
  .option('--public-url <url>', 'public origin for absolute URLs')
  .option(
    '--request-timeout-ms <n>',
    'whole request (headers + body) deadline, else 408 (default 120000)',
    int('--request-timeout-ms', 1),
  )
  .option(
    '--headers-timeout-ms <n>',
    'request headers deadline, else 408 (default 20000)',
    int('--headers-timeout-ms', 1),
  )
  .option(
    '--keep-alive-timeout-ms <n>',
    'idle keep-alive connections close after this (default 5000)',
    int('--keep-alive-timeout-ms', 1),
  )
  .option(
    '--max-connections-per-client <n>',
    'open connections per remote address (default 64; 0: no cap)',
    int('--max-connections-per-client', 0),
  )
  .option('--allow-private-callbacks', 'allow callback_url on private/loopback addresses')
  .action(async (o) => {
    const c = storeConfig(o);
    if (o.port !== undefined) c.port = o.port;
    if (o.host) c.host = o.host;
    if (o.redisUrl) c.redisUrl = o.redisUrl;
    applyRunOptions(c, o);
    if (o.maxAttempts !== undefined) c.maxAttempts = o.maxAttempts;
    if (o.bodyLimitMb !== undefined) c.bodyLimitBytes = Math.round(o.bodyLimitMb * 1024 * 1024);
    if (o.publicUrl) c.publicUrl = o.publicUrl;
    if (o.requestTimeoutMs !== undefined) c.requestTimeoutMs = o.requestTimeoutMs;
    if (o.headersTimeoutMs !== undefined) c.headersTimeoutMs = o.headersTimeoutMs;
    if (o.keepAliveTimeoutMs !== undefined) c.keepAliveTimeoutMs = o.keepAliveTimeoutMs;
    if (o.maxConnectionsPerClient !== undefined) c.maxConnectionsPerClient = o.maxConnectionsPerClient;
    if (o.allowPrivateCallbacks) c.allowPrivateCallbacks = true;
    const server = await startServer(c, { inProcessWorker: Boolean(o.withWorker) });
    // The stop handlers go in before the line that announces the server: whoever reads it may signal at once.
    onStop(() => server.close());
    console.log(
      JSON.stringify({
        evident_jobs: 'listening',
        url: server.url,
        mode: c.databaseUrl ? 'postgres' : 'embedded',
        pid: process.pid,
      }),
    );
  });

program
  .command('worker')
  .description('run queued jobs (PostgreSQL mode; needs DATABASE_URL)')
  .option('--database-url <url>', 'PostgreSQL URL (default: $DATABASE_URL)')
  .addOption(threadsOption())
  .addOption(logLevelOption())
  .action(async (o) => {
    const c = storeConfig(o);
    applyRunOptions(c, o);
    const w = await startWorker(c);
    onStop(() => w.close());
    console.log(JSON.stringify({ evident_jobs: 'worker ready', pid: process.pid, threads: c.workerThreads }));
  });

const keys = program
  .command('keys')
  .description('manage API keys (same --data-dir or DATABASE_URL as serve)')
  .option('--data-dir <dir>', 'embedded data directory (default ./data)')
  .option('--database-url <url>', 'PostgreSQL URL (default: $DATABASE_URL)');

keys
  .command('create')
  .description('create a key; prints { key_id, key, plan, signing_secret } once (only a hash of the key is kept)')
  .addOption(new Option('--plan <plan>', 'plan').choices(PLAN_NAMES as string[]).makeOptionMandatory())
  .requiredOption('--name <name>', 'who or what the key is for')
  .option('--rpm <n>', 'enterprise: requests per minute', int('--rpm', 1))
  .option('--concurrency <n>', 'enterprise: concurrent jobs', int('--concurrency', 1))
  .action(async (o) => {
    const plan = o.plan as PlanName;
    if (plan === 'enterprise' && (o.rpm === undefined || o.concurrency === undefined)) {
      throw new InvalidArgumentError('--plan enterprise needs --rpm and --concurrency');
    }
    if (plan !== 'enterprise' && (o.rpm !== undefined || o.concurrency !== undefined)) {
      throw new InvalidArgumentError('--rpm and --concurrency apply to --plan enterprise only');
    }
    const store = await openStore(storeConfig(keys.opts()));
    try {
      const k = await store.createKey({ name: o.name, plan, rpm: o.rpm ?? null, concurrency: o.concurrency ?? null });
      console.log(JSON.stringify(k));
    } finally {
      await store.close();
    }
  });

keys
  .command('list')
  .description('list keys (never the keys themselves)')
  .action(async () => {
    const store = await openStore(storeConfig(keys.opts()));
    try {
      const list = await store.listKeys();
      console.log(
        JSON.stringify(
          list.map((k) => ({
            ...k,
            created_at: new Date(k.created_at).toISOString(),
            revoked_at: k.revoked_at == null ? null : new Date(k.revoked_at).toISOString(),
          })),
          null,
          2,
        ),
      );
    } finally {
      await store.close();
    }
  });

keys
  .command('revoke')
  .description('revoke a key; effective on its next request')
  .argument('<key_id>')
  .action(async (keyId: string) => {
    const store = await openStore(storeConfig(keys.opts()));
    try {
      if (!(await store.revokeKey(keyId))) {
        console.error(`no active key ${keyId}`);
        process.exitCode = 1;
      } else console.log(JSON.stringify({ key_id: keyId, revoked: true }));
    } finally {
      await store.close();
    }
  });

submitCommand(program);
resultsCommand(program);
exportCommand(program);

/**
 * SIGINT / SIGTERM: the first starts a graceful stop (requests in flight finish, running jobs are requeued); one
 * while that stop waits (a request that does not end, a job that does not yield) exits at once, 128 + its number,
 * as kb-console and kb-mcp do: every signal after the first was swallowed, and only SIGKILL ended a stuck stop.
 */
function onStop(close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`evident-jobs: ${signal} again; exiting now\n`);
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
    stopping = true;
    process.stderr.write(`evident-jobs: stopping (${signal}); a second signal exits at once\n`);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

program.parseAsync().catch((e: Error) => {
  console.error(`evident-jobs: ${e.message}`);
  process.exit(1);
});
