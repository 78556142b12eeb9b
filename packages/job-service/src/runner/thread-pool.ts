// A fixed pool of worker threads, one task at a time per thread. A thread that ignores an abort is
// terminated after a grace period and replaced; one that dies fails its task and is replaced. A task may carry
// a deadline (counted from when a thread takes it, not while it queues): past it, its thread is terminated at
// once (an engine spinning in WebAssembly never reads an abort message) and replaced. A task may carry an
// AbortSignal (its HTTP request closed): queued, it is dropped; running, it is aborted as above. A thread that
// reports a WebAssembly trap (`fatal`) is replaced too, so a poisoned engine instance never serves again.
import { Worker } from 'node:worker_threads';
import { deserializeError } from '@evident/contract';
import type { FromThread, ThreadData, ThreadTask } from './protocol.js';
import { TaskAbortedError, TaskTimeoutError } from './thread-errors.js';

// Built mode runs thread.js directly. Source mode (tsx) runs thread.ts: the worker inherits the parent's
// execArgv (`--conditions=evident-source --import tsx`), but on Node 20 the --import hooks are not yet active
// for a worker's entry module, so a tiny bootstrap registers tsx in the thread before importing it.
const sourceMode = import.meta.url.endsWith('.ts');
const threadFile = new URL(sourceMode ? './thread.ts' : './thread.js', import.meta.url);
function newThread(workerData: ThreadData): Worker {
  if (!sourceMode) return new Worker(threadFile, { workerData });
  const boot = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(threadFile.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
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
    ? new TaskTimeoutError('csv_timeout', 'making the CSV', ms)
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

  /** `kindModules`: modules of job kinds beyond the production ones, loaded by every thread. */
  constructor(
    readonly size: number,
    private readonly kindModules: readonly string[] = [],
    private readonly abortGraceMs = 2000,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  get idle(): number {
    return this.slots.filter((s) => !s.current).length - this.queue.length;
  }

  private spawn(): Slot {
    const slot: Slot = { worker: newThread({ kindModules: [...this.kindModules] }), ready: false };
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
      if (m.type === 'error' && m.fatal) this.retire(slot);
      if (m.type === 'error') p.reject(p.aborted ? new TaskAbortedError() : deserializeError(m.error));
      else p.resolve(m);
    });
    const onDeath = (why: string) => {
      const p = slot.current;
      this.finish(slot);
      const i = this.slots.indexOf(slot);
      if (i >= 0 && !this.closed) {
        this.slots[i] = this.spawn();
        this.replaced++;
      }
      p?.reject(p.aborted ? new TaskAbortedError() : new Error(`worker thread ${why}`));
      this.pump();
    };
    slot.worker.on('error', (e) => onDeath(`crashed: ${e.message}`));
    slot.worker.on('exit', (code) => onDeath(`exited with code ${code}`));
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.killTimer) clearTimeout(slot.killTimer);
    if (slot.current?.deadline) clearTimeout(slot.current.deadline);
    slot.killTimer = undefined;
    slot.current = undefined;
    queueMicrotask(() => this.pump());
  }

  /** Takes the slot's thread out of service at once: a fresh one takes its place, the old one is terminated. */
  private retire(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    if (!this.closed) {
      this.slots[i] = this.spawn();
      this.replaced++;
    } else this.slots.splice(i, 1);
    void slot.worker.terminate();
  }

  private pump(): void {
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
