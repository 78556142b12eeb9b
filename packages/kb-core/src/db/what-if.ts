// whatIf({ retract_sources?, add_claims? }): a read-only KbView of the base with those changes applied in
// memory only; nothing reaches the log. Two ways to build it, both exact:
// - retractions only: an overlay. A view as of now (at(t)'s way of reading: visibility from the claims'
//   creation, retraction and degradation times) over the live index, with its own copies of those three time
//   columns in which the hypothetical retraction is marked. Copying three columns costs milliseconds on a
//   million claims, where a rebuild costs an open; the copies also keep later writes to the base out of the
//   view (a claim created later is past the copied column's end, so it never exists there).
// - with claims to add: a copy-on-write copy of the committed index (graph/clone.ts: typed arrays and arrays
//   block-copied, maps overlaid), then the changes go through the graph's own apply (cascade retractions, then
//   the claims as one batch): a hypothetical claim can add entities, predicates, facts and adjacency, and the
//   apply is the one place that gets duplicates, corroboration counts, cascades and derived indexes right. The
//   copy's maps read through to the base's until the base next changes, which first detaches every live copy
//   (GraphState.beforeChange); a copy nobody holds costs the base nothing. A full copy of a million-claim
//   index took about a second (bench:kb, kb-performance.md run 5), most of it in maps. The vocabulary
//   registry is shared with the base, not copied (applying claims reads it only). The search index is not copied either (it
//   holds a native vector index and a background queue): the first search on such a view rebuilds the graph
//   from the log the slow way (about an open), only then.
import { SEARCH_INDEX, type SearchIndex } from '../search/search-index.js';
import { KbNotFoundError, KbValidationError } from '../errors.js';
import { ReadContext } from '../graph/read.js';
import type { ReadSnapshot } from '../graph/snapshot.js';
import type { GraphState } from '../graph/state.js';
import { retractionSets } from '../reasoning/impact.js';
import type { ClaimInput } from '../types.js';
import { LIMITS } from '../model/validate.js';
import { type ClaimCapture, checkClaims } from './capture.js';
import { KbView, type StateRef, type ViewHost } from './view.js';
import { EventHub } from './events.js';
import { WritePath } from './write-path.js';
import { cloneIndex } from '../graph/clone.js';

export interface WhatIfChanges {
  /** Sources to retract, as retractCascade would (their dependants are degraded). */
  retract_sources?: string[];
  /** Claims to add, as one ingestBatch would (validated the same way). */
  add_claims?: ClaimInput[];
}

/** The same error with its field under `add_claims` (ingestBatch names it under `claims`). */
function underAddClaims(e: unknown): unknown {
  if (!(e instanceof KbValidationError) || e.index === undefined) return e;
  return new KbValidationError(e.code, `add_claims[${e.index}].${e.field}`, e.message.replace(/^[^:]*: /, ''));
}

export async function whatIfView(
  w: WritePath,
  capture: ClaimCapture,
  changes: unknown,
  describeStore: ViewHost['describeStore'],
  strict: boolean,
): Promise<KbView> {
  if (changes === undefined || changes === null || typeof changes !== 'object' || Array.isArray(changes))
    throw new KbValidationError('invalid_type', 'changes', 'must be an object { retract_sources?, add_claims? }');
  const { retract_sources: retract = [], add_claims: claims = [] } = changes as WhatIfChanges;
  if (!Array.isArray(retract))
    throw new KbValidationError('invalid_type', 'retract_sources', 'must be an array of source ids');
  retract.forEach((id, i) => {
    if (typeof id !== 'string' || id.trim() === '')
      throw new KbValidationError('invalid_type', `retract_sources[${i}]`, 'must be a non-empty string');
  });
  if (!Array.isArray(claims)) throw new KbValidationError('invalid_type', 'add_claims', 'must be an array of claims');
  if (claims.length > LIMITS.batch_claims)
    throw new KbValidationError('too_large', 'add_claims', `more than ${LIMITS.batch_claims} claims`);
  let run: ReturnType<ClaimCapture['capture']> | undefined;
  try {
    run = claims.length ? capture.capture(claims, true) : undefined;
  } catch (e) {
    throw underAddClaims(e);
  }
  await w.committedIndex();
  if (!run) return retractionOverlay(w.ref.current, retract, describeStore);
  // The committed index, copied (see graph/clone.ts); the base's own stays as it is. The search index stays
  // out of the copy (shared, then dropped from the copy's derived indexes), so the base's is never fed.
  const base = w.ref.current;
  const search = base.derivedIndex(SEARCH_INDEX);
  const copied = cloneIndex(base, new Set<object>([base.registry, ...(search ? [search] : [])]), {
    copyOnWrite: true,
  });
  base.addReader(copied);
  const g = copied.copy;
  if (search) g.derived.splice(g.derived.indexOf(search), 1);
  applyChanges(g, retract, run, strict);
  const view = new KbView({ current: g } as StateRef, { beforeRead: () => Promise.resolve(), describeStore }, Infinity);
  if (search) {
    // Search needs its own index, which the copy leaves out: the first search on this view rebuilds one the
    // slow way (the log replayed into a fresh graph, the changes applied), only when a caller asks.
    let rebuilt: Promise<KbView> | undefined;
    const searchView = () => {
      rebuilt ??= (async () => {
        const ref = { current: w.newGraph() } as StateRef;
        (ref.current.derivedIndex(SEARCH_INDEX) as SearchIndex | undefined)?.markHypothetical();
        await new WritePath(w.store, ref, new EventHub()).catchUp(null);
        applyChanges(ref.current, retract, run, strict);
        return new KbView(ref, { beforeRead: () => Promise.resolve(), describeStore }, Infinity);
      })();
      return rebuilt;
    };
    view.search = ((...args: Parameters<KbView['search']>) =>
      searchView().then((v) => v.search(...args))) as KbView['search'];
    view.searchEntities = ((...args: Parameters<KbView['searchEntities']>) =>
      searchView().then((v) => v.searchEntities(...args))) as KbView['searchEntities'];
  }
  return view;
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

/** The retractions-only view: see the head of this file. */
function retractionOverlay(g: GraphState, sources: string[], describeStore: ViewHost['describeStore']): KbView {
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
  return new KbView({ current: overlay as GraphState }, { beforeRead: () => Promise.resolve(), describeStore }, t);
}
