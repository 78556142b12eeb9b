// findBridges: link prediction between entities that share neighbours but are not linked, scored by the
// Adamic-Adar index (sum over common neighbours z of 1 / ln(degree(z))). The predicate suggested is the one
// most often seen between the two entities' types.
import type { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';

/** Neighbours with more links than this are skipped as intermediates (hubs say little and cost a lot). */
const MAX_HUB_DEGREE = 200;
const MAX_PAIRS = 2_000_000;

export interface Bridge {
  source: EntitySummary;
  target: EntitySummary;
  score: number;
  suggested_predicate: string | null;
  shared_neighbours: string[];
  reason: string;
}

export function findBridges(rc: ReadContext, topK: number): Bridge[] {
  const s = rc.s;
  const nE = s.entityIds.length;
  const neigh: (number[] | undefined)[] = new Array(nE);
  const neighbourSet = (e: number): number[] => {
    let l = neigh[e];
    if (l) return l;
    const set = new Set<number>();
    for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
      if (!rc.factHasLive(f)) continue;
      const v = s.factS[f] === e ? s.factO[f]! : s.factS[f]!;
      if (v !== e) set.add(v);
    }
    l = [...set];
    neigh[e] = l;
    return l;
  };
  const pairs = new Map<number, number>();
  const via = new Map<number, number[]>();
  outer: for (let z = 0; z < nE; z++) {
    const ns = neighbourSet(z);
    const d = ns.length;
    if (d < 2 || d > MAX_HUB_DEGREE) continue;
    const w = 1 / Math.log(d);
    for (let i = 0; i < d; i++) {
      for (let j = i + 1; j < d; j++) {
        const a = Math.min(ns[i]!, ns[j]!);
        const b = Math.max(ns[i]!, ns[j]!);
        const key = a * nE + b;
        pairs.set(key, (pairs.get(key) ?? 0) + w);
        const v = via.get(key);
        if (!v) via.set(key, [z]);
        else if (v.length < 5) v.push(z);
        if (pairs.size >= MAX_PAIRS) break outer;
      }
    }
  }
  // Predicate most often seen between two types, for the suggestion.
  const typePred = new Map<string, Map<number, number>>();
  const suggest = (ta: string, tb: string): string | null => {
    const key = `${ta}\u0000${tb}`;
    let m = typePred.get(key);
    if (!m) {
      m = new Map();
      for (let f = 0; f < s.factCount; f++) {
        const st = s.entityType[s.factS[f]!];
        const ot = s.entityType[s.factO[f]!];
        if (((st === ta && ot === tb) || (st === tb && ot === ta)) && rc.factHasLive(f))
          m.set(s.factP[f]!, (m.get(s.factP[f]!) ?? 0) + 1);
      }
      typePred.set(key, m);
    }
    let best: number | null = null;
    let bestN = 0;
    for (const [p, n] of m) if (n > bestN) [best, bestN] = [p, n];
    return best === null ? null : s.predName[best]!;
  };
  const ranked = [...pairs].filter(([key]) => {
    const a = Math.floor(key / nE);
    const b = key % nE;
    return !neighbourSet(a).includes(b) && !rc.sameTarget(a, b);
  });
  ranked.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  return ranked.slice(0, topK).map(([key, score]) => {
    const a = Math.floor(key / nE);
    const b = key % nE;
    const shared = (via.get(key) ?? []).map((z) => s.entityName[z]!);
    const common = neighbourSet(a).filter((z) => neighbourSet(b).includes(z)).length;
    return {
      source: rc.summary(a),
      target: rc.summary(b),
      score,
      suggested_predicate: suggest(s.entityType[a]!, s.entityType[b]!),
      shared_neighbours: shared,
      reason: `not linked, but share ${common} neighbour${common === 1 ? '' : 's'} (${shared.slice(0, 3).join(', ')}${common > 3 ? ', ...' : ''}); Adamic-Adar ${score.toFixed(3)}`,
    };
  });
}
