// The storage abstraction. A store persists one thing: the append-only log of entries, in order.
// Everything else (entities, edges, corroboration groups, registries, inquiries) is derived from the log
// by the engine, in memory, and rebuilt on open. See ./README.md for the full contract. The entries themselves
// are claims as data (model/entries.ts): the store keeps them, the graph applies them, neither defines them.
import type { LogEntry, LogRecord } from '../model/entries.js';
import type { SharedVectors } from './shared-vectors.js';

export type {
  ClaimEntry,
  InquiryEntry,
  LogEntry,
  LogRecord,
  PayloadSchemaEntry,
  PredicateEntry,
  RetractEntry,
  VocabularyEntry,
} from '../model/entries.js';

export interface ClaimStore {
  /** 'sqlite' or 'postgres' (reported by stats()). */
  readonly backend: string;
  /** File path or URL (never contains a password). */
  readonly location: string;
  /**
   * True when other processes may append to the same log (PostgreSQL). The engine then catches up
   * (readAfter its last seq) before every read and write so that each process sees the others' writes.
   */
  readonly shared: boolean;

  /**
   * Appends `entries` atomically and durably: when the promise resolves, all of them are committed (and
   * survive kill -9 / power loss to the extent the backend's fsync does); when it rejects, none is.
   * The entries get consecutive sequence numbers from head+1 (a ClaimRun takes n of them), all with timestamp `ts`.
   * Optimistic concurrency: if the log's current head is not `expectedHead`, nothing is written and the
   * promise rejects with KbConflictError (the engine then catches up and retries).
   * Returns the seq of the first entry. An empty `entries` is a no-op returning head+1. A ClaimRun may come
   * back from readAfter as several runs, or (from an offset inside it) as its tail.
   */
  append(entries: readonly LogEntry[], ts: number, expectedHead: number): Promise<number>;

  /**
   * Optional: starts an append of `entries` (the same contract as append) that completes only when the caller
   * commits it, so the store can write while the caller works: the caller must end it with commit() (which
   * resolves or rejects as append would) or abort() (nothing is written). A store may decline (undefined), for
   * instance for small appends; the caller then uses append.
   */
  beginAppend?(entries: readonly LogEntry[], ts: number, expectedHead: number): PendingAppend | undefined;

  /**
   * Optional: append's contract, with the write running elsewhere while the caller works (the caller need not
   * see anything before it commits). A store may decline (undefined), as for beginAppend.
   */
  appendOnThread?(entries: readonly LogEntry[], ts: number, expectedHead: number): BackgroundAppend | undefined;

  /**
   * Committed records with seq > afterSeq, in seq order, at most about `limit` of them (a store may return a
   * few more to finish an atomic batch, or fewer; an empty array means the caller is at the head).
   * Never returns part of an uncommitted append, and never skips a seq: a reader that loops on
   * readAfter(lastSeenSeq) sees every entry exactly once, in order (this is how a second process tails).
   */
  readAfter(afterSeq: number, limit?: number): Promise<LogRecord[]>;

  /** Seq of the last committed entry (0 for an empty log). */
  head(): Promise<number>;

  /**
   * Optional fast path for snapshot(dest): write a consistent copy of the log, as an SQLite KB file, to
   * `dest`. Without it the engine copies the log through readAfter into a new SQLite store.
   */
  snapshotTo?(dest: string): Promise<void>;

  /** Releases connections / file handles. Idempotent. */
  close(): Promise<void>;

  /**
   * Optional: a provider's vectors kept in the base for every process on it (PostgreSQL), so a text is sent
   * to the provider once, whichever process needs it first. Derived data, not part of the log.
   */
  readonly sharedVectors?: SharedVectors;
}

export interface PendingAppend {
  /** Commits the append; resolves with the seq of its first entry, or rejects (KbConflictError, storage errors) with nothing written. */
  commit(): Promise<number>;
  /** Writes nothing and releases the store for other appends. Idempotent; safe after a failed commit. */
  abort(): Promise<void>;
}

/** An append running beside the caller (ClaimStore.appendOnThread). */
export interface BackgroundAppend {
  /** Resolves or rejects as append would. */
  readonly done: Promise<number>;
  /** The seq of its first entry if the store already knows it committed, else undefined (then await `done`). */
  committed(): number | undefined;
}

export interface StoreOpenOptions {
  /** Create the store if it does not exist (default true). */
  create?: boolean;
  /** Open read-only (snapshots, restore sources). */
  readonly?: boolean;
}

/** What './postgres/index.js' must export: `openPostgresStore(url, options)`. */
export type OpenStore = (location: string, options?: StoreOpenOptions) => Promise<ClaimStore>;
