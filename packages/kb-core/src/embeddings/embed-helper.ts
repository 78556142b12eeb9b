// A second thread for the local embedder's catch-up (issue 41 point 2). Once every fact is learnt, a pass gives
// every fact and entity a vector: its CPU is the embedder (tokens, context and trigram vectors), the binary code
// and exact row of each vector, and making the texts. With a core to spare, the thread embeds and encodes while
// the queue's thread makes the next texts, copies the last batch in, and embeds a few itself whenever the
// thread's oldest batch is not back yet (so neither waits), two batches in flight.
// The thread holds a copy of the learner. No batch is posted while facts wait to be learnt or arrive (the queue
// learns them first, on its thread, once the batches out are stored), so a batch's learner is the queue's when it
// is stored; should it not be (a restore, a restart of the pass), the batch goes back to pending or is dropped.
import type { Worker } from 'node:worker_threads';
import { onWorkerEnd, siblingModule, startWorker } from '@evident/worker-threads';
import type { Lane } from './lane.js';
import type { LearnerState, LocalEmbedder } from './local.js';
import { catchUpThreads } from './vectors.js';

export type ToEmbedThread =
  | { op: 'learner'; dim: number; version: number; state: LearnerState }
  | { op: 'embed'; id: number; texts: string[]; encode: boolean }
  | { op: 'close' };
/** The vectors, or for a lane that `encodes` their exact rows and codes (binary-set.ts, encodeRows). */
export type FromEmbedThread = { id: number; version: number } & (
  | { rows: Float32Array }
  | { exact: Int16Array; codes: Uint8Array }
);

const threadModule = siblingModule(import.meta.url, './embed-thread');

/** Texts per batch: about 4 ms of embedding, as long as making their texts and storing their vectors here. */
export const THREAD_BATCH = 256;
/** A catch-up uses the thread from this many items pending: below, starting it costs more than it gives. */
export const THREAD_MIN = 4096;
/** Texts embedded on the queue's thread at a time while the thread's oldest batch is not back (about 1 ms). */
const HERE_BATCH = 32;

/** Embeds `keys` of `lane` on this thread and stores their vectors (`threads`: HNSW's inserts, lane.ts). */
export function embedHere(lane: Lane, keys: number[], learner: LocalEmbedder, threads = 1): void {
  const dim = lane.vectors.dim;
  const rows = new Float32Array(keys.length * dim);
  for (let i = 0; i < keys.length; i++) rows.set(learner.embedText(lane.text(keys[i]!)), i * dim);
  lane.store(keys, rows, threads);
}

/** EVIDENT_EMBED_THREAD=0: never; =1: whenever there is work (tests); else with a core to spare, from THREAD_MIN. */
export function embedThreadMode(): 'off' | 'always' | 'auto' {
  const v = process.env.EVIDENT_EMBED_THREAD;
  return v === '0' ? 'off' : v === '1' ? 'always' : 'auto';
}

interface Batch {
  lane: Lane;
  /** The lane's restart count when the keys were taken: a restarted lane queued them again itself. */
  epoch: number;
  keys: number[];
  reply: Promise<FromEmbedThread | null>;
  /** Set when the reply has come. */
  done: boolean;
}

let batchesDone = 0;
/** Batches embedded on the thread since the process started (lets tests see that it really ran). */
export function embedThreadBatches(): number {
  return batchesDone;
}

export class EmbedThread {
  constructor(private readonly mode = embedThreadMode()) {}
  private worker: Worker | undefined;
  /** Set once the thread failed or exited: the queue embeds on its own thread again. */
  dead = false;
  /** The learner's version the thread holds. */
  private sent = -1;
  private nextId = 0;
  private readonly replies = new Map<number, (m: FromEmbedThread | null) => void>();
  private readonly batches: Batch[] = [];

  /** Items posted and not stored yet: still pending for the queue. */
  get inFlight(): number {
    let n = 0;
    for (const b of this.batches) n += b.keys.length;
    return n;
  }

  get busy(): boolean {
    return this.batches.length > 0;
  }

  /** Whether `work` items (to learn or embed) are worth the thread: always (=1), or with a spare core from THREAD_MIN. */
  wanted(work: number): boolean {
    if (this.dead || this.mode === 'off' || work === 0) return false;
    return this.mode === 'always' || (work >= THREAD_MIN && catchUpThreads() > 1);
  }

  /** Starts the thread ahead of its first batch (it boots while the queue learns: about 0.4 s under tsx). */
  warm(): void {
    if (this.worker || this.dead) return;
    try {
      this.worker = this.start();
    } catch {
      this.dead = true;
    }
  }

  private start(): Worker {
    const w = startWorker(threadModule);
    w.unref();
    w.on('message', (m: FromEmbedThread) => {
      this.replies.get(m.id)?.(m);
      this.replies.delete(m.id);
    });
    onWorkerEnd(w, () => {
      this.dead = true;
      for (const r of this.replies.values()) r(null);
      this.replies.clear();
    });
    return w;
  }

  /**
   * One step: batches posted until two are in flight (learner sent first if it changed) unless `more` is false,
   * then the oldest one's vectors stored. Returns the items stored (0 when the batch went back or the thread died).
   */
  async step(lanes: readonly Lane[], learner: LocalEmbedder, more: boolean): Promise<number> {
    for (const lane of lanes)
      while (more && this.batches.length < 2 && lane.count > 0 && !this.dead)
        this.post(lane, lane.take(THREAD_BATCH), learner);
    const b = this.batches[0];
    if (!b) return 0;
    // The thread is behind: rather than wait, this thread embeds a few itself.
    for (const lane of lanes)
      if (!b.done && more && lane.count > 0) {
        const keys = lane.take(HERE_BATCH);
        embedHere(lane, keys, learner);
        return keys.length;
      }
    const m = await b.reply;
    this.batches.shift();
    if (b.epoch !== b.lane.epoch) return 0;
    if (!m || m.version !== learner.version) {
      b.lane.putBack(b.keys);
      return 0;
    }
    if ('rows' in m) b.lane.store(b.keys, m.rows);
    else b.lane.storeEncoded(b.keys, m.exact, m.codes);
    batchesDone++;
    return b.keys.length;
  }

  private post(lane: Lane, keys: number[], learner: LocalEmbedder): void {
    this.warm();
    if (!this.worker) {
      lane.putBack(keys);
      return;
    }
    if (this.sent !== learner.version) {
      const state = learner.exportState();
      const msg: ToEmbedThread = { op: 'learner', dim: learner.dim, version: learner.version, state };
      // exportState made these arrays for this message: handed over, not copied.
      this.worker.postMessage(
        msg,
        [state.context, state.df, state.context_rows].map((a) => a.buffer as ArrayBuffer),
      );
      this.sent = learner.version;
    }
    const id = this.nextId++;
    const texts = keys.map((k) => lane.text(k));
    const batch: Batch = { lane, epoch: lane.epoch, keys, done: false, reply: Promise.resolve(null) };
    batch.reply = new Promise<FromEmbedThread | null>((resolve) =>
      this.replies.set(id, (m) => {
        batch.done = true;
        resolve(m);
      }),
    );
    this.worker.postMessage({ op: 'embed', id, texts, encode: lane.encodes } satisfies ToEmbedThread);
    this.batches.push(batch);
  }

  close(): void {
    this.dead = true;
    for (const r of this.replies.values()) r(null);
    this.replies.clear();
    // Asked to end: the thread closes its port and exits after the batch under way (nothing waits for it).
    this.worker?.postMessage({ op: 'close' } satisfies ToEmbedThread);
  }
}
