// Embedded queue: the jobs table in SQLite is the queue. The server process claims due jobs and runs them
// on its worker threads. A job left `running` by a killed process is requeued (or failed) at the next start.
import type { ServiceConfig } from '../config.js';
import type { Store } from '../store/types.js';
import { expireSecondsFor } from './pgboss.js';
import type { JobExecutor, Logger } from './executor.js';
import type { ThreadPool } from './thread-pool.js';

export class EmbeddedRunner {
  private timer?: NodeJS.Timeout;
  private pumping = false;
  private again = false;
  private inflight = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly pool: ThreadPool,
    private readonly executor: JobExecutor,
    private readonly log: Logger,
    private readonly config: ServiceConfig,
    private readonly pollMs = 250,
  ) {}

  async start(): Promise<void> {
    const { requeued, failed } = await this.store.recoverOrphans(Date.now());
    if (requeued.length || failed.length)
      this.log.warn({ requeued, failed }, 'recovered jobs interrupted by a previous stop');
    this.timer = setInterval(() => this.nudge(), this.pollMs);
    this.timer.unref();
    this.nudge();
  }

  /** Looks for due jobs now (called after a submission and when a thread frees up). */
  nudge(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump().finally(() => {
      this.pumping = false;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
  }

  private async pump(): Promise<void> {
    try {
      while (!this.stopped && this.executor.busy < this.pool.size) {
        const attempt = await this.store.claimNext(Date.now());
        if (!attempt) return;
        // Same bound as a queue delivery in PostgreSQL mode: a hung run does not hold its thread forever.
        const p = this.executor
          .execute(attempt, expireSecondsFor(this.config, attempt.job) * 1000)
          .catch((e) => this.log.error({ job_id: attempt.job.id, err: (e as Error).message }, 'executor error'));
        this.inflight.add(p);
        void p.finally(() => {
          this.inflight.delete(p);
          this.nudge();
        });
      }
    } catch (e) {
      this.log.error({ err: (e as Error).message }, 'queue poll failed');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.executor.stop();
    await Promise.race([Promise.allSettled([...this.inflight]), new Promise((r) => setTimeout(r, 3000))]);
  }
}
