// The console's one lane for heavy work on its own thread (a search's ranking, a topology computation's labels,
// a what-if's 2 MB body and its copy to the replica thread): one such job at a time, and the next starts in an
// event-loop turn of its own (setImmediate) after the one before it ended, so that between two jobs the server reads
// its sockets and answers the small requests that arrived meanwhile. A small request then waits at most the job
// running when it came (~150-500 ms), never a whole burst. Jobs wait in arrival order; past the lane's bound the call
// is refused at once, 429 `console_busy` with Retry-After (past a kind's own bound, 429 `busy`, the library's).
//
// One turn between two jobs is not enough when connections arrive together: Node (libuv) accepts one pending
// connection per turn of a busy loop, the others wait in the kernel's accept queue. Forty searches sent at once
// then left a small request's connection behind the ones still queued, accepted one per search: 5 s. So between
// two jobs the lane keeps turning while the turn before accepted a connection or read a request (watch()), which
// empties the accept queue in cheap turns; a new connection then waits at most the job running when it came.
import type { Server } from 'node:http';
import { KbBusyError } from '@evident/kb';
import { kbServerError } from '../surface/error-codes.js';

export interface LaneSettings {
  /** Jobs running or waiting at most, all kinds together; one more is 429 console_busy. */
  maxWaiting: number;
  /** The Retry-After of a refusal, in seconds. */
  retryAfterS: number;
}

/**
 * Turns between two jobs at most: a turn accepts one connection, and a client holds at most 64 (the per-address cap),
 * so a burst's queue empties well within; a steady flood of connections cannot hold the lane longer than this.
 */
const MAX_QUIET_TURNS = 256;

export const LANE_DEFAULTS: LaneSettings = { maxWaiting: 64, retryAfterS: 1 };

export class HeavyLane {
  private running = false;
  private readonly waiting: Array<() => void> = [];
  private readonly perKind = new Map<string, number>();
  /** Connections accepted and requests read by the servers watched: a turn that saw one is followed by another. */
  private arrivals = 0;

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
        // The next job starts in a turn of its own, once a turn accepted no connection and read no request: the
        // connections waiting to be accepted and the small requests are answered first.
        this.turnUntilQuiet(MAX_QUIET_TURNS);
      }
    } finally {
      const left = (this.perKind.get(kind) ?? 1) - 1;
      if (left) this.perKind.set(kind, left);
      else this.perKind.delete(kind);
    }
  }

  /**
   * Counts `server`'s accepted connections and requests, so that the lane lets the event loop turn until they stop
   * coming before it starts its next job. The console's server is watched; a lane without one yields one turn.
   */
  watch(server: Server): void {
    const arrived = () => {
      this.arrivals++;
    };
    server.on('connection', arrived);
    server.on('request', arrived);
  }

  /**
   * Turns of the event loop, `left` at most, until one saw no arrival; then the next job. Arrivals are read in
   * check phases: an immediate queued there runs after the next poll phase (where connections are accepted and
   * requests read), while one queued from a poll phase (where a request's job may end) runs before it.
   */
  private turnUntilQuiet(left: number): void {
    const turn = (seen: number, more: number) =>
      setImmediate(() => (this.arrivals !== seen && more > 1 ? turn(this.arrivals, more - 1) : this.next()));
    setImmediate(() => turn(this.arrivals, left));
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
