// Read API. KbDB extends it with writes; at(timestamp) returns a plain KbView frozen at that moment.
import { KbNotFoundError, KbValidationError } from '../errors.js';
import { ReadContext } from '../graph/read.js';
import { buildFrame, type QueryOptions } from '../graph/query.js';
import { findPaths, pathExists } from '../graph/paths.js';
import type { GraphState } from '../graph/state.js';
import type { ReadSnapshot } from '../graph/snapshot.js';
import { knowledgeHealth, type KnowledgeHealth } from '../analytics/health.js';
import {
  findConfidenceAlerts,
  findGaps,
  qualityReport,
  schemaOf,
  type ConfidenceAlertOptions,
  type ExpectedPattern,
} from '../analytics/quality.js';
import { findBridges, type Bridge } from '../analytics/bridges.js';
import { indexStats } from '../analytics/stats.js';
import { TopologyStage } from '../topology/stage.js';
import { checkInquiryMatches, getInquiry, openInquiries } from '../graph/inquiry-reads.js';
import { normalizeToken } from '../model/normalize.js';
import type {
  ComputeTopologyOptions,
  CrossDomainBridge,
  EmbeddingResult,
  Topic,
  TopicContents,
  TopicDensity,
  TopologyResult,
} from '../topology/index.js';
import type { Claim, Entity, EntitySummary, ExplainFrame, Inquiry, Path, QueryFrame } from '../types.js';

/** generateStructuralEmbeddings' options. */
export interface EmbeddingOptions {
  dim?: number;
  seed?: number;
  progress?: (stage: string, fraction: number) => void;
}

/** What a view needs from its owner: a liveness check, and catching up with other writers. */
export interface ViewHost {
  beforeRead(): Promise<void>;
  describeStore(): { backend: string; location: string; engine: string; log_seq: number };
}

export interface ClaimsForOptions {
  predicate_type?: string;
  /** 'active' (default) or 'all' (retracted and degraded claims too, for audit). */
  status?: 'active' | 'all';
}

/**
 * The index a base and its views read. The base replaces `current` when it rebuilds the index from the log
 * (after a failed append), and every view of it follows.
 */
export interface StateRef {
  current: GraphState;
}

/** What a base and a view both answer: KbView's public reads (KbDB delegates them to a live KbView). */
export type KbReader = { [K in keyof KbView]: KbView[K] };

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
      this.asOf === Infinity,
    );
    return this.topologyStage;
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

  async query(entity: string, options: QueryOptions = {}): Promise<QueryFrame> {
    await this.host.beforeRead();
    const rc = this.ctx();
    const depth = KbView.depth(options.depth, 'depth', 2, 6);
    return buildFrame(rc, this.entityOrThrow(rc, entity), { ...options, depth }, false);
  }

  async explain(entity: string, options: QueryOptions = {}): Promise<ExplainFrame> {
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

  async claimsFor(entity: string, options: ClaimsForOptions = {}): Promise<Claim[]> {
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

  async claimsByContentId(contentId: string, options: { status?: 'active' | 'all' } = {}): Promise<Claim[]> {
    await this.host.beforeRead();
    const rc = this.ctx();
    const f = typeof contentId === 'string' ? this.state.factByContentId(contentId) : undefined;
    if (f === undefined) return [];
    return this.state
      .claimsOfFact(f)
      .filter((c) => (options.status === 'all' ? rc.exists(c) : rc.isLive(c)))
      .map((c) => rc.toClaim(c));
  }

  async listEntities(
    options: { entity_type?: string; min_claims?: number; limit?: number; offset?: number } = {},
  ): Promise<EntitySummary[]> {
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
      if (type !== undefined && s.entityType[e] !== type) continue;
      const n = rc.entityClaimCount(e);
      if (n < min) continue;
      if (skipped++ < offset) continue;
      out.push(rc.summary(e, n));
    }
    return out;
  }

  async pathExists(a: string, b: string, options: { max_depth?: number } = {}): Promise<boolean> {
    await this.host.beforeRead();
    const rc = this.ctx();
    const depth = KbView.depth(options.max_depth, 'max_depth', 3, 8);
    const ea = rc.lookupEntity(a);
    const eb = rc.lookupEntity(b);
    if (ea < 0 || eb < 0) return false;
    return pathExists(rc, ea, eb, depth);
  }

  async findPaths(a: string, b: string, options: { max_depth?: number; top_k?: number } = {}): Promise<Path[]> {
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
    const out: (Claim & { depth: number; derived_via: string })[] = [];
    const seen = new Set<number>([start]);
    let frontier = [start];
    for (let d = 1; frontier.length; d++) {
      const next: number[] = [];
      for (const c of frontier) {
        for (const dep of s.dependents.get(c) ?? []) {
          if (seen.has(dep) || !rc.exists(dep)) continue;
          seen.add(dep);
          next.push(dep);
          out.push({ ...rc.toClaim(dep), depth: d, derived_via: s.claimIdOf(c) });
        }
      }
      frontier = next;
    }
    return out;
  }

  async openInquiries(): Promise<Inquiry[]> {
    await this.host.beforeRead();
    return openInquiries(this.ctx());
  }

  async getInquiry(inquiryId: string): Promise<Inquiry | null> {
    await this.host.beforeRead();
    return getInquiry(this.ctx(), inquiryId);
  }

  /** Open inquiries that a claim linking these two entities (ids or names) would answer. */
  async checkInquiryMatches(options: {
    subject_id: string;
    object_id: string;
    predicate?: string;
  }): Promise<Inquiry[]> {
    await this.host.beforeRead();
    return checkInquiryMatches(this.ctx(), options);
  }

  async knowledgeHealth(): Promise<KnowledgeHealth> {
    await this.host.beforeRead();
    return knowledgeHealth(this.ctx(), this.now());
  }

  async qualityReport(): Promise<ReturnType<typeof qualityReport>> {
    await this.host.beforeRead();
    return qualityReport(this.ctx());
  }

  async findGaps(
    expected_patterns?: ExpectedPattern[],
    options: { limit?: number } = {},
  ): Promise<ReturnType<typeof findGaps>> {
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

  async findBridges(options: { top_k?: number } = {}): Promise<Bridge[]> {
    await this.host.beforeRead();
    return findBridges(this.ctx(), KbView.depth(options.top_k, 'top_k', 20, 10_000));
  }

  async findConfidenceAlerts(options: ConfidenceAlertOptions = {}): Promise<ReturnType<typeof findConfidenceAlerts>> {
    await this.host.beforeRead();
    return findConfidenceAlerts(this.ctx(), this.now(), options);
  }

  async schema(): Promise<ReturnType<typeof schemaOf>> {
    await this.host.beforeRead();
    return schemaOf(this.ctx());
  }

  async stats() {
    await this.host.beforeRead();
    const store = this.host.describeStore();
    return { ...indexStats(this.ctx(), store), derived: this.topo.status(store.log_seq) };
  }

  // ---- topology and structural embeddings (src/topology/README.md) ------------------------------------

  /** Leiden topics of the entity graph of active claims, with coarser levels; kept for the reads below. */
  async computeTopology(options?: ComputeTopologyOptions): Promise<TopologyResult> {
    await this.host.beforeRead();
    return this.topo.computeTopology(options);
  }

  async topics(options?: { level?: number }): Promise<Topic[]> {
    await this.host.beforeRead();
    return this.topo.topics(options);
  }

  async densityMap(options?: { level?: number }): Promise<TopicDensity[]> {
    await this.host.beforeRead();
    return this.topo.densityMap(options);
  }

  async crossDomainBridges(options?: { top_k?: number; level?: number }): Promise<CrossDomainBridge[]> {
    await this.host.beforeRead();
    return this.topo.crossDomainBridges(options);
  }

  async queryTopic(topic_id: string, options?: { limit?: number }): Promise<TopicContents> {
    await this.host.beforeRead();
    return this.topo.queryTopic(topic_id, options);
  }

  async generateStructuralEmbeddings(options?: EmbeddingOptions): Promise<EmbeddingResult> {
    await this.host.beforeRead();
    return this.topo.generateEmbeddings('structural', options);
  }

  async generateWeightedStructuralEmbeddings(options?: EmbeddingOptions): Promise<EmbeddingResult> {
    await this.host.beforeRead();
    return this.topo.generateEmbeddings('weighted', options);
  }

  async entityEmbedding(id: string, options?: { kind?: 'structural' | 'weighted' }) {
    await this.host.beforeRead();
    return this.topo.entityEmbedding(id, options);
  }

  async similarEntities(id: string, options?: { k?: number; kind?: 'structural' | 'weighted' }) {
    await this.host.beforeRead();
    return this.topo.similarEntities(id, options);
  }
}
