// The one write path. Writes go through it one at a time (serial): validate against the caught-up index,
// apply the entries to the index (which also finds duplicates, in the same pass), append what was kept to
// the log (atomically, with the head we have seen; or a run whole, beside the apply, see appendEarly), then
// emit events. Reads wait while a write is between its apply and its append, and an append that fails makes
// the base rebuild its index from the log, so no read sees what the log lacks. Reading the log on open goes through the very same apply, so the index is always
// a function of the log.
import { KbClosedError, KbConflictError } from '../errors.js';
import { foreground, type DerivedIndexFactory } from '../graph/derived.js';
import type { PendingEvent } from '../graph/events.js';
import { GraphState } from '../graph/state.js';
import { pickFromRun, type ClaimRun } from '../model/claim-run.js';
import { Registry, type Vocabulary } from '../model/registry.js';
import { lastSeqOf } from '../store/log-span.js';
import type { BackgroundAppend, ClaimStore, LogEntry, PendingAppend } from '../store/types.js';
import type { ClaimInput } from '../types.js';
import type { EventHub } from './events.js';

/**
 * The index a base and its views read. The base replaces `current` when it rebuilds the index from the log
 * (after a failed append), and every view of it follows.
 */
export interface StateRef {
  current: GraphState;
}

/** What a write applies, and how its result is made from what the apply returned (see WritePath.write). */
export interface WritePlan<T> {
  entries: LogEntry[];
  finish: (applied: (number | Int32Array)[], events: PendingEvent[]) => T;
}

/** The longest a stream of writes runs without a turn of the event loop (see write()). */
const YIELD_MS = 50;

/** The claims of a run that applyRun kept (out[i] >= 0); they took consecutive ids from id_start. */
function keptOfRun(r: ClaimRun, out: Int32Array): ClaimRun {
  const keep: number[] = [];
  for (let i = 0; i < r.n; i++) if (out[i]! >= 0) keep.push(i);
  return pickFromRun(r, keep);
}

export class WritePath {
  /** The last log seq the index holds. */
  lastSeq = 0;
  closed = false;
  /** The tail of the serial queue: close() waits for it. */
  queue: Promise<unknown> = Promise.resolve();
  /** Set while the index holds entries a pending append has not committed yet (see write()). */
  private speculative: Promise<void> | null = null;
  /** Reads that have passed (or are in) committedIndex since a write last yielded before its apply (see write()). */
  private readsSinceYield = 0;
  /** When a write last yielded to the event loop before its apply (performance.now()). */
  private lastYield = 0;
  /** Whether the next write may go to the log whole, beside its apply (see appendEarly). */
  private logWholeRuns = true;

  constructor(
    readonly store: ClaimStore,
    readonly ref: StateRef,
    private readonly events: EventHub,
    /** Derived indexes beyond the graph's own (the inquiry book): every graph this path makes gets them. */
    private readonly derivedIndexes: readonly DerivedIndexFactory<GraphState>[] = [],
  ) {}

  /** An empty graph with every derived index registered, ready for the log's replay. */
  newGraph(): GraphState {
    const g = new GraphState(new Registry());
    for (const factory of this.derivedIndexes) g.register(factory);
    return g;
  }

  private get state(): GraphState {
    return this.ref.current;
  }

  /** Resolves once the index holds only committed entries (no append pending); rejects when closed. */
  async committedIndex(): Promise<void> {
    this.readsSinceYield++;
    if (this.closed) throw new KbClosedError();
    while (this.speculative) await this.speculative;
  }

  /** Before a read of the live base: the committed index, caught up with other writers on a shared store. */
  async beforeRead(): Promise<void> {
    await this.committedIndex();
    if (this.store.shared) await this.serial(() => this.catchUp(null));
  }

  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Applies every committed entry after the last one seen (other processes' writes, or the whole log on open). */
  async catchUp(events: PendingEvent[] | null): Promise<void> {
    for (;;) {
      const page = await this.store.readAfter(this.lastSeq, 65_536);
      if (page.length === 0) return;
      for (const r of page) this.applyEntry(r.entry, r.ts, events);
      this.lastSeq = lastSeqOf(page[page.length - 1]!);
    }
  }

  /**
   * Applies one entry, as read from the log, to the index. For a claim, returns what applyClaim does (its
   * index, or -2 - the index of the stored claim it duplicates); 0 for other entries.
   */
  private applyEntry(e: LogEntry, ts: number, events: PendingEvent[] | null): number {
    const s = this.state;
    // what-if copies stop reading through before any part of the graph changes (derived indexes included)
    s.beforeChange();
    switch (e.kind) {
      case 'claim':
        return s.applyClaim(e, ts, events);
      case 'claims':
        s.applyRun(e, ts, events, null, false);
        return 0;
      case 'retract':
        s.applyRetract(e, ts, events);
        break;
      case 'inquiry':
        s.touch(ts);
        break;
      case 'vocabulary':
        s.registry.applyVocabulary(e.namespace, e.vocab as Vocabulary);
        s.vocabularyApplied();
        break;
      case 'predicate':
        s.registry.applyPredicate(e.predicate_type, {
          subject_types: e.subject_types,
          object_types: e.object_types,
          ...(e.predicate_class ? { class: e.predicate_class } : {}),
        });
        break;
      case 'payload_schema':
        s.registry.applyPayloadSchema(e.predicate_type, e.schema);
        break;
      default:
        // Entries from a newer version are skipped rather than breaking the open.
        return 0;
    }
    // Derived indexes see every entry but claims (those reach them per claim, from the graph's apply).
    const derived = s.derived;
    for (let i = 0; i < derived.length; i++) derived[i]!.onEntry(e, ts, events);
    return 0;
  }

  /**
   * Writes the plan as it is, on the store's thread, while the index is updated: possible when the plan is
   * claim runs only (a run in the log with a duplicate replays to the same index, the duplicate dropped and its
   * id unused, as the live apply does here), and chosen while the last write found no duplicate. So the log's
   * fsync runs beside the apply instead of after it, and the log holds a duplicate only in the first batch of
   * a feed that repeats what is stored (the next ones are appended as kept, below).
   */
  private appendEarly(entries: readonly LogEntry[], ts: number): BackgroundAppend | undefined {
    for (const e of entries) if (e.kind !== 'claims') return undefined;
    const early = this.store.appendOnThread?.(entries, ts, this.lastSeq);
    early?.done.catch(() => undefined); // awaited by the caller, after the apply
    return early;
  }

  /**
   * Applies the plan's entries to the index (writing what each returned to `applied`) and appends them: with
   * `early`, the whole plan is already being appended; with `pending`, it is committed if every entry was kept,
   * else dropped for an append of what was kept (a duplicate takes no id then: the kept claims of a run are
   * renumbered).
   */
  private async applyAndAppend(
    entries: readonly LogEntry[],
    applied: (number | Int32Array)[],
    ts: number,
    events: PendingEvent[],
    pending: PendingAppend | undefined,
    early: BackgroundAppend | undefined,
  ): Promise<void> {
    const s = this.state;
    const kept: LogEntry[] = [];
    let span = 0;
    let allKept = true;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.kind === 'claims') {
        const out = new Int32Array(e.n);
        const added = s.applyRun(e, ts, events, out, !early);
        applied[i] = out;
        if (!early && added > 0) kept.push(added === e.n ? e : keptOfRun(e, out));
        if (added !== e.n) allKept = false;
        span += early ? e.n : added;
      } else {
        const a = this.applyEntry(e, ts, events);
        applied[i] = a;
        if (a >= 0) {
          kept.push(e);
          span++;
        } else allKept = false;
      }
    }
    let first: number;
    // Usually committed while the index was updated: then no turn of the event loop is spent waiting for it.
    if (early) first = early.committed() ?? (await early.done);
    else if (pending && allKept) first = await pending.commit();
    else {
      await pending?.abort();
      first = await this.store.append(kept, ts, this.lastSeq);
    }
    if (span) this.lastSeq = first + span - 1;
    this.logWholeRuns = allKept;
  }

  /** Throws the index away and replays the whole log: after an append failed, the index held what the log lacks. */
  private async rebuild(): Promise<void> {
    // A fresh graph, with fresh instances of every derived index: the replay feeds them all again. The old
    // indexes' background work (search intake, embeddings) stops with them.
    for (const d of this.ref.current.derived) d.close?.();
    this.ref.current = this.newGraph();
    this.lastSeq = 0;
    await this.catchUp(null);
  }

  /**
   * The write. `build` validates against the caught-up index and returns the entries (it may run again after
   * a conflict with another writer). The entries are applied to the index first: applying a claim is also how
   * a duplicate is found, in one pass. Claims found to be duplicates are left out of the log (but for a run
   * written whole, see appendEarly); the rest is appended. From the apply until the append settles, reads wait (beforeRead); if the append fails, the
   * index is rebuilt from the log before anyone reads it again. `finish` gets, per entry, what applyEntry
   * returned, or for a ClaimRun what applyRun wrote per claim.
   */
  async write<T>(build: () => WritePlan<T>): Promise<T> {
    if (this.closed) throw new KbClosedError();
    let events: PendingEvent[] = [];
    const result = await this.serial(async () => {
      if (this.closed) throw new KbClosedError();
      // The derived indexes' background work waits until the write is over, its commit's wait included
      // (graph/derived.ts).
      foreground.writing++;
      try {
        for (let attempt = 0; ; attempt++) {
          await this.catchUp(null);
          // Start the apply in a task of its own: every read that passed beforeRead before has finished by
          // then (their continuations are microtasks, which run first), and every later one waits. Without a
          // read since the last such yield there is nothing to wait for, and a feed of writes goes on without
          // a turn of the event loop (where the collector's tasks for the caller's garbage would run), for at
          // most YIELD_MS: then the loop gets its turn, so queued writes never keep a server from its other
          // input (requests, a closed stdin, signals) for longer than that and one write.
          const now = performance.now();
          if (this.readsSinceYield > 0 || now - this.lastYield >= YIELD_MS) {
            this.readsSinceYield = 0;
            await new Promise<void>((r) => setImmediate(r));
            this.lastYield = performance.now();
          }
          const plan = build();
          const n = plan.entries.length;
          const applied = new Array<number | Int32Array>(n);
          events = [];
          if (n === 0) return plan.finish(applied, events);
          const s = this.state;
          s.emitIngested = this.events.has('claim_ingested');
          s.emitCorroborated = this.events.has('claim_corroborated');
          const ts = Math.max(Date.now(), s.lastTs);
          let release!: () => void;
          this.speculative = new Promise<void>((r) => (release = r));
          // The store may write the plan while the index is updated (see applyAndAppend).
          let pending: PendingAppend | undefined;
          let early: BackgroundAppend | undefined;
          try {
            try {
              early = this.logWholeRuns ? this.appendEarly(plan.entries, ts) : undefined;
              if (!early) pending = this.store.beginAppend?.(plan.entries, ts, this.lastSeq);
              await this.applyAndAppend(plan.entries, applied, ts, events, pending, early);
            } catch (e) {
              await pending?.abort();
              // A log that took the plan already holds it: the rebuild below then applies it.
              await early?.done.catch(() => undefined);
              try {
                await this.rebuild();
              } catch {
                // Without an index that matches the log the base cannot serve: close it rather than answer wrongly.
                this.closed = true;
                await this.store.close().catch(() => undefined);
                throw e;
              }
              if (e instanceof KbConflictError && attempt < 20) continue;
              throw e;
            }
          } finally {
            this.speculative = null;
            release();
          }
          return plan.finish(applied, events);
        }
      } finally {
        foreground.writing--;
      }
    });
    this.emit(events);
    return result;
  }

  // Deliberate likeness: the event's object literal is alike in shape only to kb-extract's Slack message (chat/slack.ts).
  private emit(pending: PendingEvent[]): void {
    const s = this.state;
    const hub = this.events;
    for (const p of pending) {
      switch (p.name) {
        case 'claim_ingested': {
          if (!hub.has('claim_ingested')) break;
          const e = s.claimEntryOf(p.claim);
          const input: ClaimInput = {
            subject: e.subject,
            predicate: e.predicate,
            object: e.object,
            provenance: e.provenance,
            confidence: e.confidence,
          };
          if (e.payload !== undefined) input.payload = e.payload;
          hub.emit('claim_ingested', { claim_id: e.claim_id, claim_input: input });
          break;
        }
        case 'claim_corroborated':
          hub.emit('claim_corroborated', {
            content_id: s.contentIdOfFact(p.fact),
            count: p.count,
            claim_id: s.claimIdOf(p.claim),
          });
          break;
        case 'source_retracted':
          hub.emit('source_retracted', {
            source_id: p.source_id,
            reason: p.reason,
            claim_ids: p.retracted.map((c) => s.claimIdOf(c)),
            degraded_claim_ids: p.degraded.map((c) => s.claimIdOf(c)),
          });
          break;
        case 'inquiry_matched':
          hub.emit('inquiry_matched', { inquiry_id: p.inquiry_id, claim_id: s.claimIdOf(p.claim) });
          break;
      }
    }
  }
}
