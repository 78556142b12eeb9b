// What the topology stage returns and keeps. Data is snake_case (it crosses the wire and the results file).
import type { EntitySummary } from '../types.js';

export interface ComputeTopologyOptions {
  /** Leiden's resolution γ at level 0. Default 1. */
  resolution?: number;
  /** Levels of the hierarchy, level 0 included (each coarser level at half the previous resolution). Default 3. */
  levels?: number;
  seed?: number;
  /** Level-0 topics with fewer entities join the neighbouring topic they share most facts with. Default 1 (none). */
  min_topic_size?: number;
  /**
   * Leiden iterations per level, as leidenalg's `n_iterations`: −1 (the default) iterates until an iteration moves
   * no node, which is what the reference figures use; a positive number stops after that many. leidenalg's own
   * default is 2: on large sparse graphs with weak structure it is far faster (the 100,000-entity benchmark: 2
   * iterations against 477) for a lower modularity (0.226 against 0.240 there).
   */
  n_iterations?: number;
  /**
   * Leiden runs per level (seeds `seed`, `seed + 1`, ...), keeping the partition of highest modularity. Default 3:
   * one converged run sometimes lands on a clearly worse optimum (see `leiden` in @evident/graph-algorithms).
   */
  restarts?: number;
  /**
   * Run Leiden on worker threads whatever the graph's size (below 32,768 entities it otherwise runs on the calling
   * thread), so the caller's event loop stays free; and refuse a computation (429 `busy`, `retry_after_s`) when
   * one is running and two more are waiting. What servers use. Default false.
   */
  off_thread?: boolean;
  /**
   * Recompute from scratch even when the previous result could be updated. Default false: when a previous result
   * exists, computed with the same settings, and at most `incremental_max_fraction` of the graph's entities have
   * a claim added or retracted since, level 0 is updated from the previous partition around those entities
   * (`mode: 'incremental'` in the result); otherwise Leiden runs from scratch (`mode: 'full'`).
   */
  full?: boolean;
  /** The largest share of the graph's entities changed since the previous result for an incremental update. Default 0.01. */
  incremental_max_fraction?: number;
  progress?: (stage: string, fraction: number) => void;
}

export interface TopicEntity extends EntitySummary {
  /** Degree centrality within the topic: the entity's facts inside the topic over the most any member has. */
  centrality: number;
}

export interface Topic {
  topic_id: string;
  level: number;
  parent_id: string | null;
  children: string[];
  size: number;
  label: string;
  top_entities: TopicEntity[];
  /** The topic's term of the modularity at its level's resolution (the terms sum to the level's modularity). */
  modularity_contribution: number;
}

export interface TopologyLevel {
  level: number;
  resolution: number;
  modularity: number;
  topic_count: number;
  /** Leiden iterations this level's partition took (the last one moved no node unless `n_iterations` stopped it). */
  iterations: number;
}

export interface TopologyResult {
  log_seq: number;
  computed_at: string;
  as_of: string | null;
  entity_count: number;
  edge_count: number;
  levels: TopologyLevel[];
  topics: Topic[];
  /**
   * 'full': Leiden from scratch at every level. 'incremental': level 0 updated from the previous result's partition,
   * only around the entities whose claims changed since (leidenIncremental), the coarser levels recomputed on it.
   */
  mode: 'full' | 'incremental';
  /** Why a full recompute ran ('asked for', 'no previous result to update', ...); null when incremental. */
  full_reason: string | null;
  /** Incremental: entities with a claim added or retracted since the previous result. Full: null. */
  changed_entities: number | null;
  /** Incremental: entities the update considered moving; every other entity kept its level-0 grouping. Full: null. */
  affected_entities: number | null;
}

/** Where the index stood when a result's graph was read, and the settings it was computed with. */
export interface TopologyBasis {
  /** Claims in the index (numbered in log order). */
  claim_count: number;
  /** Retractions applied (in log order). */
  retraction_count: number;
  /** The moment read (ms), null for the live base. */
  as_of: number | null;
  settings: {
    resolution: number;
    levels: number;
    seed: number;
    min_topic_size: number;
    n_iterations: number;
    restarts: number;
  };
}

/** Something about a computation the caller should know, like a claim's warnings. */
export interface EmbeddingWarning {
  /** 'dim_reduced': fewer dimensions than asked for (at most entity_count − 1). */
  code: string;
  field: string;
  message: string;
}

export interface EmbeddingResult {
  kind: 'structural' | 'weighted';
  /** The dimensions computed: `requested_dim`, or entity_count − 1 when that is smaller (see `warnings`). */
  dim: number;
  /** The dim asked for (64 by default). */
  requested_dim: number;
  entity_count: number;
  singular_values: number[];
  log_seq: number;
  computed_at: string;
  converged: boolean;
  warnings: EmbeddingWarning[];
}

/** A topology computation as kept: the result, and each level's membership over the entities it saw. */
export interface StoredTopology {
  result: TopologyResult;
  entity_ids: string[];
  memberships: Int32Array[];
  /** What an incremental update starts from; absent in results kept before issue 41 (they are recomputed in full). */
  basis?: TopologyBasis;
}

export interface StoredEmbedding {
  result: EmbeddingResult;
  entity_ids: string[];
  /** entity_count × dim, row-major: U·√Σ. */
  vectors: Float64Array;
}
