// KbDB: the live base, a facade over the write path (src/write), its claim writes (base-writes.ts), its reads
// (a live KbView's, forwarded by the table in reads.ts), the extraction port (extraction-calls.ts) and the
// replica thread (off-thread.ts). The modules hold the work; this class holds the base's parts and signatures.
import { KbClosedError, KbError } from '../errors.js';
import type { Registry, PredicateSpec, Vocabulary } from '../model/registry.js';
import type { ConfidencePolicy } from '../model/confidence.js';
import { openStore } from '../store/open-store.js';
import type { ClaimInput, IngestBatchResult, IngestOneResult, Inquiry, KbEventName, Provenance } from '../types.js';
import { callForm } from '../call-forms.js';
import { snapshotCounts } from '../analytics/stats.js';
import type * as extract from './extraction-port.js';
import { type ExtractionCalls, extractionMethods } from './extraction-calls.js';
import { installMethods, LIVE_READS } from './reads.js';
import { ClaimCapture } from '../write/capture.js';
import { EventHub, type Listener } from '../write/events.js';
import { restoreLog, snapshotTo, type SnapshotResult } from '../write/log-copy.js';
import { type KbReader, KbView, type ViewHost } from './view.js';
import { invalidTimestamp, timestampMs } from './view-options.js';
import { type Backend, checkOpenOptions, type OpenOptions, openOptionsOf } from './options.js';
import { type StateRef, WritePath } from '../write/write-path.js';
import {
  type BaseWrites,
  ingestBatch,
  ingestOne,
  type IngestOptions,
  retract,
  type RetractResult,
} from './base-writes.js';
import { inquiryEntry, predicateEntry, vocabularyEntry } from '../write/entries.js';
import { embeddingChoice } from '../search/embedding-choice.js';
import { loadVectors, saveVectors, startCheckpoints } from '../embeddings/persist.js';
import { filesBeside, isMemoryPath } from '../store/side-files.js';
import { loadSearch, saveSearch } from '../search/persist.js';
import type { EmbeddingStatus } from '../embeddings/queue.js';
import { SEARCH_INDEX, searchIndexFactory, type EmbeddingChoice, type SearchIndex } from '../search/search-index.js';
import { whatIfView } from './what-if.js';
import { restoreGraph, saveGraphSnapshot } from './graph-snapshot.js';
import { registryEntriesFactory } from '../graph/registry-entries.js';
import {
  checkHypothesis,
  type WhatIfChanges,
  type WhatIfSummary,
  type WhatIfSummaryInput,
  whatIfSummaryOf,
} from '../write/what-if-graph.js';
import type { RawQueryOptions, RawQueryResult } from '../cypher/raw-query.js';
import type { OffThreadSettings } from '../replica/replica.js';
import { OffThreadCalls, whatIfOptions } from './off-thread.js';

/** The base reads through a live KbView (asOf Infinity); as a KbReader it goes wherever a view does. */
/** An ingest call: the claim, then its seed form `(confidence, payload)` or an options object. */
type IngestClaim = [
  subject: [string, string],
  predicate: [string, string],
  object: [string, string],
  provenance: Provenance,
];
type IngestArgs =
  | [...IngestClaim, confidence?: number | null, payload?: unknown]
  | [...IngestClaim, options?: IngestOptions];

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: its interface's members are installed by its static block
export class KbDB implements KbReader {
  /** Timestamp (ms) the base answers as of: always now. */
  readonly asOf = Infinity;
  private readonly ref: StateRef;
  private readonly reads: KbView;
  private readonly events = new EventHub();
  /** The extraction this base was opened with (OpenOptions.extraction), if any. */
  private readonly extraction: extract.ExtractionPort | undefined;
  private readonly backendName: Backend;
  private readonly w: WritePath;
  private readonly capture: ClaimCapture;
  private readonly writes: BaseWrites;
  private readonly offThread: OffThreadCalls;
  /** The log seq of the graph snapshot this base was opened from (graph-snapshot.ts), -1 when replayed whole. */
  private graphLoadedAt = -1;
  /** OpenOptions.strict: refuse vocabulary violations instead of storing them with warnings. */
  readonly strict: boolean;
  /** The log's store (tests reach it to inject failures). */
  private get store(): WritePath['store'] {
    return this.w.store;
  }

  private get state() {
    return this.ref.current;
  }

  private get registry(): Registry {
    return this.state.registry;
  }

  private constructor(
    store: WritePath['store'],
    policy: ConfidencePolicy,
    backend: Backend,
    extraction: extract.ExtractionPort | undefined,
    strict: boolean,
    embedding: EmbeddingChoice,
  ) {
    this.strict = strict;
    // The graph is set by the write path (newGraph) before anything reads it.
    this.ref = { current: undefined } as unknown as StateRef;
    this.w = new WritePath(store, this.ref, this.events, [searchIndexFactory(embedding), registryEntriesFactory]);
    this.ref.current = this.w.newGraph();
    this.reads = new KbView(
      this.ref,
      {
        beforeRead: () => this.w.beforeRead(),
        settled: () => this.w.committedIndex(),
        describeStore: () => this.describeStore(),
      },
      Infinity,
    );
    // The live view's reads, as own members bound to this base (a base's method may be passed around alone).
    const self = this as unknown as Record<string, unknown>;
    for (const k of LIVE_READS) {
      self[k] = (...a: unknown[]) => (this.reads[k] as (...x: unknown[]) => unknown).apply(this.reads, a);
    }
    this.capture = new ClaimCapture(policy);
    this.writes = { w: this.w, capture: this.capture, events: this.events, strict };
    this.offThread = new OffThreadCalls(this.w, { policy, strict });
    this.backendName = backend;
    this.extraction = extraction;
  }

  /**
   * Opens (creating if needed) the base at `path`. Seed form: `open(path, backend)`, optionally followed by
   * an options object; or `open(path, options)`.
   */
  static open(path: string, backend?: Backend | null, options?: OpenOptions): Promise<KbDB>;
  static open(path: string, options?: OpenOptions): Promise<KbDB>;
  static async open(path: string, ...rest: unknown[]): Promise<KbDB> {
    const options = openOptionsOf(rest);
    const { backend, policy } = checkOpenOptions(options);
    const embedding = embeddingChoice(options.embedding, options.embedding_dim);
    const store = await openStore(path);
    // Vectors go through the base when it can share them (PostgreSQL): one provider call per text for all its
    // processes, and one local embedding per text and generation (embeddings/queue.ts).
    const shared = embedding !== false ? store.sharedVectors : undefined;
    const choice = shared === undefined ? embedding : { ...embedding, shared };
    const db = new KbDB(store, policy, backend, options.extraction, options.strict ?? false, choice);
    const beside = filesBeside(store); // none for ':memory:' (nothing of it touches the disk) or PostgreSQL
    try {
      // The graph saved at the last close, when it is this log's; then only the log after it is replayed.
      if (beside !== undefined) db.graphLoadedAt = restoreGraph(db.w, beside);
      await db.w.catchUp(null);
    } catch (e) {
      await store.close();
      throw e;
    }
    // What the search stage saved at the last close (vectors, learner, BM25), restored when it is this log's.
    if (beside !== undefined) {
      const ix = db.searchIndex;
      if (ix.embeddings) loadVectors(ix.embeddings, beside, db.state.factCount, db.state.entityIds.length);
      // A catch-up's progress saved as it goes, so a kill -9 mid-way does not lose all of it.
      if (ix.embeddings) startCheckpoints(ix.embeddings, beside);
      loadSearch(ix, db.state, beside);
    }
    return db;
  }

  /**
   * Copies a snapshot (`src`: the file snapshot() wrote, or the directory it wrote one into, whose manifest's
   * checksum is verified) into a new, empty base at `dest` (a path or a postgres:// URL), keeping every
   * entry's order and timestamp, and returns it opened. Into ':memory:', the base returned holds the copy.
   */
  static restore(src: string, dest: string, backend?: Backend | null, options?: OpenOptions): Promise<KbDB>;
  static restore(src: string, dest: string, options?: OpenOptions): Promise<KbDB>;
  static async restore(src: string, dest: string, ...rest: unknown[]): Promise<KbDB> {
    const options = openOptionsOf(rest);
    const memory = isMemoryPath(dest);
    if (!memory) await restoreLog(src, dest);
    const db = await KbDB.open(dest, options);
    // A second open of ':memory:' would be another, empty base: the copy goes into the one returned.
    if (memory)
      await restoreLog(src, db.store)
        .then(() => db.refresh())
        .catch(async (e: unknown) => {
          await db.close();
          throw e;
        });
    return db;
  }

  // ---- plumbing ------------------------------------------------------------------------------------

  /** @internal */
  async beforeRead(): Promise<void> {
    await this.w.beforeRead();
  }

  /** @internal */
  describeStore() {
    const store = this.store;
    return {
      backend: store.backend,
      location: store.location,
      engine: `graph (requested: ${this.backendName})`,
      log_seq: this.w.lastSeq,
    };
  }

  // ---- claims and retractions (base-writes.ts) -------------------------------------------------------------

  /**
   * Ingests claims atomically: all are written, or (on any invalid claim) none, with the error naming the
   * index and field. Claims stating a fact the same source already stated are duplicates: not stored again;
   * `claim_ids` then holds the stored claim's id.
   */
  ingestBatch(claims: ClaimInput[]): Promise<IngestBatchResult> {
    return ingestBatch(this.writes, claims);
  }

  /**
   * Ingests one claim; returns its claim_id (for a duplicate, the id of the claim already stored). Seed form:
   * `ingest(s, p, o, provenance, confidence, payload)`. A claim stored with warnings fires `claim_warnings`;
   * ingestDetailed returns them.
   */
  async ingest(...args: IngestArgs): Promise<string> {
    return (await this.ingestDetailed(...args)).claim_id;
  }

  /** ingest, answering `{ claim_id, duplicate, warnings }`. */
  async ingestDetailed(...args: IngestArgs): Promise<IngestOneResult> {
    const [subject, predicate, object, provenance, ...rest] = args;
    const options = callForm<IngestOptions>(rest, ['confidence', 'payload'], ['number', 'any'], INGEST_KEYS);
    return ingestOne(this.writes, subject, predicate, object, provenance, options);
  }

  /** Retracts every claim of the source. They stay in the log (audit) and leave every query, count and score. */
  async retract(source_id: string, reason: string): Promise<RetractResult> {
    return retract(this.writes, source_id, reason, false);
  }

  /** retract, and also mark `degraded` every claim whose derived_from reaches a retracted claim, transitively. */
  async retractCascade(source_id: string, reason: string): Promise<RetractResult> {
    return retract(this.writes, source_id, reason, true);
  }

  /** A read-only view answering as of `timestamp` (Date, ISO 8601 string or ms since epoch). */
  at(timestamp: Date | string | number): Promise<KbView> {
    if (this.w.closed) return Promise.reject(new KbClosedError());
    const ms = timestampMs(timestamp);
    if (ms === undefined) return Promise.reject(invalidTimestamp());
    const host: ViewHost = { beforeRead: () => this.w.committedIndex(), describeStore: () => this.describeStore() };
    return Promise.resolve(new KbView(this.ref, host, ms));
  }

  // ---- Cypher (src/cypher) and the replica thread (src/replica, off-thread.ts) ---------------------------------------

  /** A read-only openCypher query (src/cypher/README.md); `off_thread: true` runs it on the replica thread. */
  async rawQuery(cypher: string, params?: Record<string, unknown>, options?: RawQueryOptions): Promise<RawQueryResult> {
    if (!options?.off_thread) return this.reads.rawQuery(cypher, params, options);
    const a = await this.offThread.query(cypher, params, options, 'value');
    return a.value as RawQueryResult;
  }

  /**
   * rawQuery on the replica thread, answering the result as JSON text made there: what a server sends as it is,
   * so that neither the result's rows nor their serialisation take the server's thread.
   */
  async rawQueryJson(cypher: string, params?: Record<string, unknown>, options?: RawQueryOptions): Promise<string> {
    const a = await this.offThread.query(cypher, params, options, 'json');
    return new TextDecoder().decode(a.json!);
  }

  /**
   * Settings of the replica thread that off_thread calls run on: its heap cap (`heap_mb`), how long it is kept
   * idle (`idle_ms`), how many calls may run or wait (`max_waiting`); see src/offload/README.md. A thread already
   * running keeps its heap cap until it ends.
   */
  configureOffThread(settings: OffThreadSettings): void {
    this.offThread.configure(settings);
  }

  // ---- search (src/search, src/embeddings): the live view's reads, and the embedding work's state ----------

  private get searchIndex(): SearchIndex {
    return this.state.derivedIndex(SEARCH_INDEX) as SearchIndex;
  }

  /**
   * Resolves when every claim and entity ingested so far has its vector (at once when embedding is off). With
   * a failing provider it resolves after the next failed attempt; embeddingStatus() then names the error.
   */
  async embeddingsReady(): Promise<void> {
    if (this.w.closed) throw new KbClosedError();
    await this.w.beforeRead();
    // A rebuild (failed append) replaces the graph and its index: wait on the current one.
    for (;;) {
      const ix = this.searchIndex;
      await ix.ready();
      await ix.embeddings?.ready();
      if (this.searchIndex === ix || this.w.closed) break;
    }
  }

  /** Provider, model, dimension, vectors indexed, items pending, progress and ETA, the last provider error; null when off. */
  embeddingStatus(): EmbeddingStatus | null {
    const ix = this.searchIndex;
    // Facts and entities not yet taken in (search/intake.ts) are pending too, unless a vector was loaded.
    return ix.embeddings?.status(ix.untakenWithoutVector()) ?? null;
  }

  // ---- whatIf (the reasoning reads are the live view's) ----------------------------------------------------
  /** A read-only view with these changes applied in memory only (what-if.ts); nothing is written. */
  async whatIf(changes: WhatIfChanges): Promise<KbView> {
    if (this.w.closed) throw new KbClosedError();
    return whatIfView(this.w, this.capture, changes, () => this.describeStore(), this.strict);
  }

  /**
   * The base before and after the changes (claim and entity counts, health score), in memory only, and the
   * hypothesis tested after them: what the console's what-if answers. `off_thread: true` runs it on the replica
   * thread, stopped past `timeout_ms` (default 30 000).
   */
  async whatIfSummary(
    input: WhatIfSummaryInput,
    options: { off_thread?: boolean; timeout_ms?: number } = {},
  ): Promise<WhatIfSummary> {
    if (this.w.closed) throw new KbClosedError();
    checkHypothesis(input);
    const o = whatIfOptions(options);
    if (o.off_thread) return (await this.offThread.whatIf(input, o.timeout_ms)).value as WhatIfSummary;
    await this.w.beforeRead();
    return whatIfSummaryOf(this.w, this.capture, input, this.strict, SEARCH_INDEX);
  }

  /** whatIf({ add_claims: claims }). */
  hypothetical(claims: ClaimInput[]): Promise<KbView> {
    return this.whatIf({ add_claims: claims });
  }

  // ---- inquiries -------------------------------------------------------------------------------------

  /**
   * Records an open question; the first claim later linking subject and object (fitting the hint) answers it.
   * Subject and object are names (any type answers), or `[name, type]` pairs as in claims (the seed's form:
   * only an entity of that type answers).
   */
  async ingestInquiry(
    question: string,
    subject: string | [name: string, type: string],
    object: string | [name: string, type: string],
    predicate_hint = '',
  ): Promise<Inquiry> {
    const entry = inquiryEntry(question, subject, object, predicate_hint);
    const id = entry.inquiry_id;
    await this.w.write(() => ({ entries: [entry], finish: () => undefined }));
    return (await this.getInquiry(id))!;
  }

  // ---- registries ------------------------------------------------------------------------------------

  /** Registers a vocabulary; `vocab` may be omitted for one that ships with the library ('bio'). */
  async registerVocabulary(namespace: string, vocab?: Vocabulary): Promise<void> {
    const entry = vocabularyEntry(this.registry, namespace, vocab);
    await this.w.write(() => ({ entries: [entry], finish: () => undefined }));
  }

  async registerPredicate(predicate_type: string, options: PredicateSpec): Promise<void> {
    const entry = predicateEntry(this.registry, predicate_type, options);
    await this.w.write(() => ({ entries: [entry], finish: () => undefined }));
  }

  /** Claims of this predicate must then carry a payload valid against the JSON Schema (Ajv). */
  async registerPayloadSchema(predicate_type: string, jsonSchema: object): Promise<void> {
    this.registry.checkPayloadSchema(predicate_type, jsonSchema);
    await this.w.write(() => ({
      entries: [{ kind: 'payload_schema', predicate_type, schema: jsonSchema }],
      finish: () => undefined,
    }));
  }

  // ---- lifecycle -------------------------------------------------------------------------------------

  /** Reads what other processes appended since the last read or write (automatic for PostgreSQL). */
  async refresh(): Promise<void> {
    if (this.w.closed) throw new KbClosedError();
    await this.w.serial(() => this.w.catchUp(null));
  }

  /**
   * Writes a consistent copy of the log (an SQLite KB file) while the base stays in use: to `dest` when it
   * names a new file; into `dest` when it is an existing directory (the seed's backup directory), beside a
   * manifest with the log position, counts and the file's SHA-256 (see log-copy.ts).
   */
  async snapshot(dest: string): Promise<SnapshotResult> {
    if (this.w.closed) throw new KbClosedError();
    return snapshotTo(this.w, dest, () => snapshotCounts(this.state));
  }

  async close(): Promise<void> {
    if (this.w.closed) return;
    // Let queued writes finish first: a write whose promise is pending must not be cut in half.
    await this.w.queue;
    this.w.closed = true;
    await this.offThread.close();
    this.searchIndex.close();
    const ix = this.searchIndex;
    // An in-memory base (':memory:') keeps nothing on disk, derived data included.
    const location = filesBeside(this.store);
    if (location !== undefined) {
      // Derived data: a failed save costs a re-embedding or re-indexing at the next open, never data.
      for (const save of [
        () => ix.embeddings && saveVectors(ix.embeddings, location),
        () => saveSearch(ix, this.state, location),
        () => saveGraphSnapshot(this.state, this.w.lastSeq, location, this.graphLoadedAt),
      ])
        try {
          save();
        } catch {}
    }
    // Saved: the vectors' native memory is freed now, not whenever V8 collects their wrappers (VectorSet.release).
    ix.releaseVectors();
    await this.w.store.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  on<E extends KbEventName>(event: E, cb: Listener<E>): void {
    this.events.on(event, cb);
  }

  off<E extends KbEventName>(event: E, cb: Listener<E>): void {
    this.events.off(event, cb);
  }

  // Claims from text, conversations and team chat (README: "Claims from text, chats and team chat"): the
  // extraction port's, through the table in extraction-calls.ts.
  static {
    installMethods(
      KbDB.prototype,
      extractionMethods<KbDB>((db) => db.extraction),
    );
  }
}

/** The live view's reads and the extraction calls, declared on KbDB's type (installed above). */
export interface KbDB extends Pick<KbView, (typeof LIVE_READS)[number]>, ExtractionCalls {}

export { KbError };
export type { RetractResult };

const INGEST_KEYS = ['confidence', 'payload'] as const;
