// Runs one attempt of a job on the thread pool and records the outcome; shared by both queue backends.
import { EvidentError, INVALID_PARAMETERS } from '@evident/contract';
import type { ServiceConfig } from '../config.js';
import type { Attempt, Store } from '../store/types.js';
import { statusDocument } from '../wire/status.js';
import { deliverCallback } from '../callbacks/deliver.js';
import type { ThreadPool } from './thread-pool.js';
import { ENGINE_FAULT, TaskAbortedError } from './thread-errors.js';

export type Outcome = 'completed' | 'failed' | 'retry' | 'cancelled' | 'interrupted';

export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export class JobExecutor {
  private running = new Map<string, { abort(): void; why?: 'cancel' | 'shutdown' | 'timeout' }>();
  private background = new Set<Promise<unknown>>();
  private stopping = false;
  private sweeping = false;
  private sweeper: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly pool: ThreadPool,
    private readonly config: ServiceConfig,
    private readonly log: Logger,
  ) {
    this.sweeper = setInterval(() => this.sweepCallbacks(), 2000);
    this.sweeper.unref();
  }

  get busy(): number {
    return this.running.size;
  }

  /** Stops a running job of this process (cancellation from the API in the same process). */
  cancel(jobId: string): void {
    const r = this.running.get(jobId);
    if (r) {
      r.why = 'cancel';
      r.abort();
    }
  }

  /** `timeLimitMs`: the run is stopped (and counts as a failed attempt) after this long. */
  async execute(a: Attempt, timeLimitMs?: number): Promise<Outcome> {
    const { job } = a;
    if (job.attempts > job.max_attempts) {
      await this.store.failJob(
        job.id,
        'worker_lost',
        `the worker running this job stopped during each of its ${job.max_attempts} attempt(s)`,
        Date.now(),
      );
      this.notify(job.id);
      return 'failed';
    }
    let lastWrite = 0;
    let lastStage = '';
    let pendingWrite: Promise<void> = Promise.resolve();
    const task = this.pool.run(
      { type: 'run', kind: job.kind, input: a.input, inputPath: a.inputPath, attempt: job.attempts },
      (stage, percent) => {
        const now = Date.now();
        if (stage === lastStage && now - lastWrite < 500) return;
        lastWrite = now;
        lastStage = stage;
        pendingWrite = pendingWrite.then(() => this.store.setProgress(job.id, stage, percent)).catch(() => {});
      },
    );
    const entry: { abort(): void; why?: 'cancel' | 'shutdown' | 'timeout' } = { abort: task.abort };
    this.running.set(job.id, entry);
    // Heartbeat (PostgreSQL: lets other workers see this one is alive), and cancellation may come from another
    // process: the same call returns the stored status.
    const watch = setInterval(() => {
      this.store.heartbeat(job.id, Date.now()).then(
        (s) => {
          if (s !== 'processing') {
            entry.why = 'cancel';
            task.abort();
          }
        },
        () => {},
      );
    }, 1000);
    const limit =
      timeLimitMs !== undefined
        ? setTimeout(
            () => {
              entry.why = 'timeout';
              task.abort();
            },
            Math.max(1000, timeLimitMs),
          )
        : undefined;
    try {
      const done = await task.result;
      await pendingWrite;
      if (done.type !== 'done') throw new Error('unexpected thread answer');
      const ok = await this.store.completeJob(job.id, Buffer.from(done.result), done.targets, Date.now());
      this.log.info(
        { job_id: job.id, attempt: job.attempts },
        ok ? 'job completed' : 'job finished after it was cancelled',
      );
      if (ok) this.notify(job.id);
      return ok ? 'completed' : 'cancelled';
    } catch (e) {
      await pendingWrite;
      if (entry.why === 'cancel') return 'cancelled';
      if (entry.why === 'shutdown' || this.stopping) {
        if (this.store.backend === 'sqlite') await this.store.releaseAttempt(job.id).catch(() => {});
        return 'interrupted';
      }
      const now = Date.now();
      // The engine refuses the request itself (a caller's mistake): running it again cannot help. A task we
      // aborted ourselves (the time limit) is typed 4xx too, but it is no refusal: it takes the retry path.
      const aborted = e instanceof TaskAbortedError || entry.why === 'timeout';
      if (!aborted && e instanceof EvidentError && e.status !== undefined && e.status < 500) {
        // invalid_parameters at run time keeps the job API's one code for it; an engine's own refusal (no
        // structure covers the residues, ...) keeps its code, which says more.
        const code = e.code === INVALID_PARAMETERS ? 'invalid_input' : e.code;
        await this.store.failJob(job.id, code, e.message, now);
        this.notify(job.id);
        return 'failed';
      }
      // The engine's WebAssembly module trapped on this input (its thread was replaced): a seeded run would trap
      // again, so the job fails at once rather than spending its retries; later jobs run on a fresh thread.
      if (e instanceof EvidentError && e.code === ENGINE_FAULT) {
        this.log.warn({ job_id: job.id, attempt: job.attempts, err: e.message }, 'engine fault; thread replaced');
        await this.store.failJob(job.id, ENGINE_FAULT, e.message, now);
        this.notify(job.id);
        return 'failed';
      }
      const message =
        entry.why === 'timeout'
          ? `exceeded its time limit of ${Math.round(timeLimitMs! / 1000)} s`
          : (e as Error).message;
      this.log.warn({ job_id: job.id, attempt: job.attempts, err: message }, 'job attempt failed');
      if (job.attempts < job.max_attempts) {
        await this.store.retryLater(
          job.id,
          now + this.config.retryBaseMs * 2 ** (job.attempts - 1),
          `attempt ${job.attempts} failed: ${message}`,
        );
        return 'retry';
      }
      // An outside dependency that stayed down (502/503: a structure source, the docking tools) is named by its
      // own code after the retries; anything else is job_failed.
      const named = e instanceof EvidentError && (e.status === 502 || e.status === 503);
      await this.store.failJob(
        job.id,
        named ? (e as EvidentError).code : 'job_failed',
        `the job failed on each of its ${job.attempts} attempt(s); last error: ${message}`,
        now,
      );
      this.notify(job.id);
      return 'failed';
    } finally {
      clearInterval(watch);
      if (limit) clearTimeout(limit);
      this.running.delete(job.id);
    }
  }

  /** Delivers the job's callback now if it has one (claimed with a lease so that no other process does too). */
  private notify(jobId: string): void {
    this.track(
      this.store
        .claimCallbacks(Date.now(), this.callbackLeaseMs(), jobId)
        .then((ids) => Promise.all(ids.map((id) => this.deliver(id)))),
    );
  }

  /** Callbacks whose delivery was cut short (process killed) are due again once their lease has run out. */
  private sweepCallbacks(): void {
    if (this.sweeping || this.stopping) return;
    this.sweeping = true;
    this.track(
      this.store
        .claimCallbacks(Date.now(), this.callbackLeaseMs())
        .then((ids) => Promise.all(ids.map((id) => this.deliver(id))))
        .finally(() => (this.sweeping = false)),
    );
  }

  private callbackLeaseMs(): number {
    const c = this.config;
    return c.callbackAttempts * c.callbackTimeoutMs + c.callbackBaseDelayMs * 2 ** c.callbackAttempts + 1000;
  }

  private async deliver(jobId: string): Promise<void> {
    const job = await this.store.getJob(jobId);
    const secret = job?.callback_url ? await this.store.signingSecretOf(job.key_id) : undefined;
    if (job?.callback_url && secret) {
      await deliverCallback(job.callback_url, secret, statusDocument(job, this.config.publicUrl ?? ''), {
        allowPrivate: this.config.allowPrivateCallbacks,
        attempts: this.config.callbackAttempts,
        baseDelayMs: this.config.callbackBaseDelayMs,
        timeoutMs: this.config.callbackTimeoutMs,
        log: this.log,
      });
    }
    // Delivered, or given up after the retries (logged): either way it is not due any more.
    await this.store.finishCallback(jobId);
  }

  private track(p: Promise<unknown>): void {
    const q = p.catch((e) => this.log.error({ err: (e as Error).message }, 'callback error'));
    this.background.add(q);
    void q.finally(() => this.background.delete(q));
  }

  /** Interrupts running jobs (they are retried by the next process) and waits for callbacks in flight briefly. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweeper);
    for (const r of this.running.values()) {
      r.why = 'shutdown';
      r.abort();
    }
    await Promise.race([Promise.allSettled([...this.background]), new Promise((r) => setTimeout(r, 2000))]);
  }
}
