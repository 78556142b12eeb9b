// The base's side of its replica thread (replica-thread.ts): a worker thread with a heap cap holding a graph index
// of its own, on which Cypher queries and what-ifs run instead of on the base's thread. Before each batch of jobs
// the thread is sent the log's records from its last position up to the base's committed position (read through
// the store, as any reader of the log does, so SQLite and PostgreSQL bases work alike and no second connection is
// opened), so each job sees every write acknowledged before it was asked. A job's time is watched from when it
// starts: past its budget (plus a grace for the engine's own check to come first) the thread is terminated, which
// stops it whatever it is doing and gives its memory back; a thread that dies of its heap cap answers the job it
// was running with a 413. Jobs that had not started run again on a fresh thread, built when next needed. A
// thread left idle is ended too, so a large query's heap does not outlive it.
import type { Worker } from 'node:worker_threads';
import { deserializeError } from '@evident/contract';
import { siblingModule, startWorker } from '@evident/worker-threads';
import { KbClosedError, KbValidationError } from '../errors.js';
import { sliceRun } from '../model/claim-run.js';
import { lastSeqOf } from '../store/log-span.js';
import { offThreadNice } from '../offload/threads.js';
import type { LogRecord } from '../store/types.js';
import {
  KbBusyError,
  KbOffThreadUnavailableError,
  KbWorkerMemoryError,
  KbWorkerTimeoutError,
} from '../offload/errors.js';
import type { FromReplica, ReplicaData, ReplicaJob, ToReplica } from './protocol.js';

/** Settings of the replica thread (KbDB.configureOffThread). */
export interface OffThreadSettings {
  /**
   * The replica thread's heap cap in MB (V8's old generation). Default: the base thread's heap in use when the
   * thread starts (an upper bound of what the replica's index needs) plus 512 MB for the job.
   */
  heap_mb?: number;
  /** The thread ends after this long without a job, giving its memory back (default 30 000 ms). */
  idle_ms?: number;
  /** Jobs running or waiting at most; one more is refused with 429 `busy` (default 8). */
  max_waiting?: number;
}

export const OFF_THREAD_DEFAULTS = { job_heap_mb: 512, idle_ms: 30_000, max_waiting: 8 } as const;

/**
 * How long past its budget a job may run before its thread is stopped: a tenth of the budget, capped at 2 s. A
 * query checks its own deadline as it works and answers with where its time went (PROFILE), so it gets at least
 * 1 s: on a loaded machine its thread can be descheduled for longer than 100 ms. A what-if has no deadline of its
 * own (the watchdog is its stop), so at least 100 ms.
 */
export function graceMs(budgetMs: number, kind: ReplicaJob['kind']): number {
  return Math.min(2_000, Math.max(kind === 'cypher' ? 1_000 : 100, Math.round(budgetMs / 10)));
}

/** Where the replica's records come from: the base's committed position and its log. */
export interface ReplicaSource {
  /** Waits until the base's index holds only committed entries (as a read does) and returns its log position. */
  position(): Promise<number>;
  /** The log's records after `seq` (ClaimStore.readAfter). */
  readAfter(seq: number, limit: number): Promise<LogRecord[]>;
}

/** What a job answers: the value, or (format 'json') its JSON text. */
export interface ReplicaAnswer {
  value?: unknown;
  json?: Uint8Array;
}

interface Pending {
  id: number;
  kind: ReplicaJob['kind'];
  job: ReplicaJob;
  budgetMs: number;
  resolve(a: ReplicaAnswer): void;
  reject(e: unknown): void;
  /** The thread it was sent to. */
  on?: Worker;
  started: boolean;
  deadline: number;
  timer?: NodeJS.Timeout;
  /** Set when the watchdog stopped the thread for this job. */
  timedOut?: boolean;
}

/** Records per read of the log: one run chunk, so that each slice of feeding on the base's thread is short. */
const PAGE = 16_384;

// replica-thread.ts from the sources (under tsx), .js built: @evident/worker-threads starts either.
const threadModule = siblingModule(import.meta.url, './replica-thread');

function startThread(data: ReplicaData, heapMb: number): Worker {
  return startWorker(threadModule, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
}

/** Records up to `target` only: a run that crosses it is cut there. */
function upTo(page: LogRecord[], target: number): LogRecord[] {
  const out: LogRecord[] = [];
  for (const r of page) {
    if (r.seq > target) break;
    if (lastSeqOf(r) <= target) out.push(r);
    else if (r.entry.kind === 'claims') out.push({ ...r, entry: sliceRun(r.entry, 0, target - r.seq + 1) });
  }
  return out;
}

function int(v: unknown, field: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new KbValidationError('out_of_range', field, `must be an integer from ${min} to ${max}`);
  return v;
}

/** The settings checked: KbValidationError naming the field. */
export function checkOffThreadSettings(s: unknown): OffThreadSettings {
  if (s === null || typeof s !== 'object' || Array.isArray(s))
    throw new KbValidationError('invalid_type', 'settings', 'must be an object { heap_mb?, idle_ms?, max_waiting? }');
  const o = s as OffThreadSettings;
  for (const k of Object.keys(o)) {
    if (!['heap_mb', 'idle_ms', 'max_waiting'].includes(k))
      throw new KbValidationError('unknown_option', k, 'is not a setting: use heap_mb, idle_ms or max_waiting');
  }
  const out: OffThreadSettings = {};
  const heap = int(o.heap_mb, 'heap_mb', 16, 1_048_576);
  if (heap !== undefined) out.heap_mb = heap;
  const idle = int(o.idle_ms, 'idle_ms', 0, 86_400_000);
  if (idle !== undefined) out.idle_ms = idle;
  const waiting = int(o.max_waiting, 'max_waiting', 1, 10_000);
  if (waiting !== undefined) out.max_waiting = waiting;
  return out;
}

export class Replica {
  private worker: Worker | undefined;
  /** Errors the current and past threads reported, read when they exit. */
  private readonly errors = new WeakMap<Worker, Error>();
  /** Threads that ended with no job running, and what the jobs meant for them are answered. */
  private readonly broken = new WeakMap<Worker, Error>();
  /** Threads ended on purpose (stop): their end is no fault. */
  private readonly stopping = new WeakSet<Worker>();
  /** Jobs asked and not answered yet (waiting, being fed, sent). */
  private open = 0;
  /** Each thread's heap cap (MB), for the messages of its end. */
  private readonly heaps = new WeakMap<Worker, number>();
  /** The last log position sent to the current thread. */
  private sent = 0;
  private readonly waiting: Pending[] = [];
  /** Jobs sent to the thread, in the order it runs them; the first may have started. */
  private readonly posted = new Map<number, Pending>();
  private nextId = 1;
  private pumping = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly source: ReplicaSource,
    private readonly data: Omit<ReplicaData, 'nice'>,
    private settings: OffThreadSettings = {},
  ) {}

  /** New settings; a thread already started keeps its heap cap until it ends (when idle, or at once if idle now). */
  configure(settings: OffThreadSettings): void {
    this.settings = { ...this.settings, ...settings };
    this.retire();
  }

  /** Whether a replica thread is running now (tests and stats read it). */
  get threadRunning(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Runs `job` on the replica as of the base's position now; `budgetMs` is its time from when it starts. Refused
   * with KbBusyError when max_waiting jobs are already running or waiting.
   */
  run(job: ReplicaJob, budgetMs: number): Promise<ReplicaAnswer> {
    if (this.closed) return Promise.reject(new KbClosedError());
    const max = this.settings.max_waiting ?? OFF_THREAD_DEFAULTS.max_waiting;
    if (this.open >= max) return Promise.reject(new KbBusyError('off-thread calls', this.open, this.retryAfterS()));
    clearTimeout(this.idleTimer);
    this.open++;
    const answer = new Promise<ReplicaAnswer>((resolve, reject) => {
      this.waiting.push({
        id: this.nextId++,
        kind: job.kind,
        job,
        budgetMs,
        resolve,
        reject,
        started: false,
        deadline: 0,
      });
      void this.pump();
    });
    const settled = () => {
      if (--this.open === 0) this.idle();
    };
    answer.then(settled, settled);
    return answer;
  }

  /** Seconds until the job running now must have ended: when a place in the queue is sure to be free. */
  private retryAfterS(): number {
    let deadline = 0;
    for (const p of this.posted.values()) if (p.started) deadline = p.deadline;
    return Math.max(1, Math.min(3600, Math.ceil((deadline - Date.now()) / 1000)));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const p of [...this.waiting.splice(0), ...this.posted.values()]) {
      clearTimeout(p.timer);
      p.reject(new KbClosedError());
    }
    this.posted.clear();
    const w = this.worker;
    this.worker = undefined;
    if (w) this.stopping.add(w);
    await w?.terminate();
  }

  /** Sends the waiting jobs, each batch after the records up to the base's position when it was taken. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting.length > 0 && !this.closed) {
        // The batch is taken before the position: every job in it was asked before the position was read, so it
        // sees every write acknowledged before it was asked.
        const batch = this.waiting.splice(0);
        let worker: Worker;
        let target: number;
        try {
          worker = this.thread();
          target = await this.source.position();
          while (this.sent < target && worker === this.worker) {
            const records = upTo(await this.source.readAfter(this.sent, PAGE), target);
            if (records.length === 0) break;
            if (worker !== this.worker) break;
            worker.postMessage({ op: 'feed', records } satisfies ToReplica);
            this.sent = lastSeqOf(records[records.length - 1]!);
            // A slice of the log per turn of the event loop: other requests are answered in between.
            await new Promise((r) => setImmediate(r));
          }
        } catch (e) {
          for (const p of batch) p.reject(e);
          continue;
        }
        worker.ref();
        for (const [i, p] of batch.entries()) {
          // Each job's input is copied into the message (a what-if's claims: tens of ms): one per turn.
          if (i > 0) await new Promise((r) => setImmediate(r));
          if (worker !== this.worker || this.closed) {
            this.unsent(worker, batch.slice(i));
            break;
          }
          p.on = worker;
          this.posted.set(p.id, p);
          worker.postMessage({ op: 'run', id: p.id, job: p.job } satisfies ToReplica);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Jobs not yet sent to a thread that has ended: of itself (they get the reason), with the base closed, or because
   * the job it was running was stopped (they go to a fresh thread, in the order asked).
   */
  private unsent(worker: Worker, jobs: Pending[]): void {
    const why = this.broken.get(worker) ?? (this.closed ? new KbClosedError() : undefined);
    if (why) for (const p of jobs) p.reject(why);
    else {
      this.waiting.push(...jobs);
      this.waiting.sort((a, b) => a.id - b.id);
    }
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const heapMb =
      this.settings.heap_mb ?? Math.ceil(process.memoryUsage().heapUsed / 2 ** 20) + OFF_THREAD_DEFAULTS.job_heap_mb;
    // Read at each start, so a setting refused (503, naming it) or changed applies to the next thread.
    const data: ReplicaData = { ...this.data, nice: offThreadNice() };
    let worker: Worker;
    try {
      worker = startThread(data, heapMb);
    } catch (e) {
      throw new KbOffThreadUnavailableError(`the thread could not start (${(e as Error).message})`);
    }
    this.worker = worker;
    this.heaps.set(worker, heapMb);
    this.sent = 0;
    worker.on('message', (m: FromReplica) => this.onMessage(worker, m));
    worker.on('error', (e) => this.errors.set(worker, e));
    worker.on('exit', () => this.onExit(worker));
    worker.unref();
    return worker;
  }

  private onMessage(worker: Worker, m: FromReplica): void {
    const p = this.posted.get(m.id);
    if (!p || p.on !== worker) return;
    if (m.type === 'started') {
      p.started = true;
      const limit = p.budgetMs + graceMs(p.budgetMs, p.kind);
      p.deadline = Date.now() + limit;
      // When the base's thread was busy, the timer and the job's answer can both be due: timers run before
      // messages, so the stop waits for setImmediate, after the poll phase has delivered any answer.
      p.timer = setTimeout(
        () =>
          setImmediate(() => {
            if (this.posted.get(p.id) !== p) return;
            p.timedOut = true;
            this.stop(worker);
          }),
        limit,
      );
      p.timer.unref();
      return;
    }
    clearTimeout(p.timer);
    this.posted.delete(m.id);
    if (m.error) p.reject(deserializeError(m.error));
    else p.resolve(m.json ? { json: m.json } : { value: m.value });
  }

  /** No job left: the thread no longer keeps the process alive, and ends after idle_ms. */
  private idle(): void {
    if (this.closed) return;
    this.worker?.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.retire(), this.settings.idle_ms ?? OFF_THREAD_DEFAULTS.idle_ms);
    this.idleTimer.unref();
  }

  /** Ends an idle thread: its heap is given back; the next job builds a fresh replica. */
  private retire(): void {
    if (this.worker && this.open === 0) this.stop(this.worker);
  }

  /**
   * Ends a thread on purpose (past a job's budget, or idle): no job is sent to it from now on, and when it has
   * ended (onExit) the job it was running is answered and those behind it go to a fresh thread.
   */
  private stop(worker: Worker): void {
    this.stopping.add(worker);
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }

  private onExit(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    const error = this.errors.get(worker);
    const oom = (error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    const jobs = [...this.posted.values()].filter((p) => p.on === worker);
    for (const p of jobs) this.posted.delete(p.id);
    const stopping = this.stopping.has(worker);
    // The job running when the thread ended is answered for it, unless the thread was stopped for another job's
    // budget while this one had just started (the stop was asked before its start was read): it runs again.
    let running = jobs.find((p) => p.started);
    if (running && stopping && !running.timedOut && !oom) {
      running.started = false;
      clearTimeout(running.timer);
      running = undefined;
    }
    const rest = jobs.filter((p) => p !== running);
    if (running) {
      clearTimeout(running.timer);
      running.reject(this.stopped(running, oom, error, this.heaps.get(worker) ?? 0));
    }
    if (running || stopping) {
      // The jobs behind the stopped one had not started: they run on a fresh thread.
      if (rest.length === 0) return;
      this.waiting.push(...rest);
      this.waiting.sort((a, b) => a.id - b.id);
      if (!this.closed) void this.pump();
      return;
    }
    // Ended of itself with no job running: the records did not fit its heap, or could not be applied. Trying again
    // would end the same way, so the jobs sent to it, and those being fed to it (pump reads `broken`), get the
    // reason.
    const why = new KbOffThreadUnavailableError(
      oom
        ? `its copy of the graph does not fit its heap cap of ${this.heaps.get(worker)} MB (raise heap_mb with configureOffThread)`
        : `the thread ended (${error?.message ?? 'no error reported'})`,
    );
    this.broken.set(worker, why);
    for (const p of rest) p.reject(why);
  }

  /** The answer of a job whose thread was stopped under it. */
  private stopped(p: Pending, oom: boolean, error: Error | undefined, heapMb: number): Error {
    const cypher = p.kind === 'cypher';
    if (p.timedOut) return new KbWorkerTimeoutError(cypher ? 'cypher_timeout' : 'what_if_timeout', p.budgetMs);
    if (oom)
      return new KbWorkerMemoryError(
        cypher ? 'cypher_memory_limit' : 'what_if_memory_limit',
        cypher ? 'cypher' : 'add_claims',
        heapMb,
      );
    return new KbOffThreadUnavailableError(`the thread ended while running the call (${error?.message ?? 'no error'})`);
  }
}
