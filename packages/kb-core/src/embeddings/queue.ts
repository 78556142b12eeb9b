// Which facts and entities still need a vector, and the background work that gives them one. Nothing here
// runs inside an ingest's commit: the apply only appends to `pending`; vectors are computed after the commit,
// in slices (local) or batches (a provider), and `search` answers with what is indexed meanwhile. The queue
// is a function of the log (a rebuild makes a fresh one with everything pending), so pending work survives a
// restart, and a provider outage leaves items pending (retried with backoff), never loses them.
import { KbError } from '../errors.js';
import { LocalEmbedder, type LearnerState } from './local.js';
import type { EmbeddingPort } from './port.js';
import { textHash, type SharedVectors } from '../store/shared-vectors.js';
import { readOnly } from './shared-read.js';
import { indexStatus, type EmbeddingStatus } from './status.js';
export type { EmbeddingStatus } from './status.js';
import { buildSlice, localVectors, Lane } from './lane.js';
import { catchUpThreads } from './vectors.js';
import { EmbedThread, embedHere } from './embed-helper.js';
import { foreground, GATED_MS } from '../graph/derived.js';

export { BUSY_PAUSE_MS, SHARED_LEASE_MS, SLICE_MS } from './pacing.js';
import * as pace from './pacing.js';

export class KbEmbeddingError extends KbError {
  constructor(code: string, message: string) {
    super(code, message, { status: 502 });
  }
}

export class EmbeddingQueue {
  readonly facts: Lane;
  readonly entities: Lane;
  readonly local: LocalEmbedder;
  private scheduled = false;
  /** The timer of a delayed step (a backoff, a wait on another process, a pause while ingesting). */
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private waiters: (() => void)[] = [];
  private backoff = 0;
  private lastError: string | null = null;
  /**
   * The generation of the vectors: floor(log2(facts learnt)) when every vector was last (re)computed, -1
   * before the first pass; see learnt(). A function of the log, not of timing, so that processes sharing a
   * PostgreSQL base agree on which vectors are current (shared vectors are kept per generation).
   */
  private generation = -1;
  private closed = false;
  /** Set for hypothetical graphs (whatIf): no background work until someone searches or waits. */
  private deferred = false;
  /** A hypothetical graph's queue (whatIf): reads shared local vectors, never writes or drops any. */
  private hypothetical = false;

  /**
   * For a whatIf view's graph: defers all work until the first query or ready() (the view may never search),
   * and keeps its local vectors to itself: its learner has learnt claims that are not in the base, so what it
   * computes must not become the base's shared vectors (a provider's vectors depend on the text alone and
   * are shared as usual).
   */
  markHypothetical(): void {
    this.deferred = true;
    this.hypothetical = true;
  }

  private resume(): void {
    if (!this.deferred) return;
    this.deferred = false;
    this.schedule();
  }

  constructor(
    factText: (f: number) => string,
    entityText: (e: number) => string,
    /** The fact's tokens, as the lexical index has them (the local embedder learns from them). */
    readonly factTokens: (f: number) => readonly string[],
    readonly port: EmbeddingPort | undefined,
    localDim: number | undefined,
    private readonly entityCount: () => number,
    /** Vectors shared through the base (PostgreSQL): a provider's, or the local embedder's per generation. */
    private readonly shared?: SharedVectors,
    /** Claims applied but not yet handed to this queue (search/intake.ts): facts that are sure to come. */
    private readonly backlog: () => number = () => 0,
  ) {
    this.local = new LocalEmbedder(localDim);
    const dim = port ? port.dim : this.local.dim;
    this.facts = new Lane(dim, factText, port ? 'hnsw' : localVectors());
    this.entities = new Lane(dim, entityText, port ? 'hnsw' : localVectors());
  }

  get provider(): string {
    return this.port?.provider ?? this.local.provider;
  }

  /** `untaken`: items the search index has not handed over yet (search-index.ts), pending too. */
  status(untaken = 0): EmbeddingStatus {
    const pending = this.left() + this.inFlight + untaken;
    const { done, start } = this.work;
    const ms = performance.now() - start;
    return {
      provider: this.provider,
      model: this.port?.model ?? this.local.model,
      dim: this.facts.vectors.dim,
      indexed: this.facts.vectors.size,
      pending,
      last_error: this.lastError,
      progress: pending === 0 ? 1 : done / (done + pending),
      eta_ms: pending === 0 || done === 0 || ms < pace.ETA_AFTER_MS ? null : Math.round((pending * ms) / done),
      ...indexStatus([this.facts, this.entities]),
    };
  }

  /** The work done since nothing was last pending, and when it started (for status()'s progress and ETA). */
  private work = { done: 0, start: 0 };

  /** Items learnt or given a vector since the start, ever growing (persist.ts's checkpoints compare it). */
  worked = 0;
  /** Called after each step of background work with what is left (persist.ts: checkpoints while catching up). */
  onProgress: ((left: number) => void) | null = null;
  /** Called at close (persist.ts: a pending checkpoint's timer, which would keep the closed base alive). */
  onClose: (() => void) | null = null;

  private progressed(n: number): void {
    this.worked += n;
    if (this.work.done === 0) this.work.start = performance.now();
    this.work.done += n;
  }

  /** The local learner's progress, for saving it with the vectors (persist.ts). */
  learnerProgress(): { learned: number; generation: number } {
    return { learned: this.learned, generation: this.generation };
  }

  /** Restores a saved learner: it has learnt the first `learned` facts (persist.ts checks they are this log's). */
  restoreLearner(state: LearnerState, learned: number, generation: number): void {
    this.local.importState(state);
    this.learned = learned;
    this.generation = generation;
    // Saved after a doubling but before its re-embedding started (learnt()): the pass is still due.
    if (learned >= 8 && Math.floor(Math.log2(learned)) > generation) this.refreshDue = true;
  }

  /** Facts known (dense from 0) and, of them, those the local embedder has learnt (in order, in the background). */
  private factsKnown = 0;
  private learned = 0;

  addFact(f: number): void {
    this.lastAdd = performance.now();
    if (f + 1 > this.factsKnown) this.factsKnown = f + 1;
    // A vector loaded at open (persist.ts) is kept, unless a re-embedding must replace every vector.
    if (this.facts.rebuilding || !this.facts.vectors.has(f)) this.facts.pending.push(f);
    this.schedule();
  }

  addEntity(e: number): void {
    if (this.entities.rebuilding || !this.entities.vectors.has(e)) this.entities.pending.push(e);
    this.schedule();
  }

  /**
   * The local embedder's context vectors grow with the base, so vectors computed early drift from the ones a
   * query gets now. Each time the facts learnt pass a power of two, every local vector is queued again:
   * amortised, each fact is embedded at most about twice over the base's life.
   */
  private learnt(): void {
    const n = this.learned;
    if (n < 8 || Math.floor(Math.log2(n)) <= this.generation) return;
    // While facts keep arriving, a re-embedding under way is finished first and the due one follows it: a
    // sustained feed doubles the facts faster than they are embedded, and restarting at each doubling would
    // throw every pass away before it completes (new facts would never reach the vectors searched). Once the
    // feed pauses, an unfinished pass that is already stale is restarted, so a burst ends with one full pass.
    // Facts already applied but still in the intake would pass the next powers of two within moments: a pass
    // now would be thrown away at once (after a bulk ingest that re-embedded everything several times over).
    if (this.backlog() > 0 || ((this.facts.rebuilding || this.entities.rebuilding) && this.busy()))
      this.refreshDue = true;
    else this.refresh();
  }

  /** A write wants the loop back and nobody waits for the vectors (graph/derived.ts). */
  private yieldNow(): boolean {
    return this.waiters.length === 0 && foreground.yieldNow();
  }

  /** Whether facts keep arriving (one less than BUSY_MS ago). */
  private busy(): boolean {
    return performance.now() - this.lastAdd < pace.BUSY_MS;
  }

  private refreshDue = false;

  private refresh(): void {
    this.refreshDue = false;
    this.generation = Math.floor(Math.log2(this.learned));
    // Shared local vectors two generations back are nobody's current ones any more (a process that lags
    // that far recomputes what it needs).
    if (this.shared && !this.port && !this.hypothetical && this.generation >= 5)
      void this.shared.drop(this.embedderAt(this.generation - 2)).catch(() => undefined);
    this.facts.restart(this.factsKnown);
    this.entities.restart(this.entityCount());
    // A pass over every vector is the catch-up's bulk: progress and ETA measure it alone (learning, cheaper
    // per item, would make the rate look faster than the pass will go).
    this.work = { done: 0, start: 0 };
  }

  /** When a fact was last added (performance.now()): the base is being written to. */
  lastAdd = Number.NEGATIVE_INFINITY;
  /** When a query was last embedded: queries are coming, the HNSW build (lane.ts) paces itself as for an ingest. */
  private lastQuery = Number.NEGATIVE_INFINITY;

  /** Before the next local slice while facts keep coming and nobody waits: the background takes a fifth of the loop. */
  private pause(): number {
    if (this.port || this.waiters.length > 0 || this.left() === 0) return 0;
    return this.busy() ? pace.BUSY_PAUSE_MS : 0;
  }

  /** Embeds a query with this base's embedder. */
  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    this.lastQuery = performance.now();
    this.resume();
    if (!this.port) return this.local.embedText(text);
    const [v] = await this.port.embed([text], signal ? { signal } : undefined);
    this.checkDim(v);
    return v!;
  }

  private checkDim(v: Float32Array | undefined): void {
    const dim = this.facts.vectors.dim;
    if (!(v instanceof Float32Array) || v.length !== dim)
      throw new KbEmbeddingError(
        'embedding_dimension',
        `the ${this.provider} embedder answered a vector of length ${v?.length ?? 'none'}, expected ${dim}`,
      );
  }

  /** Resolves when nothing is pending (or, with a failing provider, after the next attempt). */
  ready(): Promise<void> {
    this.resume();
    // A re-embedding due (refreshDue) starts in the next step: wait for it too.
    if (this.left() === 0 && !this.running && !this.refreshDue) return Promise.resolve();
    // Someone waits: try now rather than at the end of a backoff (and keep the loop alive while trying).
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
      this.scheduled = false;
    }
    this.schedule();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.onProgress = null;
    this.onClose?.();
    this.thread.close();
    if (this.timer !== null) clearTimeout(this.timer);
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private schedule(delay = 0): void {
    if (this.scheduled || this.running || this.closed) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.timer = null;
      void this.drain();
    };
    if (delay > 0) {
      this.timer = setTimeout(run, delay);
      // Pending work alone never keeps a process alive; someone awaiting ready() does.
      if (this.waiters.length === 0) this.timer.unref();
    } else setImmediate(run);
  }

  private async drain(): Promise<void> {
    if (this.running || this.closed || this.deferred) return;
    // A write under way keeps the loop unless someone waits (graph/derived.ts); a provider's calls are I/O.
    if (!this.port && this.waiters.length === 0 && !foreground.free()) return this.schedule(GATED_MS);
    this.running = true;
    let failed = false;
    try {
      if (this.port) failed = !(await this.portStep(this.port));
      else if (this.indexDue()) buildSlice([this.facts, this.entities], this.busyOrAsked(), () => this.yieldNow());
      else if (this.shared) failed = !(await this.sharedLocalStep(this.shared));
      else if (this.thread.busy || this.threadMore()) await this.threadStep();
      else this.localStep();
    } finally {
      this.running = false;
      this.inFlight = 0;
    }
    const left = this.left();
    this.onProgress?.(left);
    if (left === 0) this.work = { done: 0, start: 0 };
    if (left === 0 || failed) this.wake();
    if (left > 0) this.schedule(failed ? this.backoff : Math.max(this.wait, this.pause()));
    else if (this.indexDue()) this.schedule(this.busyOrAsked() ? pace.BUSY_PAUSE_MS : 0);
  }

  private busyOrAsked = () => this.busy() || performance.now() - this.lastQuery < pace.BUSY_MS;
  /** A two-tier lane's HNSW (lane.ts, buildSlice) once every vector is in and no re-embedding waits; not for whatIf. */
  private indexDue(): boolean {
    return this.facts.unbuilt + this.entities.unbuilt > 0 && !this.hypothetical && !this.refreshDue && !this.left();
  }

  /** Delay before the next step while every item left is being computed by another process (0 otherwise). */
  private wait = 0;

  private left(): number {
    // The learner may be ahead of the facts known (restored at open, while the facts are still coming in).
    const learning = this.port ? 0 : Math.max(0, this.factsKnown - this.learned);
    return this.facts.count + this.entities.count + learning + this.thread.inFlight;
  }

  /** A re-embedding is due once the intake's backlog is in: vectors computed before it would be thrown away. */
  private awaitingBacklog(): boolean {
    return this.refreshDue && this.backlog() > 0;
  }

  /** Learns until `end`; true once every fact known is learnt (no vector is computed before). */
  private learnUntil(end: number): boolean {
    while (this.learned < this.factsKnown) {
      const from = this.learned;
      for (let i = 0; i < 64 && this.learned < this.factsKnown; i++) this.local.learn(this.factTokens(this.learned++));
      this.progressed(this.learned - from);
      if (this.learned === this.factsKnown) this.learnt();
      if (performance.now() > end || this.yieldNow()) return this.learned >= this.factsKnown;
    }
    if (
      this.refreshDue &&
      this.backlog() === 0 &&
      (!this.busy() || (!this.facts.rebuilding && !this.entities.rebuilding))
    )
      this.refresh();
    return true;
  }

  /**
   * The local embedder on a shared base (PostgreSQL): learning is each process's own (a function of the log),
   * vectors go through the base like a provider's, under the generation's name, so each text is embedded
   * once per generation for all processes and a process that opens the base later reads them.
   */
  private async sharedLocalStep(shared: SharedVectors): Promise<boolean> {
    if (!this.learnUntil(performance.now() + pace.SLICE_MS) || this.awaitingBacklog()) return true;
    return this.portStep(this.local, this.hypothetical ? readOnly(shared) : shared);
  }

  /** Learns, then embeds, for SLICE_MS: every fact known is learnt before any vector is computed. */
  private localStep(): void {
    const end = performance.now() + pace.SLICE_MS;
    if (!this.hypothetical && !this.busy() && this.thread.wanted(this.left())) this.thread.warm();
    if (!this.learnUntil(end) || this.awaitingBacklog()) return;
    // While an ingest runs, one thread (the writer thread has the other core); when catching up, both.
    const busy = this.busy();
    const batch = busy ? pace.EMBED_BATCH : pace.CATCH_UP_BATCH;
    const threads = busy ? 1 : catchUpThreads();
    for (const lane of [this.facts, this.entities]) {
      while (lane.count > 0) {
        const keys = lane.take(batch);
        embedHere(lane, keys, this.local, threads);
        this.progressed(keys.length);
        if (performance.now() > end || this.yieldNow()) return;
      }
    }
  }

  /** The embedder's second thread for a catch-up's bulk (embed-helper.ts), while it has batches out or threadMore(). */
  private readonly thread = new EmbedThread();

  /** More batches for the thread: nothing to learn first, no fact arriving, and the thread wanted for the work. */
  private threadMore(): boolean {
    if (this.hypothetical || this.busy() || this.learned < this.factsKnown || this.refreshDue) return false;
    return this.thread.wanted(this.facts.count + this.entities.count);
  }

  private async threadStep(): Promise<void> {
    this.progressed(await this.thread.step([this.facts, this.entities], this.local, this.threadMore()));
  }

  /** The shared vectors' name for this embedder (the local one's vectors are per generation). */
  private get embedder(): string {
    return this.embedderAt(this.generation);
  }

  private embedderAt(generation: number): string {
    const e = this.port ?? this.local;
    const name = `${e.provider}/${e.model}/${e.dim}`;
    return this.port ? name : `${name}/g${generation}`;
  }

  /** One batch of a port (a provider, or the local embedder on a shared base); false when it failed (the items go back, the next try waits longer). */
  private async portStep(port: EmbeddingPort, shared = this.shared): Promise<boolean> {
    // Entities while facts wait on another process, so one lane's waiting does not stall the other.
    const lane = this.facts.count > 0 && (this.wait === 0 || this.entities.count === 0) ? this.facts : this.entities;
    let keys = lane.take(port === this.local ? pace.SHARED_LOCAL_BATCH : pace.PORT_BATCH);
    // Taken from the lane but not stored yet: still pending for status().
    this.inFlight = keys.length;
    let texts = keys.map((k) => lane.text(k));
    let mine: string[] = [];
    try {
      if (shared) {
        // Stored vectors are used, reserved ones are computed here, others' reservations are waited for.
        const hashes = texts.map(textHash);
        const got = await shared.claim(this.embedder, hashes, pace.SHARED_LEASE_MS);
        const at = keys.map((_, i) => i).filter((i) => got.found.has(hashes[i]!));
        this.storeRows(
          lane,
          at.map((i) => keys[i]!),
          at.map((i) => got.found.get(hashes[i]!)!),
        );
        const waiting = keys.filter((_, i) => !got.found.has(hashes[i]!) && !got.mine.has(hashes[i]!));
        lane.pending.push(...waiting);
        this.wait =
          waiting.length === keys.length ? Math.min(pace.MAX_WAIT_MS, this.wait ? this.wait * 2 : pace.MIN_WAIT_MS) : 0;
        const own = keys.map((_, i) => got.mine.has(hashes[i]!));
        keys = keys.filter((_, i) => own[i]);
        texts = texts.filter((_, i) => own[i]);
        mine = [...got.mine];
        if (keys.length === 0) return true;
      }
      const vs = await port.embed(texts);
      if (vs.length !== keys.length)
        throw new KbEmbeddingError('embedding_count', `asked ${keys.length} vectors, got ${vs.length}`);
      for (const v of vs) this.checkDim(v);
      if (shared) await shared.put(this.embedder, texts.map(textHash), vs);
      this.storeRows(lane, keys, vs);
      this.backoff = 0;
      this.lastError = null;
      return true;
    } catch (e) {
      lane.putBack(keys);
      if (mine.length) await shared?.release(this.embedder, mine).catch(() => undefined);
      this.lastError = e instanceof Error ? `${(e as { code?: string }).code ?? e.name}: ${e.message}` : String(e);
      this.backoff = Math.min(pace.MAX_BACKOFF_MS, this.backoff ? this.backoff * 2 : 500);
      return false;
    }
  }

  /** Items of the provider step under way (see status()). */
  private inFlight = 0;

  private storeRows(lane: Lane, keys: readonly number[], vs: readonly Float32Array[]): void {
    const dim = lane.vectors.dim;
    const rows = new Float32Array(keys.length * dim);
    for (let i = 0; i < keys.length; i++) rows.set(vs[i]!, i * dim);
    lane.store(keys, rows);
    this.progressed(keys.length);
  }
}
