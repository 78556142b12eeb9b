// PostgreSQL mode: pg-boss carries job ids from API instances to `evident-jobs worker` processes. Job state
// lives in our jobs table; pg-boss provides delivery, retries with backoff, and redelivery of jobs whose
// worker died (a delivery that outlives its expiry is presumed lost).
import PgBoss from 'pg-boss';
import type { ServiceConfig } from '../config.js';
import { loadJobKinds, type AnyKind } from '../kinds/registry.js';
import type { JobRecord, Store } from '../store/types.js';
import type { JobExecutor, Logger } from './executor.js';

const queueName = (kind: string) => `evident.${kind}`;

/** Starts pg-boss with a queue for each kind the configuration names (production kinds plus config.kindModules). */
export async function startBoss(config: ServiceConfig, role: 'api' | 'worker', log?: Logger): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: config.databaseUrl!,
    max: 4,
    // Only workers supervise (expire and retry lost deliveries); API instances just send.
    supervise: role === 'worker',
    schedule: false,
    maintenanceIntervalSeconds: config.queueMaintenanceSeconds,
    monitorStateIntervalSeconds: Math.max(config.queueMaintenanceSeconds, 60),
  });
  boss.on('error', (e: Error) => log?.warn({ err: e.message }, 'queue (pg-boss) error'));
  await boss.start();
  for (const k of await loadJobKinds(config.kindModules)) {
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

/** How long a delivery may stay active before pg-boss presumes its worker dead and redelivers it. */
export function expireSecondsFor(config: ServiceConfig, job: JobRecord): number {
  return Math.max(config.jobExpireMinSeconds, Math.ceil(job.estimate_high * config.jobExpireFactor));
}

export async function enqueue(boss: PgBoss, config: ServiceConfig, job: JobRecord): Promise<void> {
  await boss.send(
    queueName(job.kind),
    { job_id: job.id },
    {
      // One more delivery than attempts, so a crash during the last attempt is seen and the job failed.
      retryLimit: job.max_attempts,
      retryDelay: Math.max(1, Math.round(config.retryBaseMs / 1000)),
      retryBackoff: true,
      expireInSeconds: expireSecondsFor(config, job),
    },
  );
}

/**
 * Fetches a delivery only when a worker thread is free (so no job's expiry clock runs while it waits for a
 * thread), round-robin over the kinds' queues.
 */
export class PgBossWorker {
  private stopped = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private sweeper?: NodeJS.Timeout;
  private reclaimer?: NodeJS.Timeout;
  private inflight = 0;

  constructor(
    private readonly boss: PgBoss,
    private readonly store: Store,
    private readonly executor: JobExecutor,
    private readonly log: Logger,
    private readonly concurrency: number,
    private readonly config: ServiceConfig,
    /** The kinds whose queues this worker serves. */
    private readonly kinds: readonly AnyKind[],
    private readonly pollMs = 500,
  ) {}

  async start(): Promise<void> {
    // Safety net: a job whose queue entry is gone (retries exhausted by crashes) must not stay processing.
    this.sweeper = setInterval(() => {
      this.store.failOrphansOfQueue?.(Date.now() - 5 * 60_000, Date.now()).then(
        (ids) => ids.length && this.log.warn({ job_ids: ids }, 'failed jobs the queue no longer holds'),
        () => {},
      );
    }, 60_000);
    this.sweeper.unref();
    // Workers watch each other: a job whose worker stopped beating (killed, host lost) is failed back to
    // pg-boss, which redelivers it after its retry delay, long before the delivery would expire.
    const staleMs = this.config.heartbeatStaleSeconds * 1000;
    this.reclaimer = setInterval(() => void this.reclaim(staleMs), Math.min(10_000, staleMs / 2));
    this.reclaimer.unref();
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    let next = 0;
    while (!this.stopped) {
      if (this.inflight >= this.concurrency) {
        await this.sleep(this.pollMs);
        continue;
      }
      let got = false;
      try {
        const kinds = this.kinds;
        for (let i = 0; i < kinds.length && !got; i++) {
          const kind = kinds[(next + i) % kinds.length]!;
          const [delivery] = await this.boss.fetch<{ job_id: string }>(queueName(kind.id), { batchSize: 1 });
          if (delivery) {
            got = true;
            next = (next + i + 1) % kinds.length;
            this.inflight++;
            void this.handle(queueName(kind.id), delivery).finally(() => {
              this.inflight--;
              this.wake?.();
            });
          }
        }
      } catch (e) {
        this.log.error({ err: (e as Error).message }, 'queue fetch failed');
      }
      if (!got) await this.sleep(this.pollMs);
    }
  }

  private async reclaim(staleMs: number): Promise<void> {
    try {
      const stale = (await this.store.reclaimStale?.(Date.now() - staleMs)) ?? [];
      for (const j of stale) {
        this.log.warn({ job_id: j.id }, 'worker of this job stopped beating; handing it to another worker');
        await this.boss.fail(queueName(j.kind), j.delivery_id, { reason: 'worker lost' });
      }
    } catch (e) {
      this.log.error({ err: (e as Error).message }, 'reclaiming stale jobs failed');
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((r) => {
      const t = setTimeout(r, ms);
      this.wake = () => {
        clearTimeout(t);
        r();
      };
    });
  }

  private async handle(queue: string, delivery: PgBoss.Job<{ job_id: string }>): Promise<void> {
    try {
      const attempt = await this.store.startAttempt(delivery.data.job_id, Date.now(), delivery.id);
      if (!attempt) {
        await this.boss.complete(queue, delivery.id); // cancelled or already finished
        return;
      }
      this.log.info({ job_id: attempt.job.id, attempt: attempt.job.attempts }, 'job started');
      // Stop at the delivery's expiry: after it pg-boss hands the job to another worker.
      const expireMs = expireSecondsFor(this.config, attempt.job) * 1000;
      const outcome = await this.executor.execute(attempt, expireMs - Math.min(2000, expireMs * 0.1));
      // Failing the delivery hands it back to pg-boss, which retries it with backoff.
      if (outcome === 'retry' || outcome === 'interrupted') await this.boss.fail(queue, delivery.id, { outcome });
      else await this.boss.complete(queue, delivery.id);
    } catch (e) {
      this.log.error({ job_id: delivery.data.job_id, err: (e as Error).message }, 'job handling failed');
      await this.boss.fail(queue, delivery.id, { error: (e as Error).message }).catch(() => {});
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.reclaimer) clearInterval(this.reclaimer);
    await this.executor.stop();
    await this.loop;
    const until = Date.now() + 5000;
    while (this.inflight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await this.boss.stop({ graceful: false, timeout: 2000 });
  }
}
