// search and searchEntities over a read context: lexical (BM25), semantic (the base's embedder and the ANN
// index) and hybrid (both, fused by reciprocal rank fusion; see fuse.ts). Visibility is checked here, at query
// time, per claim: a retracted or degraded claim leaves the results at once, and an at(t) view sees the
// claims of its moment, whatever the index holds.
import type { ReadContext } from '../graph/read.js';
import { normalizeToken } from '../model/normalize.js';
import type { Claim, EntitySummary } from '../types.js';
import { topDocs } from './bm25-top.js';
import { reciprocalRankFusion } from './fuse.js';
import type { SearchIndex } from './search-index.js';
import { tokenize } from '../model/tokenize.js';

// Deliberate likeness: a literal union and its list, alike in shape only to jobs-to-kb's ConditionType.
export type SearchMode = 'semantic' | 'lexical' | 'hybrid';
export const SEARCH_MODES: readonly SearchMode[] = ['semantic', 'lexical', 'hybrid'];

export interface SearchFilters {
  entity_type?: string;
  predicate?: string;
  source_type?: string;
  min_confidence?: number;
}

export interface SearchSignals {
  /** Cosine similarity of the query and the claim's text (null: not among the nearest, or embedding off). */
  semantic: number | null;
  /** BM25 score (null: no query word in the claim's text). */
  lexical: number | null;
  /** 1 when the claim's subject or object is an entity the query names, else 0. */
  graph: number;
}

export interface SearchHit {
  claim: Claim;
  score: number;
  signals: SearchSignals;
}

export interface SearchAnswer {
  results: SearchHit[];
  mode: SearchMode;
  /** Facts and entities not embedded yet (their claims can still be found lexically). */
  pending: number;
}

export interface EntityHit {
  entity: EntitySummary;
  score: number;
  signals: { semantic: number | null; lexical: number | null };
}

export interface EntitySearchAnswer {
  results: EntityHit[];
  mode: SearchMode;
  pending: number;
}

/** Entities the query names: each run of up to 4 words that resolves to an entity. */
function namedEntities(rc: ReadContext, query: string): Set<number> {
  const words = query.split(/[\s,;?!()]+/).filter((w) => w.length > 0);
  const out = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(4, words.length - i); n >= 1; n--) {
      const phrase = words.slice(i, i + n).join(' ');
      if (n === 1 && phrase.length < 2) continue;
      const e = rc.lookupEntity(phrase);
      if (e >= 0) {
        out.add(e);
        break;
      }
    }
  }
  return out;
}

/** The claim a fact answers with: its most confident live claim passing the filters, or -1. */
function claimOfFact(rc: ReadContext, f: number, filters: CompiledFilters): number {
  const s = rc.s;
  if (filters.predicate !== undefined && s.predName[s.factP[f]!] !== filters.predicate) return -1;
  if (
    filters.entityType !== undefined &&
    !rc.hasType(s.factS[f]!, filters.entityType) &&
    !rc.hasType(s.factO[f]!, filters.entityType)
  )
    return -1;
  let best = -1;
  for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) {
    if (!rc.isLive(c)) continue;
    if (filters.sourceType !== undefined && s.sourceTypeName[s.claimSourceType[c]!] !== filters.sourceType) continue;
    if (s.claimConf[c]! < filters.minConfidence) continue;
    if (best < 0 || s.claimConf[c]! > s.claimConf[best]!) best = c;
  }
  return best;
}

/** Whether fact f has a claim to answer with (remembered in claimOf). */
function acceptFact(rc: ReadContext, f: number, filters: CompiledFilters, claimOf: Map<number, number>): boolean {
  const c = claimOfFact(rc, f, filters);
  if (c < 0) return false;
  claimOf.set(f, c);
  return true;
}

interface CompiledFilters {
  entityType?: string;
  predicate?: string;
  sourceType?: string;
  minConfidence: number;
}

function compile(f: SearchFilters): CompiledFilters {
  const out: CompiledFilters = { minConfidence: f.min_confidence ?? -Infinity };
  if (f.entity_type !== undefined) out.entityType = normalizeToken(f.entity_type);
  if (f.predicate !== undefined) out.predicate = normalizeToken(f.predicate);
  if (f.source_type !== undefined) out.sourceType = normalizeToken(f.source_type);
  return out;
}

/**
 * Ranked facts (with their claim) from scored candidates: best first, keeping those with a claim passing
 * the filters, up to `limit`.
 */
function rankFacts(
  rc: ReadContext,
  scored: Iterable<[number, number]>,
  filters: CompiledFilters,
  limit: number,
  claimOf: Map<number, number>,
): number[] {
  const sorted = [...scored].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const out: number[] = [];
  for (const [f] of sorted) {
    if (out.length >= limit) break;
    const c = claimOfFact(rc, f, filters);
    if (c < 0) continue;
    claimOf.set(f, c);
    out.push(f);
  }
  return out;
}

/** How many candidates each list contributes before fusion. */
function depth(k: number): number {
  return Math.max(50, k * 3);
}

/** The query's vector when the mode reads vectors and the base has them (a provider may be called). */
export function queryVector(index: SearchIndex, query: string, mode: SearchMode): Promise<Float32Array | undefined> {
  const q = index.embeddings;
  return mode !== 'lexical' && q !== null ? q.embedQuery(query) : Promise.resolve(undefined);
}

/** Synchronous once the query's vector is known (queryVector), so that it runs in one turn (stage.ts). */
export function searchClaims(
  rc: ReadContext,
  index: SearchIndex,
  query: string,
  k: number,
  mode: SearchMode,
  filters: SearchFilters,
  v: Float32Array | undefined,
): SearchAnswer {
  const f = compile(filters);
  const claimOf = new Map<number, number>();
  const q = index.embeddings;
  const useSemantic = mode !== 'lexical' && q !== null && v !== undefined;
  const useLexical = mode !== 'semantic';
  const n = depth(k);
  const tokens = tokenize(query);
  // The n best facts with a claim passing the filters (the top-k walk asks only of those that would enter).
  const lexTop = useLexical ? topDocs(index.facts, tokens, n, (d) => acceptFact(rc, d, f, claimOf)) : [];
  const lexical = lexTop.map(([d]) => d);
  const simOf = new Map<number, number>();
  let semantic: number[] = [];
  if (useSemantic) {
    // Over-fetch: the ANN index holds every fact, the filters and visibility apply after.
    for (let want = n * 2; ; want *= 4) {
      const near = q.facts.vectors.nearest(v, want);
      for (const h of near) simOf.set(h.key, h.similarity);
      semantic = rankFacts(rc, simOf, f, n, claimOf);
      if (semantic.length >= n || near.length < want) break;
    }
  }
  const named = mode === 'hybrid' ? namedEntities(rc, query) : new Set<number>();
  const touches = (fact: number) => named.has(rc.s.factS[fact]!) || named.has(rc.s.factO[fact]!);
  let ranked: [number, number][];
  if (mode === 'lexical') ranked = lexTop;
  else if (mode === 'semantic' || !useLexical) ranked = semantic.map((d) => [d, simOf.get(d)!]);
  else {
    // The graph list: fused candidates that touch an entity the query names, in the order of the others.
    const base = reciprocalRankFusion([lexical, semantic]);
    const graph = [...base.entries()]
      .filter(([d]) => touches(d))
      .sort((a, b) => b[1] - a[1])
      .map(([d]) => d);
    ranked = [...reciprocalRankFusion([lexical, semantic, graph]).entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  }
  const shown = ranked.slice(0, k);
  // Lexical signal of every hit, also of those only the semantic list brought.
  const lexScores = useLexical
    ? index.facts.scoreDocs(
        tokens,
        shown.map(([d]) => d),
      )
    : new Map<number, number>();
  const results: SearchHit[] = shown.map(([d, score]) => ({
    claim: rc.toClaim(claimOf.get(d)!),
    score,
    signals: { semantic: simOf.get(d) ?? null, lexical: lexScores.get(d) ?? null, graph: touches(d) ? 1 : 0 },
  }));
  return { results, mode: q === null && mode !== 'lexical' ? 'lexical' : mode, pending: q?.status().pending ?? 0 };
}

/** Synchronous once the query's vector is known, as searchClaims. */
export function searchEntities(
  rc: ReadContext,
  index: SearchIndex,
  query: string,
  k: number,
  mode: SearchMode,
  entityType: string | undefined,
  v: Float32Array | undefined,
): EntitySearchAnswer {
  const type = entityType === undefined ? undefined : normalizeToken(entityType);
  const ok = (e: number) => (type === undefined || rc.hasType(e, type)) && rc.entityClaimCount(e) > 0;
  const rank = (scores: Map<number, number>, limit: number) =>
    [...scores.entries()]
      .filter(([e]) => ok(e))
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([e]) => e);
  const n = depth(k);
  const q = index.embeddings;
  const tokens = tokenize(query);
  const lexTop = mode === 'semantic' ? [] : topDocs(index.entities, tokens, n, ok);
  const lexical = lexTop.map(([e]) => e);
  const simOf = new Map<number, number>();
  let semantic: number[] = [];
  if (mode !== 'lexical' && q !== null && v !== undefined) {
    for (let want = n * 2; ; want *= 4) {
      const near = q.entities.vectors.nearest(v, want);
      for (const h of near) simOf.set(h.key, h.similarity);
      semantic = rank(simOf, n);
      if (semantic.length >= n || near.length < want) break;
    }
  }
  const ranked: [number, number][] =
    mode === 'lexical' || q === null
      ? lexTop
      : mode === 'semantic'
        ? semantic.map((e) => [e, simOf.get(e)!])
        : [...reciprocalRankFusion([lexical, semantic]).entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const shown = ranked.slice(0, k);
  const lexScores =
    mode === 'semantic'
      ? new Map<number, number>()
      : index.entities.scoreDocs(
          tokens,
          shown.map(([e]) => e),
        );
  return {
    results: shown.map(([e, score]) => ({
      entity: rc.summary(e),
      score,
      signals: { semantic: simOf.get(e) ?? null, lexical: lexScores.get(e) ?? null },
    })),
    mode: q === null && mode !== 'lexical' ? 'lexical' : mode,
    pending: q?.status().pending ?? 0,
  };
}
