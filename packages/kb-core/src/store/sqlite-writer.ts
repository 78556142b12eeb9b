// Helper threads for the SQLite store: a writer for large appends, so that writing the log overlaps with the
// engine's index update (see SqliteClaimStore.beginAppend), and a checkpointer. Each is started when first
// needed and unref'd, so it never keeps a process alive; requests are answered in order, so a FIFO of waiters
// matches replies to them.
import type { Worker } from 'node:worker_threads';
import { onWorkerEnd, startWorker } from '@evident/worker-threads';
import { KbError } from '../errors.js';
import type { ChunkBody } from './chunks.js';
import { recycleRecordBuffers } from './record-buffers.js';

export type ToWriter =
  // A run's binary record is transferred (no copy); other chunks go as JSON strings, copied into the message.
  // `commit`: the transaction ends as soon as the chunks are in (no separate commit request).
  | { op: 'begin'; expectedHead: number; ts: number; chunks: { n: number; body: ChunkBody }[]; commit: boolean }
  | { op: 'commit' }
  | { op: 'rollback' }
  | { op: 'checkpoint' }
  | { op: 'close' };

/** `spent`: the buffers of the records just written, handed back (record-buffers.ts). */
export type FromWriter =
  | { ok: true; spent?: ArrayBuffer[] }
  | { ok: false; conflict: number }
  | { ok: false; error: string };

// Plain JavaScript beside this file in the sources and in the build alike: started without tsx (see its header).
const threadModule = new URL('./sqlite-writer-thread.mjs', import.meta.url);

export class WriterThread {
  private readonly worker: Worker;
  private readonly waiting: { resolve: (m: FromWriter) => void; reject: (e: Error) => void }[] = [];
  /** Set once the thread has failed or exited: the store then writes on its own connection again. */
  dead: Error | undefined;
  /** [requests the thread has answered, whether the last answer was ok (1)]: written by the thread. */
  private readonly answered = new Int32Array(new SharedArrayBuffer(8));
  /** Requests sent so far: the last one's number. */
  private sent = 0;

  constructor(file: string) {
    this.worker = startWorker(threadModule, { workerData: { file, answered: this.answered }, plain: true });
    this.worker.unref();
    this.worker.on('message', (m: FromWriter) => {
      if (m.ok && m.spent) recycleRecordBuffers(m.spent);
      this.waiting.shift()?.resolve(m);
    });
    onWorkerEnd(this.worker, (e) => {
      this.dead ??=
        e.code === 'worker_exited'
          ? new KbError('storage_failed', `the SQLite writer thread exited (code ${e.exitCode})`)
          : new KbError('storage_failed', `the SQLite writer thread failed: ${(e.cause as Error).message}`);
      for (const w of this.waiting.splice(0)) w.reject(this.dead);
    });
  }

  /** `transfer`: buffers the message hands over (they are detached here). */
  request(m: ToWriter, transfer: ArrayBuffer[] = []): Promise<FromWriter> {
    if (this.dead) return Promise.reject(this.dead);
    this.sent++;
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(m, transfer);
    });
  }

  /** The number request() just gave its request (1, 2, ...), for answeredOk. */
  get lastSent(): number {
    return this.sent;
  }

  /**
   * Whether request number `n` was the last one answered, and answered ok: read from memory the thread shares,
   * so a caller can go on at once instead of waiting a turn of the event loop for the message (which arrives
   * anyway and settles the request's promise).
   */
  answeredOk(n: number): boolean {
    return Atomics.load(this.answered, 0) === n && Atomics.load(this.answered, 1) === 1;
  }

  async close(): Promise<void> {
    if (this.dead) return;
    try {
      await this.request({ op: 'close' });
    } catch {
      // Already gone.
    }
    await this.worker.terminate();
  }
}
