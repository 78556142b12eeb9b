// Helper threads for the SQLite store: a writer for large appends, so that writing the log overlaps with the
// engine's index update (see SqliteClaimStore.beginAppend), and a checkpointer. Each is started when first
// needed and unref'd, so it never keeps a process alive; requests are answered in order, so a FIFO of waiters
// matches replies to them.
import { Worker } from 'node:worker_threads';
import { KbError } from '../errors.js';

export type ToWriter =
  // Chunk bodies go as strings: copying a one-byte string into the message is a memcpy, cheaper than UTF-8
  // encoding it for a transfer (measured).
  | { op: 'begin'; expectedHead: number; ts: number; chunks: { n: number; body: string }[] }
  | { op: 'commit' }
  | { op: 'rollback' }
  | { op: 'checkpoint' }
  | { op: 'close' };

export type FromWriter = { ok: true } | { ok: false; conflict: number } | { ok: false; error: string };

// Built mode runs the thread's .js file. Source mode (tsx) runs the .ts file, and on Node 20 a worker's entry
// module does not get the parent's --import hooks yet, so a one-line bootstrap registers tsx in the thread first.
const sourceMode = import.meta.url.endsWith('.ts');
const threadUrl = new URL(sourceMode ? './sqlite-writer-thread.ts' : './sqlite-writer-thread.js', import.meta.url);

export class WriterThread {
  private readonly worker: Worker;
  private readonly waiting: { resolve: (m: FromWriter) => void; reject: (e: Error) => void }[] = [];
  /** Set once the thread has failed or exited: the store then writes on its own connection again. */
  dead: Error | undefined;

  constructor(file: string) {
    const workerData = { file };
    this.worker = sourceMode
      ? new Worker(
          `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(threadUrl.href)}); })`,
          { eval: true, workerData },
        )
      : new Worker(threadUrl, { workerData });
    this.worker.unref();
    this.worker.on('message', (m: FromWriter) => this.waiting.shift()?.resolve(m));
    const fail = (e: Error) => {
      this.dead ??= e;
      for (const w of this.waiting.splice(0)) w.reject(e);
    };
    this.worker.on('error', (e) =>
      fail(new KbError('storage_failed', `the SQLite writer thread failed: ${e.message}`)),
    );
    this.worker.on('exit', (code) =>
      fail(new KbError('storage_failed', `the SQLite writer thread exited (code ${code})`)),
    );
  }

  request(m: ToWriter): Promise<FromWriter> {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(m);
    });
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
