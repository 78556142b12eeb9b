// KbDB: the live base. Writes go through one path: validate against the current index, apply the entries to
// the index (which also finds duplicates, in the same pass), append what was kept to the log (atomically, with
// the head we have seen), then emit events. Reads wait while a write is between its apply and its append, and
// an append that fails makes the base rebuild its index from the log, so no read sees what the log lacks.
// Reading the log back on open goes through the very same `apply`, so the index is always a function of it.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { KbClosedError, KbConflictError, KbError, KbNotFoundError, KbOpenError, KbValidationError } from '../errors.js';
import { GraphState, type PendingEvent, RETRACTED } from '../graph/state.js';
import { Registry, type PredicateSpec, type Vocabulary } from '../model/registry.js';
import { validateClaimInput, lastProvenanceKeys, LIMITS } from '../model/validate.js';
import { normalizeToken } from '../model/normalize.js';
import { openStore, isPostgresUrl } from '../store/open-store.js';
import { SqliteClaimStore } from '../store/sqlite.js';
import { generatedClaimId, newRun, pickFromRun, sliceRun } from '../model/claim-run.js';
import { entrySpan, lastSeqOf } from '../store/log-span.js';
import type { ClaimStore, LogEntry, LogRecord } from '../store/types.js';
import type { ClaimRun } from '../model/claim-run.js';
import type { ClaimInput, IngestBatchResult, Inquiry, KbEventName, Provenance } from '../types.js';
import { builtinVocabularies } from '../vocab/bio.js';
import * as extract from '../extract/api.js';
import { EventHub, type Listener } from './events.js';
import { KbView, type ViewHost } from './view.js';

/**
 * 'graph' is the embedded engine (in-memory graph index over the log); 'auto' picks the best available,
 * which is 'graph'; 'rust' names the upstream's native engine and is accepted as an alias of the fastest
 * engine this package ships, which is also 'graph'. The storage (SQLite file or PostgreSQL) follows the path.
 */
export type Backend = 'graph' | 'auto' | 'rust';
export const BACKENDS: readonly Backend[] = ['graph', 'auto', 'rust'];

/**
 * 'heuristic': a claim without confidence gets a default by provenance.source_type (experiment 0.9,
 * curated database 0.85, literature 0.75, text mining 0.6, prediction 0.5, anything else 0.7).
 * 'none': a claim without confidence gets 1.
 */
export type Curator = 'heuristic' | 'none';

export interface OpenOptions {
  backend?: Backend;
  curator?: Curator;
}

export interface QuickstartOptions {
  vocabs?: string[];
  curator?: Curator;
}

export interface RetractResult {
  source_id: string;
  reason: string;
  claim_ids: string[];
  degraded_claim_ids: string[];
}

const DEFAULT_CONFIDENCE: [RegExp, number][] = [
  [/experiment|assay|clinical_trial|wet_lab/, 0.9],
  [/database|curat|registry|ontology/, 0.85],
  [/literature|publication|paper|pubmed|journal|review/, 0.75],
  [/text_mining|nlp|extraction/, 0.6],
  [/predict|model|comput|inference|llm|agent|hypothes/, 0.5],
];

function defaultConfidence(curator: Curator, sourceType: string): number {
  if (curator === 'none') return 1;
  const t = normalizeToken(sourceType);
  for (const [re, v] of DEFAULT_CONFIDENCE) if (re.test(t)) return v;
  return 0.7;
}

// Ids: a random 64-bit prefix per process plus a counter, 32 hex digits in all. Unique across processes with
// overwhelming probability, and cheap enough for a million claims a second.
let idPrefix = randomBytes(8).toString('hex');
let idCounter = 0;
function newId(kind: string): string {
  const { prefix, start } = reserveIds(1);
  return kind + generatedClaimId(prefix, start).slice(4);
}

/** n consecutive counters under one prefix (a fresh prefix when the counter would pass 32 bits). */
function reserveIds(n: number): { prefix: string; start: number } {
  if (idCounter + n > 0xffffffff) {
    idPrefix = randomBytes(8).toString('hex');
    idCounter = 0;
  }
  const start = idCounter;
  idCounter += n;
  return { prefix: idPrefix, start };
}

/**
 * Copies the log's entries with seq <= upTo from one store into another that holds exactly the entries before
 * them (an empty one, for a copy from the start), keeping each append's timestamp so at() answers the same.
 */
async function copyLog(from: ClaimStore, to: ClaimStore, upTo: number): Promise<void> {
  let after = 0;
  while (after < upTo) {
    const page: LogRecord[] = [];
    for (const r of await from.readAfter(after, 50_000)) {
      if (r.seq > upTo) break;
      const span = entrySpan(r.entry);
      // A run reaching past upTo (appended after it) keeps only its head.
      page.push(r.seq + span - 1 <= upTo ? r : { ...r, entry: sliceRun(r.entry as ClaimRun, 0, upTo - r.seq + 1) });
    }
    if (page.length === 0) break;
    let i = 0;
    while (i < page.length) {
      let j = i;
      while (j < page.length && page[j]!.ts === page[i]!.ts) j++;
      await to.append(page.slice(i, j).map((r) => r.entry), page[i]!.ts, page[i]!.seq - 1);
      i = j;
    }
    after = lastSeqOf(page[page.length - 1]!);
  }
}

/** The claims of a run that applyRun kept (out[i] >= 0); they took consecutive ids from id_start. */
function keptOfRun(r: ClaimRun, out: Int32Array): ClaimRun {
  const keep: number[] = [];
  for (let i = 0; i < r.n; i++) if (out[i]! >= 0) keep.push(i);
  return pickFromRun(r, keep);
}

export class KbDB extends KbView implements ViewHost {
  private readonly store: ClaimStore;
  private readonly events = new EventHub();
  private readonly curator: Curator;
  private readonly backendName: Backend;
  private lastSeq = 0;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** Set while the index holds entries a pending append has not committed yet (see write()). */
  private speculative: Promise<void> | null = null;
  /** The columns of the last finished batch, for the next one of the same size (see captureClaims). */
  private spareRun: ClaimRun | undefined;

  private get registry(): Registry {
    return this.state.registry;
  }

  private constructor(store: ClaimStore, state: GraphState, options: Required<OpenOptions>) {
    let self!: KbDB;
    const host: ViewHost = { beforeRead: () => self.beforeRead(), describeStore: () => self.describeStore() };
    super({ current: state }, host, Infinity);
    self = this;
    this.store = store;
    this.curator = options.curator;
    this.backendName = options.backend;
  }

  static async open(path: string, options: OpenOptions = {}): Promise<KbDB> {
    const backend = options.backend ?? 'graph';
    if (!BACKENDS.includes(backend)) {
      throw new KbValidationError('unknown_backend', 'backend', `unknown backend '${String(backend)}'; use one of ${BACKENDS.join(', ')}`);
    }
    const curator = options.curator ?? 'heuristic';
    if (curator !== 'heuristic' && curator !== 'none') throw new KbValidationError('invalid_value', 'curator', "must be 'heuristic' or 'none'");
    const store = await openStore(path);
    const db = new KbDB(store, new GraphState(new Registry()), { backend, curator });
    try {
      await db.catchUp(null);
    } catch (e) {
      await store.close();
      throw e;
    }
    return db;
  }

  /**
   * Copies a snapshot file (`src`, made by snapshot()) into a new, empty base at `dest` (a path or a
   * postgres:// URL), keeping every entry's order and timestamp, and returns it opened.
   */
  static async restore(src: string, dest: string, options: OpenOptions = {}): Promise<KbDB> {
    if (typeof src !== 'string' || isPostgresUrl(src)) throw new KbValidationError('invalid_type', 'src', 'must be the path of a snapshot file');
    if (typeof dest !== 'string' || dest.trim() === '') throw new KbValidationError('invalid_type', 'dest', 'must be a path or a postgres:// URL');
    const from = await SqliteClaimStore.open(src, { create: false, readonly: true });
    try {
      const to = await openStore(dest);
      try {
        const head = await to.head();
        if (head !== 0) throw new KbValidationError('not_empty', 'dest', `${dest} already holds ${head} log entries; restore needs an empty base`);
        await copyLog(from, to, Infinity);
      } finally {
        await to.close();
      }
    } finally {
      await from.close();
    }
    return KbDB.open(dest, options);
  }

  // ---- plumbing ------------------------------------------------------------------------------------

  /** @internal */
  async beforeRead(): Promise<void> {
    await this.committedIndex();
    if (this.store.shared) await this.serial(() => this.catchUp(null));
  }

  /** Resolves once the index holds only committed entries (no append pending); rejects when closed. */
  private async committedIndex(): Promise<void> {
    if (this.closed) throw new KbClosedError();
    while (this.speculative) await this.speculative;
  }

  /** @internal */
  describeStore() {
    return { backend: this.store.backend, location: this.store.location, engine: `graph (requested: ${this.backendName})`, log_seq: this.lastSeq };
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Applies every committed entry after the last one seen (other processes' writes, or the whole log on open). */
  private async catchUp(events: PendingEvent[] | null): Promise<void> {
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
    switch (e.kind) {
      case 'claim':
        return s.applyClaim(e, ts, events);
      case 'claims':
        s.applyRun(e, ts, events, null, false);
        break;
      case 'retract':
        s.applyRetract(e, ts, events);
        break;
      case 'inquiry':
        s.applyInquiry(e, ts);
        break;
      case 'vocabulary':
        this.registry.applyVocabulary(e.namespace, e.vocab as Vocabulary);
        s.forgetRawNames();
        break;
      case 'predicate':
        this.registry.applyPredicate(e.predicate_type, { subject_types: e.subject_types, object_types: e.object_types, ...(e.predicate_class ? { class: e.predicate_class } : {}) });
        break;
      case 'payload_schema':
        this.registry.applyPayloadSchema(e.predicate_type, e.schema);
        break;
      default:
        // Entries from a newer version are skipped rather than breaking the open.
        break;
    }
    return 0;
  }

  /** Throws the index away and replays the whole log: after an append failed, the index held what the log lacks. */
  private async rebuild(): Promise<void> {
    this.ref.current = new GraphState(new Registry());
    this.lastSeq = 0;
    await this.catchUp(null);
  }

  /**
   * The one write path. `build` validates against the caught-up index and returns the entries (it may run
   * again after a conflict with another writer). The entries are applied to the index first: applying a claim
   * is also how a duplicate is found, in one pass. Claims found to be duplicates are left out of the log; the
   * rest is appended. From the apply until the append settles, reads wait (beforeRead); if the append fails,
   * the index is rebuilt from the log before anyone reads it again. `finish` gets, per entry, what
   * applyEntry returned, or for a ClaimRun what applyRun wrote per claim.
   */
  private async write<T>(build: () => { entries: LogEntry[]; finish: (applied: (number | Int32Array)[], events: PendingEvent[]) => T }): Promise<T> {
    if (this.closed) throw new KbClosedError();
    let events: PendingEvent[] = [];
    const result = await this.serial(async () => {
      if (this.closed) throw new KbClosedError();
      for (let attempt = 0; ; attempt++) {
        await this.catchUp(null);
        // Start the apply in a task of its own: every read that passed beforeRead before has finished by
        // then (their continuations are microtasks, which run first), and every later one waits.
        await new Promise<void>((r) => setImmediate(r));
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
        // The store may start writing the whole plan now, while the index is updated; that write is committed
        // only if every entry is kept (no duplicate), else dropped for an append of what was kept.
        const pending = this.store.beginAppend?.(plan.entries, ts, this.lastSeq);
        try {
          const kept: LogEntry[] = [];
          try {
            let span = 0;
            let allKept = true;
            for (let i = 0; i < n; i++) {
              const e = plan.entries[i]!;
              if (e.kind === 'claims') {
                const out = new Int32Array(e.n);
                const added = s.applyRun(e, ts, events, out, true);
                applied[i] = out;
                if (added > 0) kept.push(added === e.n ? e : keptOfRun(e, out));
                if (added !== e.n) allKept = false;
                span += added;
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
            if (pending && allKept) first = await pending.commit();
            else {
              await pending?.abort();
              first = await this.store.append(kept, ts, this.lastSeq);
            }
            if (span) this.lastSeq = first + span - 1;
          } catch (e) {
            await pending?.abort();
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
    });
    this.emit(events);
    return result;
  }

  private emit(pending: PendingEvent[]): void {
    const s = this.state;
    const hub = this.events;
    for (const p of pending) {
      switch (p.name) {
        case 'claim_ingested': {
          if (!hub.has('claim_ingested')) break;
          const e = s.claimEntryOf(p.claim);
          const input: ClaimInput = { subject: e.subject, predicate: e.predicate, object: e.object, provenance: e.provenance, confidence: e.confidence };
          if (e.payload !== undefined) input.payload = e.payload;
          hub.emit('claim_ingested', { claim_id: e.claim_id, claim_input: input });
          break;
        }
        case 'claim_corroborated':
          hub.emit('claim_corroborated', { content_id: s.contentIdOfFact(p.fact), count: p.count, claim_id: s.claimIdOf(p.claim) });
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

  // ---- claims ----------------------------------------------------------------------------------------

  /**
   * Checks claim inputs' shapes and copies them into a ClaimRun, synchronously at call time: the caller may
   * reuse its objects as soon as the call is made, and a store may serialise after an await. Strings are
   * immutable, so the columns share them; provenance extras and payloads are copied. Throws
   * KbValidationError naming the field (and, for a batch, the index).
   */
  private captureClaims(inputs: readonly unknown[], batch: boolean): ClaimRun {
    const n = inputs.length;
    const ids = reserveIds(n);
    // A feed usually sends batches of one size: the last batch's columns are reused, so they are not new young
    // objects that every collection during the batch copies again.
    let r = this.spareRun;
    if (r && r.n === n && n > 1) {
      this.spareRun = undefined;
      r.id_prefix = ids.prefix;
      r.id_start = ids.start;
      delete r.provenance_extra;
      delete r.payload;
    } else r = newRun(n, ids.prefix, ids.start);
    for (let i = 0; i < n; i++) {
      let c: ClaimInput;
      try {
        c = validateClaimInput(inputs[i]);
      } catch (e) {
        if (batch && e instanceof KbValidationError) throw e.at(i);
        throw e;
      }
      const p = c.provenance;
      r.subject[i] = c.subject[0];
      r.subject_type[i] = c.subject[1];
      r.relationship[i] = c.predicate[0];
      r.predicate_class[i] = c.predicate[1];
      r.object[i] = c.object[0];
      r.object_type[i] = c.object[1];
      r.source_type[i] = p.source_type;
      r.source_id[i] = p.source_id;
      r.confidence[i] = c.confidence ?? defaultConfidence(this.curator, p.source_type);
      if (lastProvenanceKeys > 2) {
        const extra: Record<string, unknown> = {};
        let any = false;
        for (const k in p) {
          const v = (p as Record<string, unknown>)[k];
          if (k === 'source_type' || k === 'source_id' || v === undefined) continue;
          extra[k] = k === 'derived_from' ? [...(v as string[])] : v;
          any = true;
        }
        if (any) (r.provenance_extra ??= {})[i] = extra;
      }
      if (c.payload !== undefined) (r.payload ??= {})[i] = structuredClone(c.payload);
    }
    return r;
  }

  /** Checks claim i of a run against the registry (constraints, payload schema) and the index (derived_from references). */
  private checkClaim(r: ClaimRun, i: number): void {
    const s = this.state;
    const registry = this.registry;
    if (registry.constrainsClaims) {
      registry.checkClaim(normalizeToken(r.subject_type[i]!), normalizeToken(r.relationship[i]!), normalizeToken(r.predicate_class[i]!), normalizeToken(r.object_type[i]!), r.payload?.[i]);
    }
    const derived = r.provenance_extra?.[i]?.derived_from as string[] | undefined;
    if (derived) {
      for (let j = 0; j < derived.length; j++) {
        const parent = s.claimIndexOf(derived[j]!);
        if (parent === undefined) throw new KbValidationError('unknown_reference', `provenance.derived_from[${j}]`, `no claim with id '${derived[j]}'`);
        if (s.claimStatus[parent] === RETRACTED) throw new KbValidationError('retracted_reference', `provenance.derived_from[${j}]`, `claim '${derived[j]}' is retracted`);
      }
    }
  }

  /** Checks every claim of the run (see checkClaim); a batch's errors name the index. */
  private checkClaims(r: ClaimRun, batch: boolean): void {
    if (!this.registry.constrainsClaims && !r.provenance_extra) return;
    for (let i = 0; i < r.n; i++) {
      try {
        this.checkClaim(r, i);
      } catch (e) {
        if (batch && e instanceof KbValidationError) throw e.at(i);
        throw e;
      }
    }
  }

  /** Per claim, the stored id: its own, or for a duplicate the id of the claim it duplicates. */
  private claimIdsOf(applied: Int32Array): string[] {
    const s = this.state;
    const ids = new Array<string>(applied.length);
    for (let i = 0; i < applied.length; i++) {
      const a = applied[i]!;
      ids[i] = s.claimIdOf(a >= 0 ? a : -2 - a);
    }
    return ids;
  }

  /**
   * Ingests claims atomically: all are written, or (on any invalid claim) none, with the error naming the
   * index and field. Claims stating a fact the same source already stated are duplicates: not stored again;
   * `claim_ids` then holds the stored claim's id.
   */
  async ingestBatch(claims: ClaimInput[]): Promise<IngestBatchResult> {
    if (!Array.isArray(claims)) throw new KbValidationError('invalid_type', 'claims', 'must be an array of claims');
    if (claims.length > LIMITS.batch_claims) throw new KbValidationError('too_large', 'claims', `more than ${LIMITS.batch_claims} claims in one batch`);
    if (this.closed) throw new KbClosedError();
    const run = this.captureClaims(claims, true);
    const result = await this.write(() => {
      this.checkClaims(run, true);
      return {
        entries: run.n ? [run] : [],
        finish: (applied) => {
          const out = (applied[0] as Int32Array | undefined) ?? new Int32Array(0);
          let duplicates = 0;
          for (let i = 0; i < out.length; i++) if (out[i]! < 0) duplicates++;
          return { ingested: run.n - duplicates, duplicates, claim_ids: this.claimIdsOf(out) };
        },
      };
    });
    // The write is over and the stores serialise before their first await: nothing refers to the run now.
    this.spareRun = run;
    return result;
  }

  /** Ingests one claim; returns its claim_id (for a duplicate, the id of the claim already stored). */
  async ingest(
    subject: [string, string], predicate: [string, string], object: [string, string], provenance: Provenance,
    options: { confidence?: number; payload?: unknown } = {},
  ): Promise<string> {
    const input: ClaimInput = { subject, predicate, object, provenance };
    if (options.confidence !== undefined) input.confidence = options.confidence;
    if (options.payload !== undefined) input.payload = options.payload;
    if (this.closed) throw new KbClosedError();
    const run = this.captureClaims([input], false);
    return this.write(() => {
      this.checkClaims(run, false);
      return { entries: [run], finish: (applied) => this.claimIdsOf(applied[0] as Int32Array)[0]! };
    });
  }

  // ---- retraction ------------------------------------------------------------------------------------

  private retractImpl(sourceId: string, reason: string, cascade: boolean): Promise<RetractResult> {
    if (typeof sourceId !== 'string' || sourceId.trim() === '') throw new KbValidationError('invalid_type', 'source_id', 'must be a non-empty string');
    if (typeof reason !== 'string' || reason.trim() === '') throw new KbValidationError('missing_field', 'reason', 'a retraction needs a reason (kept for audit)');
    return this.write(() => {
      if (!this.state.sourceIndex.has(sourceId)) throw new KbNotFoundError('source', sourceId);
      return {
        entries: [{ kind: 'retract', source_id: sourceId, reason, cascade }],
        finish: (_applied, events) => {
          const ev = events.find((e) => e.name === 'source_retracted') as Extract<PendingEvent, { name: 'source_retracted' }>;
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
    if (this.closed) return Promise.reject(new KbClosedError());
    const ms = timestamp instanceof Date ? timestamp.getTime() : typeof timestamp === 'string' ? Date.parse(timestamp) : timestamp;
    if (typeof ms !== 'number' || !Number.isFinite(ms)) {
      return Promise.reject(new KbValidationError('invalid_timestamp', 'timestamp', 'must be a Date, an ISO 8601 string or milliseconds since the epoch'));
    }
    const host: ViewHost = { beforeRead: () => this.committedIndex(), describeStore: () => this.describeStore() };
    return Promise.resolve(new KbView(this.ref, host, ms));
  }

  // ---- claims from text, conversations and team chat (README: "Claims from text, chats and team chat") ---

  /** Extracts claims from free text; one call is one atomic batch. */
  ingestText(text: string, options?: extract.IngestTextOptions) {
    return extract.ingestText(this, text, options);
  }

  /** Claims from hosted-chat messages (OpenAI- or Anthropic-style); provenance points at each message. */
  ingestChat(messages: unknown[], options?: extract.IngestChatOptions) {
    return extract.ingestChat(this, messages, options);
  }

  /** Claims from a ChatGPT or Claude export ZIP, a JSON conversation or a text transcript; one file, one batch. */
  ingestChatFile(path: string, options?: extract.IngestChatFileOptions) {
    return extract.ingestChatFile(this, path, options);
  }

  /** Claims from a Slack workspace export ZIP; one archive, one batch. */
  ingestTeamChat(path: string, options?: extract.IngestTeamChatOptions) {
    return extract.ingestTeamChat(this, path, options);
  }

  /** Reviews candidate claims with the configured curator: `{ stored, skipped, flagged }` with reasons. */
  curate(claims: ClaimInput[]) {
    return extract.curate(this, claims);
  }

  /** 'heuristic', a provider name or 'provider:model'; a missing API key is an error here, not mid-ingest. */
  async configureCurator(spec: extract.CuratorSpec) {
    return extract.configureCurator(this, spec);
  }

  // ---- inquiries -------------------------------------------------------------------------------------

  /** Records an open question; the first claim later linking subject and object (fitting the hint) answers it. */
  async ingestInquiry(question: string, subject: string, object: string, predicate_hint = ''): Promise<Inquiry> {
    const text = (v: unknown, field: string, allowEmpty = false) => {
      if (typeof v !== 'string' || (!allowEmpty && v.trim() === '')) throw new KbValidationError(v === undefined ? 'missing_field' : 'invalid_type', field, 'must be a non-empty string');
      if (v.length > 4000) throw new KbValidationError('too_long', field, 'is longer than 4000 characters');
    };
    text(question, 'question');
    text(subject, 'subject');
    text(object, 'object');
    text(predicate_hint, 'predicate_hint', true);
    const id = newId('inq_');
    await this.write(() => ({ entries: [{ kind: 'inquiry', inquiry_id: id, question, subject, object, predicate_hint }], finish: () => undefined }));
    return (await this.getInquiry(id))!;
  }

  // ---- registries ------------------------------------------------------------------------------------

  /** Registers a vocabulary; `vocab` may be omitted for one that ships with the library ('bio'). */
  async registerVocabulary(namespace: string, vocab?: Vocabulary): Promise<void> {
    const doc = vocab ?? builtinVocabularies[namespace];
    if (doc === undefined) throw new KbValidationError('unknown_vocabulary', 'namespace', `no vocabulary '${namespace}' ships with the library; pass its definition`);
    this.registry.checkVocabulary(namespace, doc);
    await this.write(() => ({ entries: [{ kind: 'vocabulary', namespace, vocab: doc }], finish: () => undefined }));
  }

  async registerPredicate(predicate_type: string, options: PredicateSpec): Promise<void> {
    this.registry.checkPredicateSpec(predicate_type, options);
    await this.write(() => ({
      entries: [{
        kind: 'predicate', predicate_type, subject_types: options.subject_types ?? [], object_types: options.object_types ?? [],
        ...(options.class ? { predicate_class: options.class } : {}),
      }],
      finish: () => undefined,
    }));
  }

  /** Claims of this predicate must then carry a payload valid against the JSON Schema (Ajv). */
  async registerPayloadSchema(predicate_type: string, jsonSchema: object): Promise<void> {
    this.registry.checkPayloadSchema(predicate_type, jsonSchema);
    await this.write(() => ({ entries: [{ kind: 'payload_schema', predicate_type, schema: jsonSchema }], finish: () => undefined }));
  }

  // ---- lifecycle -------------------------------------------------------------------------------------

  /** Reads what other processes appended since the last read or write (automatic for PostgreSQL). */
  async refresh(): Promise<void> {
    if (this.closed) throw new KbClosedError();
    await this.serial(() => this.catchUp(null));
  }

  /** Writes a consistent copy of the log (an SQLite KB file) to `dest` while the base stays in use. */
  async snapshot(dest: string): Promise<{ path: string; log_seq: number }> {
    if (this.closed) throw new KbClosedError();
    if (typeof dest !== 'string' || dest.trim() === '' || isPostgresUrl(dest)) throw new KbValidationError('invalid_type', 'dest', 'must be a file path');
    if (existsSync(dest)) throw new KbValidationError('exists', 'dest', `${dest} already exists; snapshots never overwrite`);
    return this.serial(async () => {
      const seq = this.lastSeq;
      if (this.store.snapshotTo) {
        try {
          await this.store.snapshotTo(dest);
        } catch (e) {
          if (e instanceof KbError) throw e;
          throw new KbOpenError('snapshot_failed', 'dest', `cannot write a snapshot to ${dest}: ${(e as Error).message}`, { cause: e });
        }
        return { path: dest, log_seq: seq };
      }
      const copy = await SqliteClaimStore.open(dest);
      try {
        await copyLog(this.store, copy, seq);
      } finally {
        await copy.close();
      }
      return { path: dest, log_seq: seq };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Let queued writes finish first: a write whose promise is pending must not be cut in half.
    await this.queue;
    this.closed = true;
    await this.store.close();
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

export function open(path: string, options: OpenOptions = {}): Promise<KbDB> {
  return KbDB.open(path, options);
}

/** Opens (creating if needed) a base and registers the named shipped vocabularies not registered yet. */
export async function quickstart(path: string, options: QuickstartOptions = {}): Promise<KbDB> {
  const vocabs = options.vocabs ?? ['bio'];
  if (!Array.isArray(vocabs)) throw new KbValidationError('invalid_type', 'vocabs', 'must be an array of vocabulary names');
  for (const [i, v] of vocabs.entries()) {
    if (!(v in builtinVocabularies)) throw new KbValidationError('unknown_vocabulary', `vocabs[${i}]`, `no shipped vocabulary '${v}' (available: ${Object.keys(builtinVocabularies).join(', ')})`);
  }
  const db = await KbDB.open(path, { curator: options.curator ?? 'heuristic' });
  try {
    const have = (await db.schema()).registered.vocabularies;
    for (const v of vocabs) if (!have.includes(v)) await db.registerVocabulary(v);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

export { KbError };
