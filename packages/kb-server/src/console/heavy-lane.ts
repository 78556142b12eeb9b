// The console's one lane for heavy work on its own thread (a search's ranking, a topology computation's labels,
// a what-if's 2 MB body and its copy to the replica thread): one such job at a time, and the next starts in an
// event-loop turn of its own (setImmediate) after the one before it ended, so that between two jobs the server reads
// its sockets and answers the small requests that arrived meanwhile. A small request then waits at most the job
// running when it came (~150-500 ms), never a whole burst. Jobs wait in arrival order; past the lane's bound the call
// is refused at once, 429 `console_busy` with Retry-After (past a kind's own bound, 429 `busy`, the library's).
import { KbBusyError } from '@evident/kb';
import { kbServerError } from '../surface/error-codes.js';

export interface LaneSettings {
  /** Jobs running or waiting at most, all kinds together; one more is 429 console_busy. */
  maxWaiting: number;
  /** The Retry-After of a refusal, in seconds. */
  retryAfterS: number;
}

export const LANE_DEFAULTS: LaneSettings = { maxWaiting: 64, retryAfterS: 1 };

export class HeavyLane {
  private running = false;
  private readonly waiting: Array<() => void> = [];
  private readonly perKind = new Map<string, number>();

  constructor(private readonly settings: LaneSettings = LANE_DEFAULTS) {}

  /** Jobs running or waiting. */
  get size(): number {
    return this.waiting.length + (this.running ? 1 : 0);
  }

  /**
   * Runs `work` alone on the lane, after the jobs asked before it. `kind` with `kindMax` bounds the jobs of one
   * kind running or waiting (topology computations: one running, two waiting, as the library's own queue).
   */
  async run<T>(kind: string, work: () => Promise<T>, kindMax = Infinity): Promise<T> {
    const ofKind = this.perKind.get(kind) ?? 0;
    // A kind past its own bound is the library's refusal of the same calls (429 busy), as it was before the lane.
    if (ofKind >= kindMax) throw new KbBusyError(`${kind} calls`, ofKind, this.settings.retryAfterS);
    if (this.size >= this.settings.maxWaiting) {
      const what = `${this.size} heavy calls`;
      throw kbServerError(
        'console_busy',
        `${what} are already running or waiting on the console's thread; retry after ${this.settings.retryAfterS} s`,
      );
    }
    this.perKind.set(kind, ofKind + 1);
    try {
      if (this.running || this.waiting.length) await new Promise<void>((r) => this.waiting.push(r));
      this.running = true;
      try {
        return await work();
      } finally {
        // The next job starts in a turn of its own: the sockets are read (and small requests answered) first.
        setImmediate(() => this.next());
      }
    } finally {
      const left = (this.perKind.get(kind) ?? 1) - 1;
      if (left) this.perKind.set(kind, left);
      else this.perKind.delete(kind);
    }
  }

  private next(): void {
    const start = this.waiting.shift();
    if (start) start();
    else this.running = false;
  }

  /** The Retry-After of a refusal. */
  get retryAfterS(): number {
    return this.settings.retryAfterS;
  }
}

/** The console process's lane: one thread, so one lane. */
export const heavyLane = new HeavyLane();
