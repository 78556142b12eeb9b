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
 * the local embedder) obeys: from a write's catch-up to its commit's answer, their slices do not start, and one
 * under way stops at its next check. Before (issue 41), a slice started whenever the loop was free, which during a
 * sustained ingest is each commit's wait, and ran its 8 ms however early the commit landed; the ingest then went at
 * a third of plain SQLite's rate. Using only the commit's wait, up to the moment the writer thread has committed,
 * was measured too and cost the ingest more than it gained on two shared cores (the slices compete with the writer
 * thread, and their garbage is collected during the next apply). So derived work runs between writes and after a
 * feed; a read that needs it drains it itself, so lexical search stays current. One per thread: every base written
 * on this thread holds the loop alike.
 */
export const foreground = {
  /** Writes under way on this thread (from their catch-up to their commit's answer). */
  writing: 0,
  /** Whether background work may start now. */
  free(): boolean {
    return this.writing === 0;
  },
  /** Whether background work under way should stop at its next check (a write wants the loop back). */
  yieldNow(): boolean {
    return this.writing !== 0;
  },
};
