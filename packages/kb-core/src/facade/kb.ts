// KbDB: the live base, a facade. Each concern is a module of its own: capture and validation of claim inputs
// (capture.ts), the write path (write-path.ts: serial queue, catch-up, speculative apply, rebuild), copies of
// the log (log-copy.ts), generated ids (ids.ts); reads are a KbView's (view.ts), the live one, as at() views.
import { KbClosedError, KbError, KbNotFoundError, KbValidationError } from '../errors.js';
import type { PendingEvent } from '../graph/events.js';
import type { Registry, PredicateSpec, Vocabulary } from '../model/registry.js';
import { CONFIDENCE_POLICIES, type ConfidencePolicy } from '../model/confidence.js';
import { LIMITS } from '../model/validate.js';
import { openStore } from '../store/open-store.js';
import type { InquiryEntry } from '../model/entries.js';
import type {
  BatchClaimWarning,
  ClaimInput,
  IngestBatchResult,
  IngestOneResult,
  Inquiry,
  KbEventName,
  Provenance,
} from '../types.js';
import { builtinVocabularies } from '../vocab/index.js';
import { callForm, optionsOf } from '../call-forms.js';
import { snapshotCounts } from '../analytics/stats.js';
import type * as extract from './extraction-port.js';
import { OPTION_KEYS } from './extraction-port.js';
import { KbExtractionUnavailableError } from '../errors.js';
import { ClaimCapture, checkClaims, claimIdsOf, type RunWarnings } from '../write/capture.js';
import { EventHub, type Listener } from '../write/events.js';
import { newId } from '../write/ids.js';
import { restoreLog, snapshotTo, type SnapshotResult } from '../write/log-copy.js';
import { type KbReader, KbView, type ViewHost } from './view.js';
import { BACKENDS, type Backend, type OpenOptions, openOptionsOf } from './options.js';
import { type StateRef, WritePath } from '../write/write-path.js';
import { embeddingChoice } from '../search/embedding-choice.js';
import { loadVectors, saveVectors } from '../embeddings/persist.js';
import type { EmbeddingStatus } from '../embeddings/queue.js';
import { SEARCH_INDEX, searchIndexFactory, type EmbeddingChoice, type SearchIndex } from '../search/search-index.js';
import {
  checkHypothesis,
  type WhatIfChanges,
  type WhatIfSummary,
  type WhatIfSummaryInput,
  whatIfView,
} from './what-if.js';
import { whatIfSummaryOf } from '../write/what-if-graph.js';
import { checkRawQuery, type RawQueryOptions, type RawQueryResult } from '../cypher/raw-query.js';
import { checkOffThreadSettings, type OffThreadSettings, Replica } from '../replica/replica.js';

export interface RetractResult {
  source_id: string;
  reason: string;
  claim_ids: string[];
  degraded_claim_ids: string[];
}

/**
 * The base reads through a live KbView (asOf Infinity) it holds and delegates to; as a KbReader it goes
 * wherever a view does (the servers take either). Everything else is delegated to the modules named above.
 */
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
  private readonly policy: ConfidencePolicy;
  private replica: Replica | undefined;
  private offThreadSettings: OffThreadSettings = {};
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
    this.w = new WritePath(store, this.ref, this.events, [searchIndexFactory(embedding)]);
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
    this.capture = new ClaimCapture(policy);
    this.policy = policy;
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
    if (options.strict !== undefined && typeof options.strict !== 'boolean')
      throw new KbValidationError('invalid_type', 'strict', 'must be true or false');
    const backend = options.backend ?? 'graph';
    if (!BACKENDS.includes(backend)) {
      throw new KbValidationError(
        'unknown_backend',
        'backend',
        `unknown backend '${String(backend)}'; use one of ${BACKENDS.join(', ')}`,
      );
    }
    const policy = options.curator ?? 'heuristic';
    if (!CONFIDENCE_POLICIES.includes(policy))
      throw new KbValidationError('invalid_value', 'curator', "must be 'heuristic' or 'none'");
    const embedding = embeddingChoice(options.embedding, options.embedding_dim);
    const store = await openStore(path);
    // Vectors go through the base when it can share them (PostgreSQL): one provider call per text for all its
    // processes, and one local embedding per text and generation (embeddings/queue.ts).
    const shared = embedding !== false ? store.sharedVectors : undefined;
    const choice = shared === undefined ? embedding : { ...embedding, shared };
    const db = new KbDB(store, policy, backend, options.extraction, options.strict ?? false, choice);
    try {
      await db.w.catchUp(null);
    } catch (e) {
      await store.close();
      throw e;
    }
    const q = db.searchIndex.embeddings;
    if (q && store.backend === 'sqlite') loadVectors(q, store.location, db.state.factCount, db.state.entityIds.length);
    return db;
  }

  /**
   * Copies a snapshot (`src`: the file snapshot() wrote, or the directory it wrote one into, whose manifest's
   * checksum is verified) into a new, empty base at `dest` (a path or a postgres:// URL), keeping every
   * entry's order and timestamp, and returns it opened.
   */
  static restore(src: string, dest: string, backend?: Backend | null, options?: OpenOptions): Promise<KbDB>;
  static restore(src: string, dest: string, options?: OpenOptions): Promise<KbDB>;
  static async restore(src: string, dest: string, ...rest: unknown[]): Promise<KbDB> {
    const options = openOptionsOf(rest);
    await restoreLog(src, dest);
    return KbDB.open(dest, options);
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

  // ---- claims ----------------------------------------------------------------------------------------

  /**
   * Ingests claims atomically: all are written, or (on any invalid claim) none, with the error naming the
   * index and field. Claims stating a fact the same source already stated are duplicates: not stored again;
   * `claim_ids` then holds the stored claim's id.
   */
  async ingestBatch(claims: ClaimInput[]): Promise<IngestBatchResult> {
    if (!Array.isArray(claims)) throw new KbValidationError('invalid_type', 'claims', 'must be an array of claims');
    if (claims.length > LIMITS.batch_claims)
      throw new KbValidationError('too_large', 'claims', `more than ${LIMITS.batch_claims} claims in one batch`);
    if (this.w.closed) throw new KbClosedError();
    const run = this.capture.capture(claims, true);
    let warned: RunWarnings = new Map();
    const result = await this.w.write(() => {
      warned = checkClaims(this.state, run, true, this.strict);
      return {
        entries: run.n ? [run] : [],
        finish: (applied) => {
          const out = (applied[0] as Int32Array | undefined) ?? new Int32Array(0);
          let duplicates = 0;
          for (let i = 0; i < out.length; i++) if (out[i]! < 0) duplicates++;
          const claim_ids = claimIdsOf(this.state, out);
          const warnings: BatchClaimWarning[] = [];
          for (const [index, list] of warned) for (const w of list) warnings.push({ index, ...w });
          return { ingested: run.n - duplicates, duplicates, claim_ids, warnings };
        },
      };
    });
    // The write is over and the stores serialise before their first await: nothing refers to the run now.
    this.capture.recycle(run);
    this.emitWarnings(warned, result.claim_ids);
    return result;
  }

  private emitWarnings(warned: RunWarnings, ids: string[]): void {
    if (warned.size === 0 || !this.events.has('claim_warnings')) return;
    for (const [i, warnings] of warned) this.events.emit('claim_warnings', { claim_id: ids[i]!, warnings });
  }

  /**
   * Ingests one claim; returns its claim_id (for a duplicate, the id of the claim already stored). Seed form:
   * `ingest(s, p, o, provenance, confidence, payload)`. A claim stored with warnings fires `claim_warnings`;
   * ingestDetailed returns them.
   */
  ingest(
    subject: [string, string],
    predicate: [string, string],
    object: [string, string],
    provenance: Provenance,
    confidence?: number | null,
    payload?: unknown,
  ): Promise<string>;
  ingest(
    subject: [string, string],
    predicate: [string, string],
    object: [string, string],
    provenance: Provenance,
    options?: IngestOptions,
  ): Promise<string>;
  async ingest(
    subject: [string, string],
    predicate: [string, string],
    object: [string, string],
    provenance: Provenance,
    ...rest: unknown[]
  ): Promise<string> {
    const options = callForm<IngestOptions>(rest, ['confidence', 'payload'], ['number', 'any'], INGEST_KEYS);
    return (await this.ingestOne(subject, predicate, object, provenance, options)).claim_id;
  }

  /** ingest, answering `{ claim_id, duplicate, warnings }`. */
  ingestDetailed(
    subject: [string, string],
    predicate: [string, string],
    object: [string, string],
    provenance: Provenance,
    confidence?: number | null,
    payload?: unknown,
  ): Promise<IngestOneResult>;
  ingestDetailed(
    subject: [string, string],
    predicate: [string, string],
    object: [string, string],
    provenance: Provenance,
    options?: IngestOptions,
  ): Promise<IngestOneResult>;
  async ingestDetailed(
    subject: [string, string],
    predicate: [string, string],
    object: [string, string],
    provenance: Provenance,
    ...rest: unknown[]
  ): Promise<IngestOneResult> {
    const options = callForm<IngestOptions>(rest, ['confidence', 'payload'], ['number', 'any'], INGEST_KEYS);
    return this.ingestOne(subject, predicate, object, provenance, options);
  }

  private async ingestOne(
    subject: [string, string],
    predicate: [string, string],
    object: [string, string],
    provenance: Provenance,
    options: IngestOptions,
  ): Promise<IngestOneResult> {
    const input: ClaimInput = { subject, predicate, object, provenance };
    if (options.confidence !== undefined && options.confidence !== null) input.confidence = options.confidence;
    if (options.payload !== undefined) input.payload = options.payload;
    if (this.w.closed) throw new KbClosedError();
    const run = this.capture.capture([input], false);
    let warned: RunWarnings = new Map();
    const result = await this.w.write(() => {
      warned = checkClaims(this.state, run, false, this.strict);
      return {
        entries: [run],
        finish: (applied) => {
          const out = applied[0] as Int32Array;
          return { claim_id: claimIdsOf(this.state, out)[0]!, duplicate: out[0]! < 0, warnings: warned.get(0) ?? [] };
        },
      };
    });
    this.emitWarnings(warned, [result.claim_id]);
    return result;
  }

  // ---- retraction ------------------------------------------------------------------------------------

  private retractImpl(sourceId: string, reason: string, cascade: boolean): Promise<RetractResult> {
    if (typeof sourceId !== 'string' || sourceId.trim() === '')
      throw new KbValidationError('invalid_type', 'source_id', 'must be a non-empty string');
    if (typeof reason !== 'string' || reason.trim() === '')
      throw new KbValidationError('missing_field', 'reason', 'a retraction needs a reason (kept for audit)');
    return this.w.write(() => {
      if (!this.state.sourceIndex.has(sourceId)) throw new KbNotFoundError('source', sourceId);
      return {
        entries: [{ kind: 'retract', source_id: sourceId, reason, cascade }],
        finish: (_applied, events) => {
          const ev = events.find((e) => e.name === 'source_retracted') as Extract<
            PendingEvent,
            { name: 'source_retracted' }
          >;
          const ids = (l: number[]) => l.map((c) => this.state.claimIdOf(c));
          return { source_id: sourceId, reason, claim_ids: ids(ev.retracted), degraded_claim_ids: ids(ev.degraded) };
        },
      };
    });
  }

  /** Retracts every claim of the source. They stay in the log (audit) and leave every query, count and score. */
  async retract(source_id: string, reason: string): Promise<RetractResult> {
    return this.retractImpl(source_id, reason, false);
  }

  /** retract, and also mark `degraded` every claim whose derived_from reaches a retracted claim, transitively. */
  async retractCascade(source_id: string, reason: string): Promise<RetractResult> {
    return this.retractImpl(source_id, reason, true);
  }

  /** A read-only view answering as of `timestamp` (Date, ISO 8601 string or ms since epoch). */
  at(timestamp: Date | string | number): Promise<KbView> {
    if (this.w.closed) return Promise.reject(new KbClosedError());
    const ms =
      timestamp instanceof Date
        ? timestamp.getTime()
        : typeof timestamp === 'string'
          ? Date.parse(timestamp)
          : timestamp;
    if (typeof ms !== 'number' || !Number.isFinite(ms)) {
      return Promise.reject(
        new KbValidationError(
          'invalid_timestamp',
          'timestamp',
          'must be a Date, an ISO 8601 string or milliseconds since the epoch',
        ),
      );
    }
    const host: ViewHost = { beforeRead: () => this.w.committedIndex(), describeStore: () => this.describeStore() };
    return Promise.resolve(new KbView(this.ref, host, ms));
  }

  // ---- reads: the live view's (KbView documents each) ----------------------------------------------------

  /** The live view's method `k`, overloads and all; `reads` is looked up at call time (set in the constructor). */
  private read<K extends keyof KbView>(k: K): KbView[K] {
    return ((...a: unknown[]) => (this.reads[k] as (...x: unknown[]) => unknown).apply(this.reads, a)) as KbView[K];
  }

  resolve = this.read('resolve');
  query = this.read('query');
  explain = this.read('explain');
  getEntity = this.read('getEntity');
  getClaim = this.read('getClaim');
  claimsFor = this.read('claimsFor');
  claimsByContentId = this.read('claimsByContentId');
  listEntities = this.read('listEntities');
  pathExists = this.read('pathExists');
  findPaths = this.read('findPaths');
  traceDownstream = this.read('traceDownstream');
  openInquiries = this.read('openInquiries');
  getInquiry = this.read('getInquiry');
  checkInquiryMatches = this.read('checkInquiryMatches');
  knowledgeHealth = this.read('knowledgeHealth');
  qualityReport = this.read('qualityReport');
  findGaps = this.read('findGaps');
  findBridges = this.read('findBridges');
  findConfidenceAlerts = this.read('findConfidenceAlerts');
  schema = this.read('schema');
  stats = this.read('stats');

  // ---- Cypher (src/cypher) and the replica thread (src/offload) ---------------------------------------

  /** The replica thread off_thread calls run on (src/offload/README.md), started when first needed. */
  private replicaOf(): Replica {
    this.replica ??= new Replica(
      {
        position: async () => {
          await this.w.beforeRead();
          return this.w.lastSeq;
        },
        readAfter: (seq, limit) => this.w.store.readAfter(seq, limit),
      },
      { policy: this.policy, strict: this.strict },
      this.offThreadSettings,
    );
    return this.replica;
  }

  /** A read-only openCypher query (src/cypher/README.md); `off_thread: true` runs it on the replica thread. */
  async rawQuery(cypher: string, params?: Record<string, unknown>, options?: RawQueryOptions): Promise<RawQueryResult> {
    if (!options?.off_thread) return this.reads.rawQuery(cypher, params, options);
    const a = await this.offThreadQuery(cypher, params, options, 'value');
    return a.value as RawQueryResult;
  }

  /**
   * rawQuery on the replica thread, answering the result as JSON text made there: what a server sends as it is,
   * so that neither the result's rows nor their serialisation take the server's thread.
   */
  async rawQueryJson(cypher: string, params?: Record<string, unknown>, options?: RawQueryOptions): Promise<string> {
    const a = await this.offThreadQuery(cypher, params, options, 'json');
    return new TextDecoder().decode(a.json!);
  }

  private offThreadQuery(
    cypher: unknown,
    params: unknown,
    options: RawQueryOptions | undefined,
    format: 'value' | 'json',
  ) {
    if (this.w.closed) return Promise.reject(new KbClosedError());
    const q = checkRawQuery(cypher, params ?? {}, options ?? {});
    return this.replicaOf().run(
      {
        kind: 'cypher',
        cypher: q.cypher,
        params: q.params,
        timeout_ms: q.timeoutMs,
        max_rows: q.maxRows,
        mode: q.mode,
        as_of: Infinity,
        format,
      },
      q.timeoutMs,
    );
  }

  /**
   * Settings of the replica thread that off_thread calls run on: its heap cap (`heap_mb`), how long it is kept
   * idle (`idle_ms`), how many calls may run or wait (`max_waiting`); see src/offload/README.md. A thread already
   * running keeps its heap cap until it ends.
   */
  configureOffThread(settings: OffThreadSettings): void {
    const checked = checkOffThreadSettings(settings);
    this.offThreadSettings = { ...this.offThreadSettings, ...checked };
    this.replica?.configure(checked);
  }

  // ---- search (src/search, src/embeddings): the live view's, and the embedding work's state ------------
  search = this.read('search');
  searchEntities = this.read('searchEntities');

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

  /** Provider, model, dimension, vectors indexed, items pending, and the last provider error; null when off. */
  embeddingStatus(): EmbeddingStatus | null {
    const ix = this.searchIndex;
    const st = ix.embeddings?.status();
    // Facts and entities not yet taken in (search/intake.ts) are pending too, unless a vector was loaded.
    return st ? { ...st, pending: st.pending + ix.untakenWithoutVector() } : null;
  }

  // ---- reasoning over evidence (src/reasoning; README "Reasoning over evidence"): the live view's, and whatIf ----
  impact: KbView['impact'] = (...a) => this.reads.impact(...a);
  audit: KbView['audit'] = (...a) => this.reads.audit(...a);
  drift: KbView['drift'] = (...a) => this.reads.drift(...a);
  fragile: KbView['fragile'] = (...a) => this.reads.fragile(...a);
  stale: KbView['stale'] = (...a) => this.reads.stale(...a);
  sourceReliability: KbView['sourceReliability'] = (...a) => this.reads.sourceReliability(...a);
  consensus: KbView['consensus'] = (...a) => this.reads.consensus(...a);
  predict: KbView['predict'] = (...a) => this.reads.predict(...a);
  evolution: KbView['evolution'] = (...a) => this.reads.evolution(...a);
  blindspots: KbView['blindspots'] = (...a) => this.reads.blindspots(...a);
  testHypothesis: KbView['testHypothesis'] = (...a) => this.reads.testHypothesis(...a);

  /** A read-only view with these changes applied in memory only (db/what-if.ts); nothing is written. */
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
    const o = optionsOf<{ off_thread?: boolean; timeout_ms?: number }>(options, 'options', [
      'off_thread',
      'timeout_ms',
    ]);
    if (o.off_thread !== undefined && typeof o.off_thread !== 'boolean')
      throw new KbValidationError('invalid_type', 'off_thread', 'must be true or false');
    const t = o.timeout_ms ?? WHAT_IF_TIMEOUT_MS;
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 1)
      throw new KbValidationError('out_of_range', 'timeout_ms', 'must be a positive integer');
    if (o.off_thread) {
      const a = await this.replicaOf().run({ kind: 'what_if', input }, t);
      return a.value as WhatIfSummary;
    }
    await this.w.beforeRead();
    return whatIfSummaryOf(this.w, this.capture, input, this.strict, SEARCH_INDEX);
  }

  /** whatIf({ add_claims: claims }). */
  hypothetical(claims: ClaimInput[]): Promise<KbView> {
    return this.whatIf({ add_claims: claims });
  }

  // ---- topology and structural embeddings: the live view's (src/topology/README.md) -------------------

  computeTopology: KbView['computeTopology'] = (...a) => this.reads.computeTopology(...a);
  topics: KbView['topics'] = (...a) => this.reads.topics(...a);
  densityMap: KbView['densityMap'] = (...a) => this.reads.densityMap(...a);
  crossDomainBridges: KbView['crossDomainBridges'] = (...a) => this.reads.crossDomainBridges(...a);
  queryTopic: KbView['queryTopic'] = (...a) => this.reads.queryTopic(...a);
  generateStructuralEmbeddings: KbView['generateStructuralEmbeddings'] = (...a) =>
    this.reads.generateStructuralEmbeddings(...a);
  generateWeightedStructuralEmbeddings: KbView['generateWeightedStructuralEmbeddings'] = (...a) =>
    this.reads.generateWeightedStructuralEmbeddings(...a);
  entityEmbedding: KbView['entityEmbedding'] = (...a) => this.reads.entityEmbedding(...a);
  similarEntities: KbView['similarEntities'] = (...a) => this.reads.similarEntities(...a);

  // ---- claims from text, conversations and team chat (README: "Claims from text, chats and team chat") ---

  /** The extraction port, or KbExtractionUnavailableError naming the call (a base opened through kb-core). */
  private extractionFor(operation: string): extract.ExtractionPort {
    if (!this.extraction) throw new KbExtractionUnavailableError(operation);
    return this.extraction;
  }

  /** Extracts claims from free text; one call is one atomic batch. Seed form: `ingestText(text, source_id)`. */
  ingestText(
    text: string,
    source_id?: string | null,
    options?: extract.IngestTextOptions,
  ): Promise<extract.IngestResult>;
  ingestText(text: string, options?: extract.IngestTextOptions): Promise<extract.IngestResult>;
  async ingestText(text: string, ...rest: unknown[]): Promise<extract.IngestResult> {
    const o = callForm<extract.IngestTextOptions>(rest, ['source_id'], ['string'], OPTION_KEYS.ingestText);
    return this.extractionFor('ingestText').ingestText(this, text, o);
  }

  /**
   * Claims from hosted-chat messages (OpenAI- or Anthropic-style); provenance points at each message. Seed
   * form: `ingestChat(messages, conversation_id, extraction)`.
   */
  ingestChat(
    messages: unknown[],
    conversation_id?: string | null,
    extraction?: extract.ExtractionMode | null,
    options?: extract.IngestChatOptions,
  ): Promise<extract.IngestResult>;
  ingestChat(messages: unknown[], options?: extract.IngestChatOptions): Promise<extract.IngestResult>;
  async ingestChat(messages: unknown[], ...rest: unknown[]): Promise<extract.IngestResult> {
    const o = callForm<extract.IngestChatOptions>(
      rest,
      ['conversation_id', 'extraction'],
      ['string', 'string'],
      OPTION_KEYS.ingestChat,
    );
    return this.extractionFor('ingestChat').ingestChat(this, messages, o);
  }

  /** Claims from a ChatGPT or Claude export ZIP, a JSON conversation or a text transcript; one file, one batch. */
  ingestChatFile(
    path: string,
    platform?: extract.ChatPlatform | null,
    options?: extract.IngestChatFileOptions,
  ): Promise<extract.IngestResult>;
  ingestChatFile(path: string, options?: extract.IngestChatFileOptions): Promise<extract.IngestResult>;
  async ingestChatFile(path: string, ...rest: unknown[]): Promise<extract.IngestResult> {
    const o = callForm<extract.IngestChatFileOptions>(rest, ['platform'], ['string'], OPTION_KEYS.ingestChatFile);
    return this.extractionFor('ingestChatFile').ingestChatFile(this, path, o);
  }

  /** Claims from a Slack workspace export ZIP; one archive, one batch. Seed form: `(path, channels, extraction)`. */
  ingestTeamChat(
    path: string,
    channels?: string[] | null,
    extraction?: extract.ExtractionMode | null,
    options?: extract.IngestTeamChatOptions,
  ): Promise<extract.IngestResult>;
  ingestTeamChat(path: string, options?: extract.IngestTeamChatOptions): Promise<extract.IngestResult>;
  async ingestTeamChat(path: string, ...rest: unknown[]): Promise<extract.IngestResult> {
    const o = callForm<extract.IngestTeamChatOptions>(
      rest,
      ['channels', 'extraction'],
      ['array', 'string'],
      OPTION_KEYS.ingestTeamChat,
    );
    return this.extractionFor('ingestTeamChat').ingestTeamChat(this, path, o);
  }

  /** Reviews candidate claims with the configured reviewer: `{ stored, skipped, flagged }` with reasons. */
  async curate(claims: ClaimInput[]): Promise<extract.CurateResult> {
    return this.extractionFor('curate').curate(this, claims);
  }

  /** 'heuristic', a provider name or 'provider:model'; a missing API key is an error here, not mid-ingest. */
  async configureCurator(spec: extract.CuratorSpec): Promise<extract.CuratorConfigured> {
    return this.extractionFor('configureCurator').configureCurator(this, spec);
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
    const text = (v: unknown, field: string, allowEmpty = false) => {
      if (typeof v !== 'string' || (!allowEmpty && v.trim() === ''))
        throw new KbValidationError(
          v === undefined ? 'missing_field' : 'invalid_type',
          field,
          'must be a non-empty string',
        );
      if (v.length > 4000) throw new KbValidationError('too_long', field, 'is longer than 4000 characters');
    };
    const side = (v: unknown, field: string): { name: string; type?: string } => {
      if (!Array.isArray(v)) {
        if (v !== undefined && typeof v !== 'string')
          throw new KbValidationError('invalid_type', field, 'must be a name or a [name, type] pair');
        text(v, field);
        return { name: v as string };
      }
      if (v.length !== 2)
        throw new KbValidationError(
          'invalid_tuple',
          field,
          `must have exactly 2 elements [name, type], got ${v.length}`,
        );
      text(v[0], `${field}[0]`);
      text(v[1], `${field}[1]`);
      return { name: v[0], type: v[1] };
    };
    text(question, 'question');
    const s = side(subject, 'subject');
    const o = side(object, 'object');
    text(predicate_hint, 'predicate_hint', true);
    const id = newId('inq_');
    const entry: InquiryEntry = {
      kind: 'inquiry',
      inquiry_id: id,
      question,
      subject: s.name,
      object: o.name,
      predicate_hint,
      ...(s.type !== undefined ? { subject_type: s.type } : {}),
      ...(o.type !== undefined ? { object_type: o.type } : {}),
    };
    await this.w.write(() => ({ entries: [entry], finish: () => undefined }));
    return (await this.getInquiry(id))!;
  }

  // ---- registries ------------------------------------------------------------------------------------

  /** Registers a vocabulary; `vocab` may be omitted for one that ships with the library ('bio'). */
  async registerVocabulary(namespace: string, vocab?: Vocabulary): Promise<void> {
    const doc = vocab ?? builtinVocabularies[namespace];
    if (doc === undefined)
      throw new KbValidationError(
        'unknown_vocabulary',
        'namespace',
        `no vocabulary '${namespace}' ships with the library; pass its definition`,
      );
    this.registry.checkVocabulary(namespace, doc);
    await this.w.write(() => ({ entries: [{ kind: 'vocabulary', namespace, vocab: doc }], finish: () => undefined }));
  }

  async registerPredicate(predicate_type: string, options: PredicateSpec): Promise<void> {
    this.registry.checkPredicateSpec(predicate_type, options);
    await this.w.write(() => ({
      entries: [
        {
          kind: 'predicate',
          predicate_type,
          subject_types: options.subject_types ?? [],
          object_types: options.object_types ?? [],
          ...(options.class ? { predicate_class: options.class } : {}),
        },
      ],
      finish: () => undefined,
    }));
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
    await this.replica?.close();
    this.searchIndex.close();
    const q = this.searchIndex.embeddings;
    if (q && this.store.backend === 'sqlite') {
      try {
        saveVectors(q, this.store.location);
      } catch {
        // Vectors are derived: a failed save costs a re-embedding at the next open, never data.
      }
    }
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
}

export { KbError };

/** whatIfSummary's time budget off the thread, by default. */
const WHAT_IF_TIMEOUT_MS = 30_000;

export interface IngestOptions {
  confidence?: number | null;
  payload?: unknown;
}
const INGEST_KEYS = ['confidence', 'payload'] as const;
