// A second thread for the local embedder's catch-up (issue 41 point 2). Once every fact is learnt, a pass gives
// every fact and entity a vector: about half of that CPU is the embedder (tokens, context and trigram vectors),
// the rest making the texts and storing the vectors (binary codes, exact rows). With a core to spare, the thread
// embeds while the queue's thread makes the next texts and stores the last vectors, two batches in flight.
// The thread holds a copy of the learner. No batch is posted while facts wait to be learnt or arrive (the queue
// learns them first, on its thread, once the batches out are stored), so a batch's learner is the queue's when it
// is stored; should it not be (a restore, a restart of the pass), the batch goes back to pending or is dropped.
import type { Worker } from 'node:worker_threads';
import { onWorkerEnd, siblingModule, startWorker } from '@evident/worker-threads';
import type { Lane } from './lane.js';
import type { LearnerState, LocalEmbedder } from './local.js';

export type ToEmbedThread =
  | { op: 'learner'; dim: number; version: number; state: LearnerState }
  | { op: 'embed'; id: number; texts: string[] }
  | { op: 'close' };
export type FromEmbedThread = { id: number; version: number; rows: Float32Array };

const threadModule = siblingModule(import.meta.url, './embed-thread');

/** Texts per batch: about 4 ms of embedding, as long as making their texts and storing their vectors here. */
export const THREAD_BATCH = 256;
/** A catch-up uses the thread from this many items pending: below, starting it costs more than it gives. */
export const THREAD_MIN = 4096;

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
}

let batchesDone = 0;
/** Batches embedded on the thread since the process started (lets tests see that it really ran). */
export function embedThreadBatches(): number {
  return batchesDone;
}

export class EmbedThread {
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
    const m = await b.reply;
    this.batches.shift();
    if (b.epoch !== b.lane.epoch) return 0;
    if (!m || m.version !== learner.version) {
      b.lane.putBack(b.keys);
      return 0;
    }
    b.lane.store(b.keys, m.rows);
    batchesDone++;
    return b.keys.length;
  }

  private post(lane: Lane, keys: number[], learner: LocalEmbedder): void {
    try {
      this.worker ??= this.start();
    } catch {
      this.dead = true;
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
    const reply = new Promise<FromEmbedThread | null>((resolve) => this.replies.set(id, resolve));
    this.worker.postMessage({ op: 'embed', id, texts } satisfies ToEmbedThread);
    this.batches.push({ lane, epoch: lane.epoch, keys, reply });
  }

  close(): void {
    this.dead = true;
    for (const r of this.replies.values()) r(null);
    this.replies.clear();
    // Asked to end rather than terminated: terminating a thread that is still starting (its loader hooks under
    // tsx) can abort the process.
    this.worker?.postMessage({ op: 'close' } satisfies ToEmbedThread);
  }
}
