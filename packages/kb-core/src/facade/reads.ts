// The reads a view delegates whole, as tables instead of one hand-written forwarding method each: the public
// signature is declared once (the interfaces below, which KbView takes on by declaration merging, view.ts), the
// stage function it forwards to once (the tables), and one loop installs them. The compiler checks each table
// entry against its signature: a stage function must take the public arguments after its ReadContext and return
// what the signature promises. Reads with argument handling of their own stay methods in view.ts.
import { qualityReport, schemaOf } from '../analytics/quality.js';
import { rawQuery, type RawQueryOptions, type RawQueryResult } from '../cypher/raw-query.js';
import { getInquiry, openInquiries } from '../graph/inquiry-reads.js';
import type { ReadContext } from '../graph/read.js';
import * as R from '../reasoning/index.js';
import type { TopologyStage } from '../topology/stage.js';
import type {
  ComputeTopologyOptions,
  CrossDomainBridge,
  Topic,
  TopicContents,
  TopicDensity,
  TopologyResult,
} from '../topology/index.js';
import type { Inquiry } from '../types.js';

/** Reads that are one stage function over the view's read context. */
export interface ContextReads {
  openInquiries(): Promise<Inquiry[]>;
  getInquiry(inquiryId: string): Promise<Inquiry | null>;
  qualityReport(): Promise<ReturnType<typeof qualityReport>>;
  schema(): Promise<ReturnType<typeof schemaOf>>;
  /** A read-only openCypher query over the graph as this view sees it (src/cypher/README.md). */
  rawQuery(cypher: string, params?: Record<string, unknown>, options?: RawQueryOptions): Promise<RawQueryResult>;
  // reasoning over evidence (src/reasoning; packages/kb/README.md, "Reasoning over evidence")
  /** What retractCascade(source_id) (retract with cascade: false) would retract, degrade, orphan and weaken. */
  impact(source_id: string, options?: { cascade?: boolean }): Promise<R.Impact>;
  /** A claim's provenance trail (claim id), or the trail of every claim about an entity (id or name). */
  audit(ref: string): Promise<R.Audit>;
  /** What changed in (since, until]: claims added, retracted, degraded; new entities; changed relationships. */
  drift(options: R.DriftOptions): Promise<R.Drift>;
  /** Single-source relationships that other claims derive from or many paths pass through. */
  fragile(options?: { limit?: number }): Promise<R.FragileFact[]>;
  /** Relationships whose newest active claim is older than `days`. */
  stale(options: { days: number; limit?: number }): Promise<ReturnType<typeof R.stale>>;
  sourceReliability(options?: { by?: 'source' | 'source_type'; limit?: number }): Promise<R.SourceReliability[]>;
  /** What sources assert about an entity (or between two), how many agree, and contradictions. */
  consensus(a: string, b?: string): Promise<R.Consensus>;
  /** Two-hop inferences by the vocabulary's predicate compositions, not already stated. */
  predict(entity: string, options?: { top_k?: number }): Promise<R.Prediction[]>;
  evolution(entity: string): Promise<R.Evolution>;
  blindspots(options?: { min_claims?: number; limit?: number }): Promise<R.Blindspots>;
  testHypothesis(subject: string, predicate: string, object: string): Promise<R.HypothesisTest>;
}

type OverContext<T> = {
  [K in keyof T]: T[K] extends (...a: infer A) => Promise<infer Out> ? (rc: ReadContext, ...a: A) => Out : never;
};

export const CONTEXT_READS: OverContext<ContextReads> = {
  openInquiries,
  getInquiry,
  qualityReport,
  schema: schemaOf,
  rawQuery,
  impact: (rc, sourceId, options = {}) => R.impact(rc, sourceId, options),
  audit: R.audit,
  drift: R.drift,
  fragile: (rc, options = {}) => R.fragile(rc, options),
  stale: R.stale,
  sourceReliability: (rc, options = {}) => R.sourceReliability(rc, options),
  consensus: R.consensus,
  predict: (rc, entity, options = {}) => R.predict(rc, entity, options),
  evolution: R.evolution,
  blindspots: (rc, options = {}) => R.blindspots(rc, options),
  testHypothesis: R.testHypothesis,
};

/** Reads that are the topology stage's (src/topology/README.md), on the view's stage. */
export interface TopologyReads {
  /** Leiden topics of the entity graph of active claims, with coarser levels; kept for the reads below. */
  computeTopology(options?: ComputeTopologyOptions): Promise<TopologyResult>;
  topics(options?: { level?: number }): Promise<Topic[]>;
  densityMap(options?: { level?: number }): Promise<TopicDensity[]>;
  crossDomainBridges(options?: { top_k?: number; level?: number }): Promise<CrossDomainBridge[]>;
  queryTopic(topic_id: string, options?: { limit?: number }): Promise<TopicContents>;
  entityEmbedding(
    id: string,
    options?: { kind?: 'structural' | 'weighted' },
  ): Promise<Awaited<ReturnType<TopologyStage['entityEmbedding']>>>;
  similarEntities(
    id: string,
    options?: { k?: number; kind?: 'structural' | 'weighted' },
  ): Promise<Awaited<ReturnType<TopologyStage['similarEntities']>>>;
}

/** The topology reads' names; each forwards its arguments to the stage's method of the same name. */
export const TOPOLOGY_READS = [
  'computeTopology',
  'topics',
  'densityMap',
  'crossDomainBridges',
  'queryTopic',
  'entityEmbedding',
  'similarEntities',
] as const satisfies readonly (keyof TopologyReads & keyof TopologyStage)[];

/**
 * The reads KbDB answers as its live KbView does (KbView documents each): every read but rawQuery, which
 * a base can also run on its replica thread.
 */
export const LIVE_READS = [
  'resolve',
  'query',
  'explain',
  'getEntity',
  'getClaim',
  'claimsFor',
  'claimsByContentId',
  'listEntities',
  'pathExists',
  'findPaths',
  'traceDownstream',
  'checkInquiryMatches',
  'knowledgeHealth',
  'findGaps',
  'findBridges',
  'findConfidenceAlerts',
  'stats',
  'search',
  'searchEntities',
  'generateStructuralEmbeddings',
  'generateWeightedStructuralEmbeddings',
  ...(Object.keys(CONTEXT_READS) as (keyof ContextReads)[]).filter(
    (k): k is Exclude<keyof ContextReads, 'rawQuery'> => k !== 'rawQuery',
  ),
  ...TOPOLOGY_READS,
] as const;

/** A method for each entry of `table`, on `proto`: writable, like a class's own method, so a view may replace it. */
export function installMethods(proto: object, methods: Record<string, (...a: never[]) => unknown>): void {
  for (const [name, value] of Object.entries(methods)) {
    Object.defineProperty(proto, name, { value, writable: true, configurable: true, enumerable: false });
  }
}
