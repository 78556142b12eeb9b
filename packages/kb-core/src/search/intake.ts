// Claims waiting to enter the search index. The apply only appends a claim's number here (one store per
// claim), so indexing costs an ingest's commit nothing: tokenizing a fact's text and adding it to BM25 takes
// several times longer than the rest of the apply, and ran inside every commit before. The claims enter the
// index after the commit, in slices in the background, and every read of the index first takes in what is
// left (`drain`), so lexical search is always current; only vectors may lag (`pending`).
// Slices as the embedding queue's: SLICE_MS of work, BUSY_PAUSE_MS apart while claims keep arriving.
import { BUSY_PAUSE_MS, SLICE_MS } from '../embeddings/queue.js';
import { foreground, GATED_MS } from '../graph/derived.js';

export class SearchIntake {
  private claims = new Int32Array(1024);
  private end = 0;
  private head = 0;
  /** Claims pushed ever, and as of the last schedule: a counter, not a clock read per claim of a large run. */
  private pushed = 0;
  private pushedAtSchedule = 0;
  private timer: NodeJS.Timeout | null = null;
  private scheduled = false;
  private closed = false;
  /** Set for hypothetical graphs (whatIf): nothing runs in the background, only drains. */
  private deferred = false;

  constructor(
    /** Puts claim c into the index (claims come in the order they were applied). */
    private readonly take: (c: number) => void,
  ) {}

  get count(): number {
    return this.end - this.head;
  }

  push(c: number): void {
    if (this.end === this.claims.length) {
      if (this.head > 0 && this.head * 2 >= this.end) {
        this.claims.copyWithin(0, this.head, this.end);
        this.end -= this.head;
        this.head = 0;
      } else {
        const grown = new Int32Array(this.claims.length * 2);
        grown.set(this.claims.subarray(0, this.end));
        this.claims = grown;
      }
    }
    this.claims[this.end++] = c;
    this.pushed++;
    if (!this.scheduled) this.schedule();
  }

  /** The claim `i` places from the head (the i+1-th to be taken), or -1 past the end. */
  at(i: number): number {
    return this.head + i < this.end ? this.claims[this.head + i]! : -1;
  }

  /** Drops the next n claims without taking them (they are in an index restored from disk: search/persist.ts). */
  skip(n: number): void {
    this.head = Math.min(this.end, this.head + n);
    if (this.head === this.end) this.head = this.end = 0;
  }

  /** Indexes for at most `ms` milliseconds; returns whether claims are left. */
  runFor(ms: number): boolean {
    const stop = performance.now() + ms;
    while (this.head < this.end) {
      const batchEnd = Math.min(this.end, this.head + 256);
      while (this.head < batchEnd) this.take(this.claims[this.head++]!);
      if (performance.now() > stop || foreground.yieldNow()) break;
    }
    if (this.head === this.end) this.head = this.end = 0;
    return this.head < this.end;
  }

  /** Takes in every claim waiting, in slices that let other work run between them. */
  async drain(): Promise<void> {
    while (this.runFor(SLICE_MS)) await new Promise((r) => setImmediate(r));
  }

  /** No background work (a what-if view's graph): claims enter only when a read drains them. */
  defer(): void {
    this.deferred = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.scheduled = false;
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delay?: number): void {
    if (this.scheduled || this.closed || this.deferred) return;
    this.scheduled = true;
    const busy = this.pushed !== this.pushedAtSchedule;
    this.pushedAtSchedule = this.pushed;
    // While claims keep arriving, wait so an ingest keeps most of the event loop; otherwise go at once.
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.scheduled = false;
        if (this.closed || this.deferred) return;
        // A write under way keeps the loop (graph/derived.ts): look again soon, after its commit.
        if (!foreground.free()) this.schedule(GATED_MS);
        else if (this.runFor(SLICE_MS)) this.schedule();
      },
      delay ?? (busy ? BUSY_PAUSE_MS : 0),
    );
    // Waiting claims alone never keep a process alive.
    this.timer.unref();
  }
}
