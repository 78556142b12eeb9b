// The graph a what-if reads (facade/what-if.ts makes a KbView of it): the base with sources retracted and claims added
// in memory only; nothing reaches the log. Two ways to build it, both exact:
// - retractions only: an overlay. A view as of now (at(t)'s way of reading: visibility from the claims'
//   creation, retraction and degradation times) over the live index, with its own copies of those three time
//   columns in which the hypothetical retraction is marked. Copying three columns costs milliseconds on a
//   million claims, where a rebuild costs an open; the copies also keep later writes to the base out of the
//   view (a claim created later is past the copied column's end, so it never exists there).
// - with claims to add: a copy-on-write copy of the committed index (graph/clone.ts), then the changes go through
//   the graph's own apply (cascade retractions, then the claims as one batch): a hypothetical claim can add
//   entities, predicates, facts and adjacency, and the apply is the one place that gets duplicates,
//   corroboration counts, cascades and derived indexes right. The copy's maps read through to the base's
//   (overlay-map.ts) and so do its typed-array columns (cow-array.ts): a row the apply writes goes to a page of
//   the copy's own, so adding a claim copies a few pages, not the columns (a full copy of a million-claim index
//   took about half a second, most of it copying columns and collecting them). A column a reader scans whole
//   becomes the copy's own array on the way. The copy reads through until the base next changes, which first
//   detaches every live copy (GraphState.beforeChange); a copy nobody holds costs the base nothing. The
//   vocabulary registry is shared with the base, not copied (applying claims reads it only). A derived index
//   the caller names (the search index: it holds a native vector index and a background queue) is left out.
// This module imports no view and no search index, so the replica thread (src/offload) loads it: usearch, the
// vector index's native module, does not load on a worker thread.
import { KbNotFoundError, KbValidationError } from '../errors.js';
import { knowledgeHealth } from '../analytics/health.js';
import { indexStats } from '../analytics/stats.js';
import { cloneIndex } from '../graph/clone.js';
import { ReadContext } from '../graph/read.js';
import type { ReadSnapshot } from '../graph/snapshot.js';
import type { GraphState } from '../graph/state.js';
import { LIMITS } from '../model/validate.js';
import { retractionSets } from '../reasoning/impact.js';
import { type HypothesisTest, testHypothesis } from '../reasoning/hypothesis.js';
import type { ClaimInput } from '../types.js';
import { type ClaimCapture, checkClaims } from './capture.js';
import type { WritePath } from './write-path.js';

export interface WhatIfChanges {
  /** Sources to retract, as retractCascade would (their dependants are degraded). */
  retract_sources?: string[];
  /** Claims to add, as one ingestBatch would (validated the same way). */
  add_claims?: ClaimInput[];
}

/**
 * The most a what-if takes: as many claims as one ingestBatch, and at most 10,000 sources (each is a cascade
 * over its claims and what derives from them). Past either, 400 `too_large` naming the field.
 */
export const WHAT_IF_LIMITS = { add_claims: LIMITS.batch_claims, retract_sources: 10_000 } as const;

/** A statement whatIfSummary tests on the changed base. */
export interface WhatIfHypothesis {
  subject: string;
  predicate: string;
  object: string;
}

/** whatIfSummary's input: the changes, and optionally a statement to test after them. */
export interface WhatIfSummaryInput extends WhatIfChanges {
  hypothesis?: WhatIfHypothesis;
}

/** Counts and health of one side of a what-if. */
export interface WhatIfSide {
  claim_count: number;
  entity_count: number;
  health_score: number;
}

/** What the base is before and after the changes (in memory only), and the hypothesis tested after them. */
export interface WhatIfSummary {
  before: WhatIfSide;
  after: WhatIfSide;
  hypothesis?: HypothesisTest;
}

/** The what-if's graph, the moment it is read as of, and (for a copy) how to make the same changes elsewhere. */
export interface WhatIfGraph {
  snapshot: ReadSnapshot;
  asOf: number;
  /** The changes applied to another graph (a copy's search view replays the log into one); copies only. */
  applyTo?: (g: GraphState) => void;
  /** Whether the derived index named to leave out was left out of the copy. */
  leftOut: boolean;
}

/** The same error with its field under `add_claims` (ingestBatch names it under `claims`). */
function underAddClaims(e: unknown): unknown {
  if (!(e instanceof KbValidationError) || e.index === undefined) return e;
  return new KbValidationError(e.code, `add_claims[${e.index}].${e.field}`, e.message.replace(/^[^:]*: /, ''));
}

/** The changes checked and the claims captured; then the graph, built after the index holds only commits. */
export async function whatIfGraph(
  w: WritePath,
  capture: ClaimCapture,
  changes: unknown,
  strict: boolean,
  /** A derived index the copy leaves out (the base's search index), by name. */
  leaveOut: string | undefined,
): Promise<WhatIfGraph> {
  if (changes === undefined || changes === null || typeof changes !== 'object' || Array.isArray(changes))
    throw new KbValidationError('invalid_type', 'changes', 'must be an object { retract_sources?, add_claims? }');
  const { retract_sources: retract = [], add_claims: claims = [] } = changes as WhatIfChanges;
  if (!Array.isArray(retract))
    throw new KbValidationError('invalid_type', 'retract_sources', 'must be an array of source ids');
  if (retract.length > WHAT_IF_LIMITS.retract_sources)
    throw new KbValidationError('too_large', 'retract_sources', `more than ${WHAT_IF_LIMITS.retract_sources} sources`);
  retract.forEach((id, i) => {
    if (typeof id !== 'string' || id.trim() === '')
      throw new KbValidationError('invalid_type', `retract_sources[${i}]`, 'must be a non-empty string');
  });
  if (!Array.isArray(claims)) throw new KbValidationError('invalid_type', 'add_claims', 'must be an array of claims');
  if (claims.length > WHAT_IF_LIMITS.add_claims)
    throw new KbValidationError('too_large', 'add_claims', `more than ${WHAT_IF_LIMITS.add_claims} claims`);
  let run: ReturnType<ClaimCapture['capture']> | undefined;
  try {
    run = claims.length ? capture.capture(claims, true) : undefined;
  } catch (e) {
    throw underAddClaims(e);
  }
  await w.committedIndex();
  if (!run) return { ...retractionOverlay(w.ref.current, retract), leftOut: false };
  // The committed index, copied (see graph/clone.ts); the base's own stays as it is. The left-out index is shared,
  // then dropped from the copy's derived indexes, so the base's is never fed.
  const base = w.ref.current;
  const left = leaveOut === undefined ? undefined : base.derivedIndex(leaveOut);
  const copied = cloneIndex(base, new Set<object>([base.registry, ...(left ? [left] : [])]), { copyOnWrite: true });
  base.addReader(copied);
  const g = copied.copy;
  if (left) g.derived.splice(g.derived.indexOf(left), 1);
  const captured = run;
  const applyTo = (target: GraphState) => applyChanges(target, retract, captured, strict);
  applyTo(g);
  return { snapshot: g, asOf: Infinity, applyTo, leftOut: left !== undefined };
}

/** The hypothetical changes on a graph of the view's own: cascade retractions, then the claims as one batch. */
function applyChanges(
  g: GraphState,
  retract: string[],
  run: ReturnType<ClaimCapture['capture']>,
  strict: boolean,
): void {
  const ts = Math.max(Date.now(), g.lastTs);
  retract.forEach((id) => {
    if (!g.sourceIndex.has(id)) throw new KbNotFoundError('source', id);
    g.applyRetract({ kind: 'retract', source_id: id, reason: 'what-if', cascade: true }, ts, null);
  });
  try {
    // The base's own validation mode: a strict base refuses what ingest would refuse.
    checkClaims(g, run, true, strict);
  } catch (e) {
    throw underAddClaims(e);
  }
  g.applyRun(run, ts, null, null, true);
}

type Retraction = ReadSnapshot['retractions'][number];

/** The retractions-only graph: see the head of this file. */
function retractionOverlay(g: GraphState, sources: string[]): { snapshot: ReadSnapshot; asOf: number } {
  const n = g.claimCount;
  const t = Math.max(Date.now(), g.lastTs);
  const claimTs = g.claimTs.slice(0, n);
  const retractTs = g.claimRetractTs.slice(0, n);
  const degradeTs = g.claimDegradeTs.slice(0, n);
  const retractions: Retraction[] = [...g.retractions];
  // Own properties shadow the graph's getters; everything else (entities, facts, claim data) is the live
  // index's, read through the copied times.
  const overlay: ReadSnapshot = Object.create(g, {
    claimCount: { value: n },
    factCount: { value: g.factCount },
    claimTs: { value: claimTs },
    claimRetractTs: { value: retractTs },
    claimDegradeTs: { value: degradeTs },
    retractions: { value: retractions },
  });
  for (const id of sources) {
    // Each source is computed on the overlay as left by the ones before, as successive retractions would be.
    const { retracted, degraded } = retractionSets(new ReadContext(overlay, t), id, true);
    for (const c of retracted) retractTs[c] = t;
    for (const c of degraded) degradeTs[c] = t;
    retractions.push({ ts: t, source_id: id, reason: 'what-if', cascade: true, retracted, degraded });
  }
  return { snapshot: overlay, asOf: t };
}

/** The hypothesis of whatIfSummary's input, checked before anything is computed; undefined when absent. */
export function checkHypothesis(input: unknown): WhatIfHypothesis | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new KbValidationError(
      'invalid_type',
      'changes',
      'must be an object { retract_sources?, add_claims?, hypothesis? }',
    );
  const h = (input as WhatIfSummaryInput).hypothesis;
  if (h === undefined) return undefined;
  if (h === null || typeof h !== 'object' || Array.isArray(h))
    throw new KbValidationError('invalid_type', 'hypothesis', 'must be an object { subject, predicate, object }');
  for (const k of ['subject', 'predicate', 'object'] as const) {
    if (typeof h[k] !== 'string' || h[k].trim() === '')
      throw new KbValidationError('invalid_type', `hypothesis.${k}`, 'must be a non-empty string');
  }
  return { subject: h.subject, predicate: h.predicate, object: h.object };
}

/** The changes of whatIfSummary's input, without its hypothesis. */
export function changesOf(input: WhatIfSummaryInput): WhatIfChanges {
  const { hypothesis: _, ...changes } = input;
  return changes;
}

/**
 * Counts and health of the base's committed index (`base`) and of the what-if's graph, and the hypothesis tested
 * on the latter; read in one go, as reads must (no await between the index being committed and the counts).
 */
export async function whatIfSummaryOf(
  w: WritePath,
  capture: ClaimCapture,
  input: WhatIfSummaryInput,
  strict: boolean,
  leaveOut: string | undefined,
): Promise<WhatIfSummary> {
  const hypothesis = checkHypothesis(input);
  const g = await whatIfGraph(w, capture, changesOf(input), strict, leaveOut);
  await w.committedIndex();
  const now = Date.now();
  const before = new ReadContext(w.ref.current, Infinity);
  const after = new ReadContext(g.snapshot, g.asOf);
  const side = (rc: ReadContext, at: number): WhatIfSide => {
    const st = indexStats(rc, {});
    return { claim_count: st.claim_count, entity_count: st.entity_count, health_score: knowledgeHealth(rc, at).score };
  };
  const out: WhatIfSummary = {
    before: side(before, now),
    after: side(after, g.asOf === Infinity ? now : g.asOf),
  };
  if (hypothesis) out.hypothesis = testHypothesis(after, hypothesis.subject, hypothesis.predicate, hypothesis.object);
  return out;
}
