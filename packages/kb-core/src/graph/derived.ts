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
