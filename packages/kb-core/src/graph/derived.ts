// Derived indexes: structures kept beside the graph and fed by the same apply, so they are as much a function
// of the log as the graph is (the inquiry book is the first; search, topology and embedding indexes follow).
// Each graph gets its own instances (see GraphState.register): a rebuild from the log starts from fresh ones.
import type { LogEntry } from '../model/entries.js';
import type { PendingEvent } from './events.js';

export interface DerivedIndex {
  /** Unique among a graph's indexes; readers find an index by it (ReadSnapshot.derivedIndex). */
  readonly name: string;
  /**
   * Whether onClaim must run for claims added now. The apply loop reads it per claim, so an index with
   * nothing to do per claim costs the hot ingest path one load and a branch.
   */
  readonly wantsClaims: boolean;
  /** Claim c (an index into the graph's claim columns, already applied) was added at ts. */
  onClaim(c: number, ts: number, events: PendingEvent[] | null): void;
  /** A log entry other than a claim or a claim run was applied (retract, inquiry, registry entries). */
  onEntry(e: LogEntry, ts: number, events: PendingEvent[] | null): void;
  /** The graph was thrown away (a rebuild): stop any background work. */
  close?(): void;
}

/** Makes a graph's instance of an index; it reads the graph (claims, entities) through `graph`. */
export type DerivedIndexFactory<G> = (graph: G) => DerivedIndex;

/** How soon background work held back by a write looks again (a timer that finds the loop busy costs little). */
export const GATED_MS = 1;

/**
 * The write path's hold on this thread's event loop, which derived indexes' background work (search intake,
 * the local embedder) obeys: while a write is under way its slices wait, so that an ingest's apply and commit
 * are never delayed by a slice that started while the write waited (issue 41: with the search stage's slices
 * running in every commit's wait, a sustained ingest went at half the rate). The one exception is the wait for
 * a commit that another thread makes (the SQLite writer thread): this thread is idle then, so background work
 * may run, and stops as soon as the commit has landed (`landed`, a shared-memory flag the writer sets), not
 * when its slice ends. A read that needs the derived data drains it itself, so lexical search stays current.
 * One per thread: every base written on this thread holds the loop alike.
 */
export const foreground = {
  /** Writes under way on this thread (from their apply to their commit's answer). */
  writing: 0,
  /** While the writes under way all wait for a commit made on another thread: whether it has landed. */
  waiting: null as (() => boolean) | null,
  /** Whether background work may start now. */
  free(): boolean {
    return this.writing === 0 || (this.waiting !== null && !this.waiting());
  },
  /** Whether background work under way should stop at its next check (a write wants the loop back). */
  yieldNow(): boolean {
    return this.writing !== 0 && (this.waiting === null || this.waiting());
  },
};
