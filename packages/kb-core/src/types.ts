// Public data shapes. Fields that cross a wire or a file stay snake_case (the same over MCP and REST).
/**
 * Something a stored claim breaks of the registered vocabularies (non-strict bases store it anyway), or a note
 * on its source.
 */
export interface ClaimWarning {
  /** 'predicate_class', 'type_constraint', 'unknown_type' (and, from ingest, 'source_was_retracted'). */
  code: string;
  /** The claim's field, as a validation error would name it ('predicate[1]', 'subject[1]', ...). */
  field: string;
  message: string;
}

export interface Provenance {
  source_type: string;
  source_id: string;
  /** Claim ids this claim was derived from; retractCascade degrades this claim when any of them is retracted. */
  derived_from?: string[];
  [key: string]: unknown;
}

export interface ClaimInput {
  subject: [name: string, type: string];
  predicate: [relationship: string, predicate_class: string];
  object: [name: string, type: string];
  provenance: Provenance;
  /** 0..1, default 1. */
  confidence?: number;
  payload?: unknown;
}

export type ClaimStatus = 'active' | 'retracted' | 'degraded';

export interface Claim {
  claim_id: string;
  content_id: string;
  subject: [string, string];
  predicate: [string, string];
  object: [string, string];
  subject_id: string;
  object_id: string;
  provenance: Provenance;
  confidence: number;
  payload?: unknown;
  status: ClaimStatus;
  /** What the claim breaks of the vocabularies registered now (absent when nothing). */
  warnings?: ClaimWarning[];
  /** ISO 8601 UTC. */
  created_at: string;
}

export interface EntitySummary {
  id: string;
  name: string;
  type: string;
  claim_count: number;
}

export interface Entity extends EntitySummary {
  /** Other names this entity was written as in claims (normalised to the same id). */
  aliases: string[];
  /**
   * The types it was stated with: its own (`type`, the one its id has) first, then types unified with it
   * (`bio`: a gene symbol stated as a protein too is one entity).
   */
  types: string[];
  source_count: number;
  predicates: Record<string, number>;
}

export type Direction = 'outgoing' | 'incoming';

export interface Relationship {
  predicate: string;
  predicate_class: string;
  target: EntitySummary;
  /** Combined confidence of the fact: noisy-OR over its distinct sources (each source's best claim). */
  confidence: number;
  direction: Direction;
  claim_ids: string[];
  content_id: string;
  source_count: number;
}

export interface ReachedEntity extends EntitySummary {
  /** Hops from the focal entity (1..depth). */
  distance: number;
  /** Entity id one hop closer to the focal entity on a shortest path. */
  via: string;
}

export interface QueryFrame {
  focal_entity: EntitySummary;
  /** Active claims that mention the focal entity. */
  claim_count: number;
  direct_relationships: Relationship[];
  depth: number;
  /** Entities reached within `depth` hops (excluding the focal entity), nearest first. */
  entities: ReachedEntity[];
  narrative: string;
}

export interface ExplainFrame extends QueryFrame {
  timing: { resolve_ms: number; direct_ms: number; expand_ms: number; narrative_ms: number; total_ms: number };
  candidates: { facts_examined: number; claims_examined: number; entities_examined: number };
}

export interface PathEdge {
  from: string;
  to: string;
  predicate: string;
  direction: Direction;
  claim_ids: string[];
  confidence: number;
}

export interface Path {
  entities: string[];
  edges: PathEdge[];
  /** Product of the edges' confidences (a longer path, or a weaker link, scores lower). */
  score: number;
}

export interface Inquiry {
  inquiry_id: string;
  question: string;
  subject: string;
  object: string;
  predicate_hint: string;
  /** Given when the inquiry named the subject as `[name, type]`: only an entity of that type answers it. */
  subject_type?: string;
  object_type?: string;
  status: 'open' | 'matched';
  created_at: string;
  subject_id: string;
  object_id: string;
  /** Claims that answered it (empty while open). */
  answer_claim_ids: string[];
  matched_at?: string;
}

/** A warning of one claim of a batch, at its position in the input. */
export interface BatchClaimWarning extends ClaimWarning {
  index: number;
}

export interface IngestBatchResult {
  ingested: number;
  duplicates: number;
  /** One entry per input claim: the new claim id, or the id of the stored claim it duplicates. */
  claim_ids: string[];
  /**
   * Per claim that has any, by input position: what it breaks of the registered vocabularies (stored anyway
   * on a non-strict base) and `source_was_retracted`. Empty when none.
   */
  warnings: BatchClaimWarning[];
}

/** What ingestDetailed returns: ingest's claim id, whether it was a duplicate, and the claim's warnings. */
export interface IngestOneResult {
  claim_id: string;
  duplicate: boolean;
  warnings: ClaimWarning[];
}

export interface KbEvents {
  claim_ingested: { claim_id: string; claim_input: ClaimInput };
  claim_corroborated: { content_id: string; count: number; claim_id: string };
  source_retracted: { source_id: string; reason: string; claim_ids: string[]; degraded_claim_ids: string[] };
  inquiry_matched: { inquiry_id: string; claim_id: string };
  /** A claim was stored with warnings (non-strict vocabulary violations, a source retracted before). */
  claim_warnings: { claim_id: string; warnings: ClaimWarning[] };
}
export type KbEventName = keyof KbEvents;
