// A fixed pool of worker threads, one task at a time per thread. A thread that ignores an abort is
// terminated after a grace period and replaced; one that dies fails its task and is replaced. A task may carry
// a deadline (counted from when a thread takes it, not while it queues): past it, its thread is terminated at
// once (an engine spinning in WebAssembly never reads an abort message) and replaced. A task may carry an
// AbortSignal (its HTTP request closed): queued, it is dropped; running, it is aborted as above. A thread that
// reports a WebAssembly trap (`fatal`) is replaced too, so a poisoned engine instance never serves again.
// A one-shot pool (large bodies) starts a thread only when a task comes and ends it after that task: a thread's
// heap, grown by one huge document, is given back whole instead of staying with an idle thread. A pool with an idle
// time does the same for threads left idle that long: a thread's heap and its engines' WebAssembly memory (RDKit's
// only grows while its instance lives) go with it, threads start again when tasks come, and the pool's warm threads
// are kept started but replaced by fresh ones once they have worked, so that an idle server holds what a fresh
// thread needs and no more.
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { deserializeError } from '@evident/contract';
import { onWorkerEnd, siblingModule, startWorker } from '@evident/worker-threads';
import type { KindSettings } from '../kinds/job-kind.js';
import type { FromThread, ThreadData, ThreadTask } from './protocol.js';
import { TaskAbortedError, TaskOutOfMemoryError, TaskTimeoutError } from './thread-errors.js';

// thread.ts from the sources (tests, under tsx), thread.js built: @evident/worker-threads starts either.
const threadModule = siblingModule(import.meta.url, './thread');
function newThread(workerData: ThreadData, resourceLimits: ResourceLimits | undefined): Worker {
  return startWorker(threadModule, { workerData, resourceLimits });
}

export interface ThreadPoolOptions {
  /** Modules of job kinds beyond the production ones, loaded by every thread. */
  kindModules?: readonly string[];
  /** What a kind's run may need from the service's configuration (handed to every run). */
  settings?: KindSettings;
  abortGraceMs?: number;
  /** Threads start when a task comes and end after it (see above). */
  oneShot?: boolean;
  /**
   * A thread idle this long ends (see above); without it threads live as long as the pool. Threads beyond
   * `warmThreads` start only when a task comes.
   */
  idleMs?: number;
  /** With `idleMs`: threads kept started while idle (default 0), each replaced by a fresh one once it has worked. */
  warmThreads?: number;
  /** Heap limits of each thread; a task that needs more fails with TaskOutOfMemoryError. */
  resourceLimits?: ResourceLimits;
  /** Nice steps each thread takes at its start, it and the processes it starts (lowerThreadPriority); 0: none. */
  nice?: number;
}

type Done = Extract<FromThread, { type: 'done' | 'prepared' | 'csv' }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Pending {
  task: ThreadTask;
  transfer: ArrayBuffer[];
  onProgress?: ((stage: string, percent: number) => void) | undefined;
  resolve(v: Done): void;
  reject(e: Error): void;
  aborted: boolean;
  /** Hard deadline, ms from when a thread takes the task. */
  timeoutMs?: number | undefined;
  deadline?: NodeJS.Timeout | undefined;
}

/** How long a task may run, and the signal of whoever waits for it. */
export interface TaskLimits {
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

const timeoutOf = (task: ThreadTask, ms: number): TaskTimeoutError =>
  task.type === 'csv'
    ? new TaskTimeoutError('csv_timeout', 'rendering the results', ms)
    : task.type === 'run'
      ? new TaskTimeoutError('run_timeout', 'the run', ms)
      : new TaskTimeoutError('prepare_timeout', 'checking the request', ms);

interface Slot {
  worker: Worker;
  /** The thread has loaded its kinds and takes tasks. */
  ready: boolean;
  current?: Pending | undefined;
  killTimer?: NodeJS.Timeout | undefined;
  /** The thread has taken a task since it started. */
  worked: boolean;
  idleTimer?: NodeJS.Timeout | undefined;
}

export class ThreadPool {
  private slots: Slot[] = [];
  /** Threads replaced so far (deadline, trap, crash): for logs and tests. */
  replaced = 0;
  private queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private readonly kindModules: readonly string[];
  private readonly abortGraceMs: number;

  constructor(
    readonly size: number,
    private readonly options: ThreadPoolOptions = {},
  ) {
    this.kindModules = options.kindModules ?? [];
    this.abortGraceMs = options.abortGraceMs ?? 2000;
    for (let i = 0; i < this.warm; i++) this.slots.push(this.spawn());
  }

  /** Threads start only when tasks come (beyond the warm ones). */
  private get lazy(): boolean {
    return this.options.oneShot === true || this.options.idleMs !== undefined;
  }

  /** Threads kept started, idle or not. */
  private get warm(): number {
    if (this.options.oneShot) return 0;
    if (this.options.idleMs === undefined) return this.size;
    return Math.min(this.size, Math.max(0, this.options.warmThreads ?? 0));
  }

  /** Threads alive (or starting) now. */
  get threads(): number {
    return this.slots.length;
  }

  get idle(): number {
    const free = this.lazy ? this.size - this.slots.length : 0;
    return free + this.slots.filter((s) => !s.current).length - this.queue.length;
  }

  private spawn(): Slot {
    const data: ThreadData = {
      kindModules: [...this.kindModules],
      settings: this.options.settings ?? {},
      ...(this.options.nice ? { nice: this.options.nice } : {}),
    };
    const slot: Slot = { worker: newThread(data, this.options.resourceLimits), ready: false, worked: false };
    slot.worker.unref();
    slot.worker.on('message', (m: FromThread) => {
      if (m.type === 'ready') {
        slot.ready = true;
        this.pump();
        // A thread started for a task that went away meanwhile is idle from the start.
        if (!slot.current) this.armIdle(slot);
        return;
      }
      const p = slot.current;
      if (!p || p.task.taskId !== m.taskId) return;
      if (m.type === 'progress') return p.onProgress?.(m.stage, m.percent);
      this.finish(slot);
      // The thread's engine is unusable (WebAssembly trap): never give it another task.
      if ((m.type === 'error' && m.fatal) || this.options.oneShot) this.retire(slot);
      if (m.type === 'error') p.reject(p.aborted ? new TaskAbortedError() : deserializeError(m.error));
      else p.resolve(m);
    });
    const onDeath = (error: Error) => {
      const p = slot.current;
      this.finish(slot);
      this.replace(slot);
      p?.reject(p.aborted ? new TaskAbortedError() : error);
      this.pump();
    };
    onWorkerEnd(slot.worker, (e) =>
      onDeath(
        e.code === 'worker_out_of_memory'
          ? new TaskOutOfMemoryError(this.options.resourceLimits?.maxOldGenerationSizeMb)
          : e.code === 'worker_failed'
            ? new Error(`worker thread crashed: ${(e.cause as Error).message}`)
            : new Error(`worker thread exited with code ${e.exitCode}`),
      ),
    );
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.killTimer) clearTimeout(slot.killTimer);
    if (slot.current?.deadline) clearTimeout(slot.current.deadline);
    slot.killTimer = undefined;
    slot.current = undefined;
    queueMicrotask(() => {
      this.pump();
      if (!slot.current) this.armIdle(slot);
    });
  }

  /**
   * A fresh thread takes the slot's place (a one-shot pool or a closed one just drops the slot; a lazy pool only
   * keeps its warm threads started, the others start when tasks come).
   */
  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    if (this.closed || this.options.oneShot) this.slots.splice(i, 1);
    else {
      this.replaced++;
      if (this.lazy && this.slots.length > this.warm) this.slots.splice(i, 1);
      else this.slots[i] = this.spawn();
    }
  }

  /** An idle thread of a pool with an idle time: it ends after it, or, a warm one that has worked, is renewed. */
  private armIdle(slot: Slot): void {
    const idleMs = this.options.idleMs;
    if (idleMs === undefined || this.options.oneShot || this.closed || slot.idleTimer) return;
    if (!slot.ready || slot.current || this.slots.indexOf(slot) < 0) return;
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = undefined;
      const i = this.slots.indexOf(slot);
      if (i < 0 || slot.current || this.closed) return;
      if (this.slots.length > this.warm) this.slots.splice(i, 1);
      else if (slot.worked) this.slots[i] = this.spawn();
      else return;
      void slot.worker.terminate();
    }, idleMs);
    slot.idleTimer.unref();
  }

  /** Takes the slot's thread out of service at once: replaced (see replace), the old one terminated. */
  private retire(slot: Slot): void {
    if (this.slots.indexOf(slot) < 0) return;
    this.replace(slot);
    void slot.worker.terminate();
  }

  private pump(): void {
    if (this.lazy && !this.closed) {
      // One thread per waiting task, up to the pool's size; those starting count as taken.
      const waiting = this.queue.length - this.slots.filter((s) => !s.current).length;
      for (let k = 0; k < waiting && this.slots.length < this.size; k++) this.slots.push(this.spawn());
    }
    for (const slot of this.slots) {
      if (slot.current || !slot.ready) continue;
      const p = this.queue.shift();
      if (!p) return;
      slot.current = p;
      slot.worked = true;
      if (slot.idleTimer) {
        clearTimeout(slot.idleTimer);
        slot.idleTimer = undefined;
      }
      if (p.timeoutMs !== undefined) {
        const ms = p.timeoutMs;
        p.deadline = setTimeout(() => {
          if (slot.current !== p) return;
          this.finish(slot);
          this.retire(slot);
          p.reject(timeoutOf(p.task, ms));
        }, ms);
      }
      slot.worker.postMessage(p.task, p.transfer);
    }
  }

  /** `transfer`: buffers moved (not copied) to the thread; the caller must not use them afterwards. */
  run(
    task: DistributiveOmit<ThreadTask, 'taskId'>,
    onProgress?: (stage: string, percent: number) => void,
    transfer: ArrayBuffer[] = [],
    limits: TaskLimits = {},
  ): { result: Promise<Done>; abort(): void } {
    if (this.closed) throw new Error('thread pool closed');
    const full = { ...task, taskId: this.nextId++ } as ThreadTask;
    let pending!: Pending;
    const result = new Promise<Done>((resolve, reject) => {
      pending = { task: full, transfer, onProgress, resolve, reject, aborted: false, timeoutMs: limits.timeoutMs };
    });
    const abort = () => {
      if (pending.aborted) return;
      pending.aborted = true;
      const qi = this.queue.indexOf(pending);
      if (qi >= 0) {
        this.queue.splice(qi, 1);
        pending.reject(new TaskAbortedError());
        return;
      }
      const slot = this.slots.find((s) => s.current === pending);
      if (!slot) return;
      slot.worker.postMessage({ type: 'abort', taskId: full.taskId });
      slot.killTimer ??= setTimeout(() => void slot.worker.terminate(), this.abortGraceMs);
    };
    const { signal } = limits;
    if (signal) {
      signal.addEventListener('abort', abort, { once: true });
      void result.then(
        () => signal.removeEventListener('abort', abort),
        () => signal.removeEventListener('abort', abort),
      );
    }
    this.queue.push(pending);
    if (signal?.aborted) abort();
    else this.pump();
    return {
      result,
      abort,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue) p.reject(new Error('thread pool closed'));
    this.queue = [];
    for (const s of this.slots) if (s.idleTimer) clearTimeout(s.idleTimer);
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
