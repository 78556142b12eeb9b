// Read API. KbDB extends it with writes; at(timestamp) returns a plain KbView frozen at that moment.
import { KbNotFoundError, KbValidationError } from '../errors.js';
import { ReadContext } from '../graph/read.js';
import { buildFrame, type QueryOptions } from '../graph/query.js';
import { findPaths, pathExists } from '../graph/paths.js';
import type { StateRef } from '../write/write-path.js';
import type { ReadSnapshot } from '../graph/snapshot.js';
import { knowledgeHealth, type KnowledgeHealth } from '../analytics/health.js';
import {
  findConfidenceAlerts,
  findGaps,
  type ConfidenceAlertOptions,
  type ExpectedPattern,
} from '../analytics/quality.js';
import { findBridges, type Bridge } from '../analytics/bridges.js';
import { indexStats } from '../analytics/stats.js';
import { answerableInquiries, checkInquiryMatches } from '../graph/inquiry-reads.js';
import { callForm, optionsOf } from '../call-forms.js';
import { downstreamOf } from '../reasoning/audit.js';
import { normalizeToken } from '../model/normalize.js';
import { CONTEXT_READS, type ContextReads, installMethods, TOPOLOGY_READS, type TopologyReads } from './reads.js';
import { TopologyStage } from '../topology/stage.js';
import { runSearch, runSearchEntities, type SearchEntitiesOptions, type SearchOptions } from '../search/stage.js';
import type { EntitySearchAnswer, SearchAnswer, SearchMode } from '../search/search.js';
import type { EmbeddingResult } from '../topology/index.js';
import type { Claim, Entity, EntitySummary, ExplainFrame, Inquiry, Path, QueryFrame } from '../types.js';
import type { ClaimsForOptions, EmbeddingOptions, InquiryMatchOptions, ListEntitiesOptions } from './view-options.js';

export type { ClaimsForOptions, EmbeddingOptions, InquiryMatchOptions, ListEntitiesOptions };

/** What a view needs from its owner: a liveness check, and catching up with other writers. */
export interface ViewHost {
  beforeRead(): Promise<void>;
  /** Resolves when no write is between its apply and its append, without catching up (default: beforeRead). */
  settled?(): Promise<void>;
  describeStore(): { backend: string; location: string; engine: string; log_seq: number };
  /** A what-if's graph, not the base's: what it computes is never kept beside the base (it would replace the base's). */
  hypothetical?: true;
}

const QUERY_KEYS = ['depth', 'max_entities'] as const;
/** What a base and a view both answer: KbView's public reads (KbDB delegates them to a live KbView). */
export type KbReader = { [K in keyof KbView]: KbView[K] };

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: its interface's members are installed by its static block
export class KbView {
  /** @internal */
  protected readonly ref: StateRef;
  /** @internal */
  protected readonly host: ViewHost;
  /** Timestamp (ms) this view answers as of; Infinity for the live base. */
  readonly asOf: number;

  /** @internal */
  constructor(ref: StateRef, host: ViewHost, asOf: number) {
    this.ref = ref;
    this.host = host;
    this.asOf = asOf;
  }

  /** @internal */
  protected get state(): ReadSnapshot {
    return this.ref.current;
  }

  /** The topology stage's results for this base or view (a base keeps them beside its file). */
  private topologyStage: TopologyStage | undefined;
  private get topo(): TopologyStage {
    this.topologyStage ??= new TopologyStage(
      () => this.ctx(),
      () => this.host.describeStore(),
      this.asOf === Infinity && this.host.hypothetical !== true,
      () => this.host.beforeRead(),
    );
    return this.topologyStage;
  }

  /** What a read that resumes after an await waits for before it reads the index again. */
  private settled(): Promise<void> {
    return this.host.settled ? this.host.settled() : this.host.beforeRead();
  }

  protected ctx(): ReadContext {
    return new ReadContext(this.state, this.asOf);
  }

  protected now(): number {
    return this.asOf === Infinity ? Date.now() : this.asOf;
  }

  protected entityOrThrow(rc: ReadContext, ref: unknown, field = 'entity'): number {
    if (typeof ref !== 'string' || ref.trim() === '')
      throw new KbValidationError('invalid_type', field, 'must be a non-empty entity id or name');
    const e = rc.lookupEntity(ref);
    if (e < 0) throw new KbNotFoundError('entity', ref);
    return e;
  }

  private static depth(v: unknown, field: string, dflt: number, max: number): number {
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      throw new KbValidationError('out_of_range', field, `must be an integer from 0 to ${max}`);
    return v;
  }

  /** Entity id for a name or id (any case/spacing; synonyms followed), or null. */
  async resolve(name: string, type?: string): Promise<string | null> {
    await this.host.beforeRead();
    const rc = this.ctx();
    const e = rc.lookupEntity(name, type);
    return e < 0 ? null : this.state.entityIds[e]!;
  }

  /** The entity, its relationships and what lies within `depth` hops (seed form: `query(entity, depth)`). */
  query(entity: string, depth?: number | null, options?: QueryOptions): Promise<QueryFrame>;
  query(entity: string, options?: QueryOptions): Promise<QueryFrame>;
  async query(entity: string, ...rest: unknown[]): Promise<QueryFrame> {
    const options = callForm<QueryOptions>(rest, ['depth'], ['number'], QUERY_KEYS);
    await this.host.beforeRead();
    const rc = this.ctx();
    const depth = KbView.depth(options.depth, 'depth', 2, 6);
    return buildFrame(rc, this.entityOrThrow(rc, entity), { ...options, depth }, false);
  }

  explain(entity: string, depth?: number | null, options?: QueryOptions): Promise<ExplainFrame>;
  explain(entity: string, options?: QueryOptions): Promise<ExplainFrame>;
  async explain(entity: string, ...rest: unknown[]): Promise<ExplainFrame> {
    const options = callForm<QueryOptions>(rest, ['depth'], ['number'], QUERY_KEYS);
    await this.host.beforeRead();
    const rc = this.ctx();
    const depth = KbView.depth(options.depth, 'depth', 2, 6);
    return buildFrame(rc, this.entityOrThrow(rc, entity), { ...options, depth }, true) as ExplainFrame;
  }

  async getEntity(id: string): Promise<Entity | null> {
    await this.host.beforeRead();
    const rc = this.ctx();
    const e = rc.lookupEntity(id);
    if (e < 0) return null;
    const s = this.state;
    const sources = new Set<number>();
    const predicates: Record<string, number> = {};
    let n = 0;
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
      for (const c of s.claimsOfFact(f)) {
        if (!rc.isLive(c)) continue;
        n++;
        sources.add(s.claimSource[c]!);
        const p = s.predName[s.factP[f]!]!;
        predicates[p] = (predicates[p] ?? 0) + 1;
      }
    }
    return {
      ...rc.summary(e, n),
      aliases: [...(s.entityAliases.get(e) ?? [])],
      types: rc.typesOf(e),
      source_count: sources.size,
      predicates,
    };
  }

  async getClaim(claimId: string): Promise<Claim | null> {
    await this.host.beforeRead();
    const rc = this.ctx();
    const c = this.state.claimIndexOf(claimId);
    if (c === undefined || !rc.exists(c)) return null;
    return rc.toClaim(c);
  }

  /** Seed form: `claimsFor(entity, predicate_type)`. */
  claimsFor(entity: string, predicate_type?: string | null, options?: ClaimsForOptions): Promise<Claim[]>;
  claimsFor(entity: string, options?: ClaimsForOptions): Promise<Claim[]>;
  async claimsFor(entity: string, ...rest: unknown[]): Promise<Claim[]> {
    const options = callForm<ClaimsForOptions>(rest, ['predicate_type'], ['string'], ['predicate_type', 'status']);
    await this.host.beforeRead();
    const rc = this.ctx();
    const s = this.state;
    const e = rc.lookupEntity(entity, undefined, options.status === 'all');
    if (e < 0) return [];
    const p =
      options.predicate_type === undefined
        ? undefined
        : (s.predIndex.get(normalizeToken(options.predicate_type)) ?? -1);
    const out: number[] = [];
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
      if (p !== undefined && s.factP[f] !== p) continue;
      for (const c of s.claimsOfFact(f)) if (options.status === 'all' ? rc.exists(c) : rc.isLive(c)) out.push(c);
    }
    out.sort((a, b) => a - b);
    return out.map((c) => rc.toClaim(c));
  }

  async claimsByContentId(contentId: string, o?: { status?: 'active' | 'all' }): Promise<Claim[]> {
    const options = optionsOf<{ status?: 'active' | 'all' }>(o, 'options', ['status']);
    await this.host.beforeRead();
    const rc = this.ctx();
    const f = typeof contentId === 'string' ? this.state.factByContentId(contentId) : undefined;
    if (f === undefined) return [];
    return this.state
      .claimsOfFact(f)
      .filter((c) => (options.status === 'all' ? rc.exists(c) : rc.isLive(c)))
      .map((c) => rc.toClaim(c));
  }

  /**
   * The k active claims that best answer a natural-language query (src/search/README.md): `mode` 'hybrid'
   * (default: BM25 and vectors fused by reciprocal rank fusion), 'semantic' or 'lexical'; filters on an end's
   * entity_type, predicate, source_type and min_confidence. `pending` counts what is not embedded yet.
   */
  search(query: string, k?: number | null, mode?: SearchMode | null, options?: SearchOptions): Promise<SearchAnswer>;
  search(query: string, options?: SearchOptions): Promise<SearchAnswer>;
  // Deliberate likeness: search and searchEntities forward alike to the search stage's two entry points.
  async search(query: string, ...rest: unknown[]): Promise<SearchAnswer> {
    await this.host.beforeRead();
    return runSearch(
      () => this.ctx(),
      query,
      rest,
      () => this.settled(),
    );
  }

  /** The k entities that best answer a query (names, synonyms, type, relationships); hybrid by default. */
  searchEntities(
    query: string,
    k?: number | null,
    entity_type?: string | null,
    options?: SearchEntitiesOptions,
  ): Promise<EntitySearchAnswer>;
  searchEntities(query: string, options?: SearchEntitiesOptions): Promise<EntitySearchAnswer>;
  // Deliberate likeness: as search above; the stage's entry point and answer differ.
  async searchEntities(query: string, ...rest: unknown[]): Promise<EntitySearchAnswer> {
    await this.host.beforeRead();
    return runSearchEntities(
      () => this.ctx(),
      query,
      rest,
      () => this.settled(),
    );
  }

  /** Seed form: `listEntities(entity_type, min_claims)`. */
  listEntities(
    entity_type?: string | null,
    min_claims?: number | null,
    options?: ListEntitiesOptions,
  ): Promise<EntitySummary[]>;
  listEntities(options?: ListEntitiesOptions): Promise<EntitySummary[]>;
  async listEntities(...rest: unknown[]): Promise<EntitySummary[]> {
    const options = callForm<ListEntitiesOptions>(
      rest,
      ['entity_type', 'min_claims'],
      ['string', 'number'],
      ['entity_type', 'min_claims', 'limit', 'offset'],
    );
    await this.host.beforeRead();
    const rc = this.ctx();
    const s = this.state;
    const type = options.entity_type === undefined ? undefined : normalizeToken(options.entity_type);
    const min = Math.max(1, options.min_claims ?? 0);
    const offset = options.offset ?? 0;
    const limit = options.limit ?? Infinity;
    const out: EntitySummary[] = [];
    let skipped = 0;
    for (let e = 0; e < s.entityIds.length && out.length < limit; e++) {
      if (type !== undefined && !rc.hasType(e, type)) continue;
      const n = rc.entityClaimCount(e);
      if (n < min) continue;
      if (skipped++ < offset) continue;
      out.push(rc.summary(e, n));
    }
    return out;
  }

  /** Seed form: `pathExists(a, b, max_depth)`. */
  pathExists(a: string, b: string, max_depth?: number): Promise<boolean>;
  pathExists(a: string, b: string, options?: { max_depth?: number }): Promise<boolean>;
  async pathExists(a: string, b: string, ...rest: unknown[]): Promise<boolean> {
    const options = callForm<{ max_depth?: number }>(rest, ['max_depth'], ['number'], ['max_depth']);
    await this.host.beforeRead();
    const rc = this.ctx();
    const depth = KbView.depth(options.max_depth, 'max_depth', 3, 8);
    const ea = rc.lookupEntity(a);
    const eb = rc.lookupEntity(b);
    if (ea < 0 || eb < 0) return false;
    return pathExists(rc, ea, eb, depth);
  }

  /** Seed form: `findPaths(a, b, max_depth, top_k)`. */
  findPaths(a: string, b: string, max_depth?: number, top_k?: number): Promise<Path[]>;
  findPaths(a: string, b: string, options?: { max_depth?: number; top_k?: number }): Promise<Path[]>;
  async findPaths(a: string, b: string, ...rest: unknown[]): Promise<Path[]> {
    const options = callForm<{ max_depth?: number; top_k?: number }>(
      rest,
      ['max_depth', 'top_k'],
      ['number', 'number'],
      ['max_depth', 'top_k'],
    );
    await this.host.beforeRead();
    const rc = this.ctx();
    const depth = KbView.depth(options.max_depth, 'max_depth', 3, 6);
    const topK = KbView.depth(options.top_k, 'top_k', 5, 1000);
    const ea = rc.lookupEntity(a);
    const eb = rc.lookupEntity(b);
    if (ea < 0 || eb < 0) return [];
    return findPaths(rc, ea, eb, depth, topK).paths;
  }

  /** Claims derived (transitively, through provenance.derived_from) from this claim, nearest first. */
  async traceDownstream(claimId: string): Promise<(Claim & { depth: number; derived_via: string })[]> {
    await this.host.beforeRead();
    const rc = this.ctx();
    const s = this.state;
    const start = s.claimIndexOf(claimId);
    if (start === undefined || !rc.exists(start)) throw new KbNotFoundError('claim', claimId);
    return downstreamOf(rc, start);
  }

  /**
   * With both entities (ids or names): the open inquiries a claim linking them would answer. With one or
   * neither (the seed's `check_inquiry_matches()`): the open inquiries, naming that entity if one is given, that
   * an active claim in the base already answers.
   */
  checkInquiryMatches(
    subject_id?: string | null,
    object_id?: string | null,
    options?: InquiryMatchOptions,
  ): Promise<Inquiry[]>;
  checkInquiryMatches(options?: InquiryMatchOptions): Promise<Inquiry[]>;
  async checkInquiryMatches(...rest: unknown[]): Promise<Inquiry[]> {
    const o = callForm<InquiryMatchOptions>(
      rest,
      ['subject_id', 'object_id'],
      ['string', 'string'],
      ['subject_id', 'object_id', 'predicate'],
    );
    await this.host.beforeRead();
    if (o.subject_id !== undefined && o.object_id !== undefined)
      return checkInquiryMatches(this.ctx(), o as Required<Pick<InquiryMatchOptions, 'subject_id' | 'object_id'>>);
    return answerableInquiries(this.ctx(), o.subject_id ?? o.object_id);
  }

  async knowledgeHealth(): Promise<KnowledgeHealth> {
    await this.host.beforeRead();
    return knowledgeHealth(this.ctx(), this.now());
  }

  async findGaps(expected_patterns?: ExpectedPattern[], o?: { limit?: number }): Promise<ReturnType<typeof findGaps>> {
    const options = optionsOf<{ limit?: number }>(o, 'options', ['limit']);
    await this.host.beforeRead();
    if (expected_patterns !== undefined && !Array.isArray(expected_patterns)) {
      throw new KbValidationError(
        'invalid_type',
        'expected_patterns',
        'must be an array of { entity_type, predicate, direction? }',
      );
    }
    expected_patterns?.forEach((p, i) => {
      if (!p || typeof p.entity_type !== 'string' || typeof p.predicate !== 'string') {
        throw new KbValidationError(
          'invalid_type',
          `expected_patterns[${i}]`,
          'needs string entity_type and predicate',
        );
      }
    });
    return findGaps(this.ctx(), expected_patterns, options.limit);
  }

  /** Seed form: `findBridges(top_k)`. */
  findBridges(top_k?: number): Promise<Bridge[]>;
  findBridges(options?: { top_k?: number }): Promise<Bridge[]>;
  async findBridges(...rest: unknown[]): Promise<Bridge[]> {
    const options = callForm<{ top_k?: number }>(rest, ['top_k'], ['number'], ['top_k']);
    await this.host.beforeRead();
    return findBridges(this.ctx(), KbView.depth(options.top_k, 'top_k', 20, 10_000));
  }

  async findConfidenceAlerts(o?: ConfidenceAlertOptions): Promise<ReturnType<typeof findConfidenceAlerts>> {
    const options = optionsOf<ConfidenceAlertOptions>(o, 'options', ['stale_days', 'low_confidence', 'limit']);
    await this.host.beforeRead();
    return findConfidenceAlerts(this.ctx(), this.now(), options);
  }

  async stats() {
    await this.host.beforeRead();
    const store = this.host.describeStore();
    return { ...indexStats(this.ctx(), store), derived: this.topo.status(store.log_seq) };
  }

  // ---- topology and structural embeddings (src/topology/README.md) ------------------------------------

  async generateStructuralEmbeddings(options?: EmbeddingOptions): Promise<EmbeddingResult> {
    await this.host.beforeRead();
    return this.topo.generateEmbeddings('structural', options);
  }

  async generateWeightedStructuralEmbeddings(options?: EmbeddingOptions): Promise<EmbeddingResult> {
    await this.host.beforeRead();
    return this.topo.generateEmbeddings('weighted', options);
  }

  // The reads of the tables in reads.ts: each waits as every read does, then forwards.
  static {
    const overContext = (fn: (rc: ReadContext, ...a: never[]) => unknown) =>
      async function (this: KbView, ...a: never[]) {
        await this.host.beforeRead();
        return fn(this.ctx(), ...a);
      };
    const onTopology = (name: (typeof TOPOLOGY_READS)[number]) =>
      async function (this: KbView, ...a: unknown[]) {
        await this.host.beforeRead();
        return (this.topo[name] as (...x: unknown[]) => unknown)(...a);
      };
    installMethods(
      KbView.prototype,
      Object.fromEntries(Object.entries(CONTEXT_READS).map(([name, fn]) => [name, overContext(fn)])),
    );
    installMethods(KbView.prototype, Object.fromEntries(TOPOLOGY_READS.map((name) => [name, onTopology(name)])));
  }
}

/** The table-driven reads (reads.ts), declared on KbView's type. */
export interface KbView extends ContextReads, TopologyReads {}
