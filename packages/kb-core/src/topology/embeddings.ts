// Structural embeddings: the truncated SVD of the symmetric entity adjacency matrix (counts of distinct active
// facts, or their summed confidences), vectors U·√Σ per entity; cosine neighbours over them.
import { type CsrGraph, randomizedSvd } from '@evident/graph-algorithms';
import { KbNotFoundError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';
import { entityGraph } from './entity-graph.js';
import type { EmbeddingWarning, StoredEmbedding } from './types.js';

/**
 * The dimension used for `requested` on a graph of n entities: at most n − 1, as scipy's svds takes k < n, and
 * at least 1 once there is an entity. A default of 64 must work on a base of 11 entities, and an application
 * that asks for 64 by name must keep working while its base is still small, so a larger dim is reduced (and the
 * result says so) rather than refused.
 */
export function embeddingDim(requested: number, n: number): { dim: number; warnings: EmbeddingWarning[] } {
  const dim = Math.min(requested, Math.max(1, n - 1), n);
  if (dim === requested) return { dim, warnings: [] };
  const message =
    n === 0
      ? `dim ${requested} reduced to 0: the graph has no entities`
      : n === 1
        ? `dim ${requested} reduced to 1: the graph has 1 entity`
        : `dim ${requested} reduced to ${dim}: the graph has ${n} entities, and at most n − 1 dimensions are computed`;
  return { dim, warnings: [{ code: 'dim_reduced', field: 'dim', message }] };
}

/** The SVD an embedding runs: randomizedSvd here, or on a worker thread (offload/svd.ts). */
export type EmbeddingSvd = (
  csr: CsrGraph,
  dim: number,
  seed: number,
  progress?: (fraction: number) => void,
) => { values: Float64Array; vectors: Float64Array; converged: boolean };

const svdHere: EmbeddingSvd = (csr, dim, seed, progress) =>
  randomizedSvd(csr, dim, { seed, trusted: true, hooks: progress ? { progress: (_, f) => progress(f) } : undefined });

export function generateEmbeddings(
  rc: ReadContext,
  kind: 'structural' | 'weighted',
  requested: number,
  seed: number,
  logSeq: number,
  progress?: (stage: string, fraction: number) => void,
): StoredEmbedding {
  const prepared = prepareEmbeddings(rc, kind, requested, logSeq);
  if (prepared.n === 0) return prepared.finish(undefined);
  return prepared.finish(svdHere(prepared.csr, prepared.dim, seed, progress && ((f) => progress('embeddings', f))));
}

/**
 * An embedding in two steps: the graph read from the index (synchronous, one go), then `finish` with the SVD's
 * answer (undefined for an empty graph), which may come from another thread in between.
 */
export function prepareEmbeddings(
  rc: ReadContext,
  kind: 'structural' | 'weighted',
  requested: number,
  logSeq: number,
): {
  n: number;
  dim: number;
  csr: CsrGraph;
  finish(svd: ReturnType<EmbeddingSvd> | undefined): StoredEmbedding;
} {
  const graph = entityGraph(rc, kind === 'weighted');
  const n = graph.csr.n;
  const entity_ids = Array.from(graph.entities, (e) => rc.s.entityIds[e]!);
  const { dim, warnings } = embeddingDim(requested, n);
  const base = {
    kind,
    dim,
    requested_dim: requested,
    entity_count: n,
    log_seq: logSeq,
    computed_at: new Date().toISOString(),
    warnings,
  };
  const finish = (svd: ReturnType<EmbeddingSvd> | undefined): StoredEmbedding => {
    if (svd === undefined)
      return { result: { ...base, singular_values: [], converged: true }, entity_ids, vectors: new Float64Array(0) };
    const vectors = svd.vectors;
    const scale = Float64Array.from(svd.values, Math.sqrt);
    for (let i = 0; i < n; i++) for (let j = 0; j < dim; j++) vectors[i * dim + j]! *= scale[j]!;
    return {
      result: { ...base, singular_values: Array.from(svd.values), converged: svd.converged },
      entity_ids,
      vectors,
    };
  };
  return { n, dim, csr: graph.csr, finish };
}

export function embeddingRow(stored: StoredEmbedding, id: string): number {
  const row = stored.entity_ids.indexOf(id);
  if (row < 0) throw new KbNotFoundError('entity embedding', id);
  return row;
}

export function similarEntities(
  rc: ReadContext,
  stored: StoredEmbedding,
  id: string,
  k: number,
): { entity: EntitySummary; similarity: number }[] {
  const dim = stored.result.dim;
  const row = embeddingRow(stored, id);
  const v = stored.vectors;
  const norm = (r: number) => {
    let s = 0;
    for (let j = 0; j < dim; j++) s += v[r * dim + j]! ** 2;
    return Math.sqrt(s);
  };
  const n0 = norm(row);
  const scored: { r: number; sim: number }[] = [];
  for (let r = 0; r < stored.entity_ids.length; r++) {
    if (r === row) continue;
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += v[row * dim + j]! * v[r * dim + j]!;
    const d = n0 * norm(r);
    scored.push({ r, sim: d === 0 ? 0 : dot / d });
  }
  scored.sort((a, b) => b.sim - a.sim);
  const out: { entity: EntitySummary; similarity: number }[] = [];
  for (const { r, sim } of scored) {
    if (out.length >= k) break;
    const e = rc.s.entityIndex.get(stored.entity_ids[r]!);
    if (e === undefined || rc.entityClaimCount(e) === 0) continue;
    out.push({ entity: rc.summary(e), similarity: sim });
  }
  return out;
}
