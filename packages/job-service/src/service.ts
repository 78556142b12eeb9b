// Assembles the service: store, queue, worker threads, HTTP API. `serve` and `worker` are built from here.
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type PgBoss from 'pg-boss';
import type { Logger as PinoLogger, LoggerOptions } from 'pino';
import { createLogger } from './log.js';
import { JOB_NICE_DEFAULT, type ServiceConfig } from './config.js';
import { buildApp } from './api/app.js';
import { openStore } from './store/open.js';
import { lockDataDir } from './store/lock.js';
import type { Store } from './store/types.js';
import { ThreadPool } from './runner/thread-pool.js';
import { JobExecutor } from './runner/executor.js';
import { EmbeddedRunner } from './runner/embedded.js';
import { PgBossWorker, enqueue, startBoss } from './runner/pgboss.js';
import { loadJobKinds, type AnyKind } from './kinds/registry.js';
import { kindSettingsOf } from './kinds/settings.js';
import { removeStaleTempDirs } from '@evident/docking';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  store: Store;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** PostgreSQL mode: also run jobs in this process (default: only `evident-jobs worker` processes run them). */
  inProcessWorker?: boolean;
  /** false: no logs; pino options: override the defaults (level: config.logLevel). */
  logger?: boolean | LoggerOptions;
  anonymousRpm?: number;
}

/** The one logger of a process: the HTTP API, the runner and callbacks all write through it. */
/**
 * Docking scratch folders left by a process that was killed (kill -9, OOM) go at start, not at this process's
 * first docking (issue 37, point 9): @evident/docking's sweep removes only folders whose owner process is gone, and
 * kills the orphaned Vina or Open Babel still working in them. In the background: a start never waits for it.
 */
function sweepDockingFolders(log: Pick<PinoLogger, 'info' | 'warn'>): void {
  removeStaleTempDirs().then(
    (r) => {
      if (r.removed.length || r.killed.length)
        log.info({ removed: r.removed, killed: r.killed.length }, 'removed stale docking folders');
    },
    (e: Error) => log.warn({ err: e.message }, 'sweeping stale docking folders failed'),
  );
}

function serviceLogger(config: ServiceConfig, option: ServeOptions['logger']): PinoLogger {
  if (option === false) return createLogger('silent');
  return createLogger(config.logLevel, typeof option === 'object' ? option : {}, config.logBufferBytes);
}

export async function startServer(config: ServiceConfig, opts: ServeOptions = {}): Promise<RunningServer> {
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  let store: Store;
  try {
    store = await openStore(config);
  } catch (e) {
    unlock();
    throw e;
  }
  let kinds: readonly AnyKind[];
  try {
    kinds = await loadJobKinds(config.kindModules);
  } catch (e) {
    await store.close();
    unlock();
    throw e;
  }
  // Idle threads end (their heaps and RDKit's WebAssembly memory go with them); one prepare thread stays started
  // so that a submission after a quiet spell does not wait for a thread to load the kinds.
  const preparePool = new ThreadPool(Math.max(1, config.prepareThreads), {
    kindModules: config.kindModules,
    settings: kindSettingsOf(config),
    idleMs: config.threadIdleMs,
    warmThreads: 1,
  });
  // Bodies above the inline limit: a thread of their own, started per body and ended after it (its heap, grown
  // by the document, goes with it), with a heap cap so one body cannot take the process's memory.
  const largeBodyPool = new ThreadPool(1, {
    kindModules: config.kindModules,
    settings: kindSettingsOf(config),
    oneShot: true,
    resourceLimits: { maxOldGenerationSizeMb: largeBodyHeapMb(config) },
  });
  const closers: Array<() => Promise<unknown>> = [];
  let enqueueJob: (job: Parameters<typeof enqueue>[2]) => Promise<void>;
  let cancelled: (id: string) => void = () => {};
  const log = serviceLogger(config, opts.logger);
  sweepDockingFolders(log);

  if (!config.databaseUrl) {
    const pool = new ThreadPool(Math.max(1, config.workerThreads), {
      kindModules: config.kindModules,
      settings: kindSettingsOf(config),
      idleMs: config.threadIdleMs,
      nice: config.jobNice ?? JOB_NICE_DEFAULT,
    });
    const executor = new JobExecutor(store, pool, config, log);
    const runner = new EmbeddedRunner(store, pool, executor, log, config);
    enqueueJob = async () => runner.nudge();
    cancelled = (id) => executor.cancel(id);
    closers.push(async () => {
      await runner.stop();
      await pool.close();
    });
    await runner.start();
  } else {
    const boss = await startBoss(config, opts.inProcessWorker ? 'worker' : 'api', log);
    enqueueJob = (job) => enqueue(boss, config, job);
    if (opts.inProcessWorker) {
      const w = await startPgWorkerOn(boss, store, config, log, kinds);
      cancelled = w.cancel;
      closers.push(() => w.stop());
    } else {
      closers.push(() => boss.stop({ graceful: false, timeout: 2000 }));
    }
  }

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, enableOfflineQueue: true })
    : undefined;
  // Rate limiting carries on per instance while Redis is unreachable (skipOnError); say so, at most every 30 s.
  let lastRedisWarning = 0;
  redis?.on('error', (e: Error) => {
    if (Date.now() - lastRedisWarning < 30_000) return;
    lastRedisWarning = Date.now();
    log.warn({ err: e.message }, 'Redis unreachable: rate limits are counted per instance until it is back');
  });
  const app = await buildApp({
    config,
    store,
    kinds,
    preparePool,
    largeBodyPool,
    enqueue: (job) => enqueueJob(job),
    cancelled: (id) => cancelled(id),
    redis,
    logger: log,
    anonymousRpm: opts.anonymousRpm,
  });
  const close = async () => {
    await app.close();
    for (const c of closers) await c();
    await preparePool.close();
    await largeBodyPool.close();
    redis?.disconnect();
    await store.close();
    unlock();
  };
  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    // A port in use: stop the runner, threads and store started above, so the caller can exit or retry cleanly.
    await close().catch(() => {});
    throw e;
  }
  const url = address.replace('[::1]', '127.0.0.1');
  return { app, url, store, close };
}

/** Heap of the large-body thread: room for a body of the configured limit parsed and prepared, at least 512 MB. */
export function largeBodyHeapMb(config: Pick<ServiceConfig, 'bodyLimitBytes'>): number {
  return Math.max(512, Math.ceil((8 * config.bodyLimitBytes) / 2 ** 20));
}

async function startPgWorkerOn(
  boss: PgBoss,
  store: Store,
  config: ServiceConfig,
  log: PinoLogger,
  kinds: readonly AnyKind[],
) {
  const pool = new ThreadPool(Math.max(1, config.workerThreads), {
    kindModules: config.kindModules,
    settings: kindSettingsOf(config),
    idleMs: config.threadIdleMs,
    nice: config.jobNice ?? JOB_NICE_DEFAULT,
  });
  const executor = new JobExecutor(store, pool, config, log);
  const threads = Math.max(1, config.workerThreads);
  const worker = new PgBossWorker(boss, store, executor, log, threads, config, kinds);
  await worker.start();
  return {
    cancel: (id: string) => executor.cancel(id),
    async stop() {
      await worker.stop();
      await pool.close();
    },
  };
}

/** `evident-jobs worker`: runs queued jobs from PostgreSQL until stopped. */
export async function startWorker(config: ServiceConfig): Promise<{ close(): Promise<void> }> {
  if (!config.databaseUrl) throw new Error('evident-jobs worker needs DATABASE_URL (PostgreSQL mode)');
  const log = createLogger(config.logLevel, {}, config.logBufferBytes).child({ role: 'worker' });
  sweepDockingFolders(log);
  const kinds = await loadJobKinds(config.kindModules);
  const store = await openStore(config);
  const boss = await startBoss(config, 'worker', log);
  const w = await startPgWorkerOn(boss, store, config, log, kinds);
  return {
    async close() {
      await w.stop();
      await store.close();
    },
  };
}
