// A fixed pool of worker threads, one task at a time per thread. A thread that ignores an abort is
// terminated after a grace period and replaced; one that dies fails its task and is replaced. A task may carry
// a deadline (counted from when a thread takes it, not while it queues): past it, its thread is terminated at
// once (an engine spinning in WebAssembly never reads an abort message) and replaced. A task may carry an
// AbortSignal (its HTTP request closed): queued, it is dropped; running, it is aborted as above. A thread that
// reports a WebAssembly trap (`fatal`) is replaced too, so a poisoned engine instance never serves again.
// A one-shot pool (large bodies) starts a thread only when a task comes and ends it after that task: a thread's
// heap, grown by one huge document, is given back whole instead of staying with an idle thread.
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { deserializeError } from '@evident/contract';
import type { KindSettings } from '../kinds/job-kind.js';
import type { FromThread, ThreadData, ThreadTask } from './protocol.js';
import { TaskAbortedError, TaskOutOfMemoryError, TaskTimeoutError } from './thread-errors.js';

// Built mode runs thread.js directly. Source mode (tsx) runs thread.ts: the worker inherits the parent's
// execArgv (`--conditions=evident-source --import tsx`), but on Node 20 the --import hooks are not yet active
// for a worker's entry module, so a tiny bootstrap registers tsx in the thread before importing it.
const sourceMode = import.meta.url.endsWith('.ts');
const threadFile = new URL(sourceMode ? './thread.ts' : './thread.js', import.meta.url);
function newThread(workerData: ThreadData, resourceLimits: ResourceLimits | undefined): Worker {
  if (!sourceMode) return new Worker(threadFile, { workerData, resourceLimits });
  const boot = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(threadFile.href)}); })`;
  return new Worker(boot, { eval: true, workerData, resourceLimits });
}

export interface ThreadPoolOptions {
  /** Modules of job kinds beyond the production ones, loaded by every thread. */
  kindModules?: readonly string[];
  /** What a kind's run may need from the service's configuration (handed to every run). */
  settings?: KindSettings;
  abortGraceMs?: number;
  /** Threads start when a task comes and end after it (see above). */
  oneShot?: boolean;
  /** Heap limits of each thread; a task that needs more fails with TaskOutOfMemoryError. */
  resourceLimits?: ResourceLimits;
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
    if (!options.oneShot) for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Threads alive (or starting) now. */
  get threads(): number {
    return this.slots.length;
  }

  get idle(): number {
    const free = this.options.oneShot ? this.size - this.slots.length : 0;
    return free + this.slots.filter((s) => !s.current).length - this.queue.length;
  }

  private spawn(): Slot {
    const data: ThreadData = { kindModules: [...this.kindModules], settings: this.options.settings ?? {} };
    const slot: Slot = { worker: newThread(data, this.options.resourceLimits), ready: false };
    slot.worker.unref();
    slot.worker.on('message', (m: FromThread) => {
      if (m.type === 'ready') {
        slot.ready = true;
        return this.pump();
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
    slot.worker.on('error', (e: NodeJS.ErrnoException) =>
      onDeath(
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new TaskOutOfMemoryError(this.options.resourceLimits?.maxOldGenerationSizeMb)
          : new Error(`worker thread crashed: ${e.message}`),
      ),
    );
    slot.worker.on('exit', (code) => onDeath(new Error(`worker thread exited with code ${code}`)));
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.killTimer) clearTimeout(slot.killTimer);
    if (slot.current?.deadline) clearTimeout(slot.current.deadline);
    slot.killTimer = undefined;
    slot.current = undefined;
    queueMicrotask(() => this.pump());
  }

  /** A fresh thread takes the slot's place (a one-shot pool or a closed one just drops the slot). */
  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    if (this.closed || this.options.oneShot) this.slots.splice(i, 1);
    else {
      this.slots[i] = this.spawn();
      this.replaced++;
    }
  }

  /** Takes the slot's thread out of service at once: replaced (see replace), the old one terminated. */
  private retire(slot: Slot): void {
    if (this.slots.indexOf(slot) < 0) return;
    this.replace(slot);
    void slot.worker.terminate();
  }

  private pump(): void {
    if (this.options.oneShot && !this.closed) {
      // One thread per waiting task, up to the pool's size; those starting count as taken.
      const waiting = this.queue.length - this.slots.filter((s) => !s.current && !s.ready).length;
      for (let k = 0; k < waiting && this.slots.length < this.size; k++) this.slots.push(this.spawn());
    }
    for (const slot of this.slots) {
      if (slot.current || !slot.ready) continue;
      const p = this.queue.shift();
      if (!p) return;
      slot.current = p;
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
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
