// whatIf({ retract_sources?, add_claims? }): a read-only KbView of the base with those changes applied in
// memory only; nothing reaches the log. The graph it reads is built in what-if-graph.ts (an overlay for
// retractions only, a copy-on-write copy of the index when claims are added). The search index is not copied (it
// holds a native vector index and a background queue): the first search on a copy's view rebuilds the graph from
// the log the slow way (about an open), only then.
import { SEARCH_INDEX, type SearchIndex } from '../search/search-index.js';
import type { GraphState } from '../graph/state.js';
import type { ClaimCapture } from '../write/capture.js';
import { KbView, type ViewHost } from './view.js';
import { EventHub } from '../write/events.js';
import { type StateRef, WritePath } from '../write/write-path.js';
import { whatIfGraph } from '../write/what-if-graph.js';

export async function whatIfView(
  w: WritePath,
  capture: ClaimCapture,
  changes: unknown,
  describeStore: ViewHost['describeStore'],
  strict: boolean,
): Promise<KbView> {
  const g = await whatIfGraph(w, capture, changes, strict, SEARCH_INDEX);
  const host: ViewHost = { beforeRead: () => Promise.resolve(), describeStore, hypothetical: true };
  const view = new KbView({ current: g.snapshot as GraphState }, host, g.asOf);
  const applyTo = g.applyTo;
  if (g.leftOut && applyTo) {
    // Search needs its own index, which the copy leaves out: the first search on this view rebuilds one the
    // slow way (the log replayed into a fresh graph, the changes applied), only when a caller asks.
    let rebuilt: Promise<KbView> | undefined;
    const searchView = () => {
      rebuilt ??= (async () => {
        const ref = { current: w.newGraph() } as StateRef;
        (ref.current.derivedIndex(SEARCH_INDEX) as SearchIndex | undefined)?.markHypothetical();
        await new WritePath(w.store, ref, new EventHub()).catchUp(null);
        applyTo(ref.current);
        return new KbView(ref, host, Infinity);
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
