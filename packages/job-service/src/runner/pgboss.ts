// PostgreSQL mode: pg-boss carries job ids from API instances to `evident-jobs worker` processes. Job state
// lives in our jobs table; pg-boss provides delivery, retries with backoff, and redelivery of jobs whose
// worker died (a delivery that outlives its expiry is presumed lost).
import PgBoss from 'pg-boss';
import type { ServiceConfig } from '../config.js';
import { jobKinds } from '../kinds/registry.js';
import type { JobRecord, Store } from '../store/types.js';
import type { JobExecutor, Logger } from './executor.js';

const queueName = (kind: string) => `evident.${kind}`;

export async function startBoss(config: ServiceConfig, role: 'api' | 'worker'): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: config.databaseUrl!,
    max: 4,
    // Only workers supervise (expire and retry lost deliveries); API instances just send.
    supervise: role === 'worker',
    schedule: false,
    maintenanceIntervalSeconds: config.queueMaintenanceSeconds,
    monitorStateIntervalSeconds: Math.max(config.queueMaintenanceSeconds, 60),
  });
  boss.on('error', () => {});
  await boss.start();
  for (const k of jobKinds) {
    const name = queueName(k.id);
    if (!(await boss.getQueue(name))) {
      try {
        await boss.createQueue(name, { name });
      } catch (e) {
        // Another process created it first.
        if (!(await boss.getQueue(name))) throw e;
      }
    }
  }
  return boss;
}

export async function enqueue(boss: PgBoss, config: ServiceConfig, job: JobRecord): Promise<void> {
  const expire = Math.max(config.jobExpireMinSeconds, Math.ceil(job.estimate_high * config.jobExpireFactor));
  await boss.send(queueName(job.kind), { job_id: job.id }, {
    // One more delivery than attempts, so a crash during the last attempt is seen and the job failed.
    retryLimit: job.max_attempts,
    retryDelay: Math.max(1, Math.round(config.retryBaseMs / 1000)),
    retryBackoff: true,
    expireInSeconds: expire,
  });
}

export class PgBossWorker {
  private stopped = false;

  constructor(
    private readonly boss: PgBoss,
    private readonly store: Store,
    private readonly executor: JobExecutor,
    private readonly log: Logger,
    private readonly concurrency: number,
  ) {}

  private sweeper?: NodeJS.Timeout;

  async start(): Promise<void> {
    // Safety net: a job whose queue entry is gone (retries exhausted by crashes) must not stay processing.
    this.sweeper = setInterval(() => {
      this.store.failOrphansOfQueue?.(Date.now() - 5 * 60_000, Date.now()).then(
        (ids) => ids.length && this.log.warn({ job_ids: ids }, 'failed jobs the queue no longer holds'),
        () => {},
      );
    }, 60_000);
    this.sweeper.unref();
    for (const k of jobKinds) {
      for (let i = 0; i < this.concurrency; i++) {
        await this.boss.work<{ job_id: string }>(queueName(k.id), { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([delivery]) => {
          if (!delivery || this.stopped) throw new Error('worker stopping');
          const attempt = await this.store.startAttempt(delivery.data.job_id, Date.now());
          if (!attempt) return; // cancelled or already finished
          this.log.info({ job_id: attempt.job.id, attempt: attempt.job.attempts }, 'job started');
          const outcome = await this.executor.execute(attempt);
          // Throwing hands the delivery back to pg-boss, which retries it with backoff.
          if (outcome === 'retry' || outcome === 'interrupted') throw new Error(`job ${attempt.job.id}: ${outcome}`);
        });
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await this.executor.stop();
    await this.boss.stop({ graceful: true, timeout: 5000 });
  }
}
