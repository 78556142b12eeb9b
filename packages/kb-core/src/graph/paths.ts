// Paths between two entities over active facts, in either direction. findPaths first measures the
// distance of every nearby entity to the target (BFS from it), then enumerates simple paths from the
// source that can still reach the target in the hops left, which keeps hubs from exploding the search.
import type { Path, PathEdge } from '../types.js';
import type { ReadContext } from './read.js';

const MAX_PATHS_EXAMINED = 100_000;

function neighbours(rc: ReadContext, u: number, visit: (v: number, f: number) => void): void {
  const s = rc.s;
  for (let f = s.firstFact(u); f >= 0; f = s.nextFact(f, u)) {
    if (!rc.factHasLive(f)) continue;
    visit(s.factS[f] === u ? s.factO[f]! : s.factS[f]!, f);
  }
}

/** Hop distance from `from` to every entity within maxDepth. */
function distances(rc: ReadContext, from: number, maxDepth: number): Map<number, number> {
  const dist = new Map<number, number>([[from, 0]]);
  let frontier = [from];
  for (let d = 1; d <= maxDepth && frontier.length; d++) {
    const next: number[] = [];
    for (const u of frontier) {
      neighbours(rc, u, (v) => {
        if (!dist.has(v)) {
          dist.set(v, d);
          next.push(v);
        }
      });
    }
    frontier = next;
  }
  return dist;
}

export function pathExists(rc: ReadContext, a: number, b: number, maxDepth: number): boolean {
  if (a === b) return true;
  // Bidirectional: expand the smaller frontier each step.
  const da = new Map<number, number>([[a, 0]]);
  const db = new Map<number, number>([[b, 0]]);
  let fa = [a];
  let fb = [b];
  let depthA = 0;
  let depthB = 0;
  while (depthA + depthB < maxDepth && fa.length && fb.length) {
    const growA = fa.length <= fb.length;
    const [frontier, mine, other] = growA ? [fa, da, db] : [fb, db, da];
    const next: number[] = [];
    let met = false;
    for (const u of frontier) {
      neighbours(rc, u, (v) => {
        if (other.has(v)) met = true;
        if (!mine.has(v)) {
          mine.set(v, 0);
          next.push(v);
        }
      });
      if (met) return true;
    }
    if (growA) {
      fa = next;
      depthA++;
    } else {
      fb = next;
      depthB++;
    }
  }
  return false;
}

export function findPaths(
  rc: ReadContext,
  a: number,
  b: number,
  maxDepth: number,
  topK: number,
): { paths: Path[]; truncated: boolean } {
  const s = rc.s;
  const toB = distances(rc, b, maxDepth);
  const found: Path[] = [];
  if (!toB.has(a) || a === b) return { paths: found, truncated: false };
  let examined = 0;
  const stack: number[] = [a];
  const edges: PathEdge[] = [];
  const onPath = new Set<number>([a]);
  const walk = (u: number, left: number, score: number) => {
    if (examined >= MAX_PATHS_EXAMINED) return;
    for (let f = s.firstFact(u); f >= 0; f = s.nextFact(f, u)) {
      const v = s.factS[f] === u ? s.factO[f]! : s.factS[f]!;
      const dv = toB.get(v);
      if (dv === undefined || dv > left - 1 || onPath.has(v)) continue;
      const r = rc.relationship(f, u);
      if (!r) continue;
      examined++;
      edges.push({
        from: s.entityIds[u]!,
        to: s.entityIds[v]!,
        predicate: r.predicate,
        direction: r.direction,
        claim_ids: r.claim_ids,
        confidence: r.confidence,
      });
      stack.push(v);
      const sc = score * r.confidence;
      if (v === b) {
        found.push({ entities: stack.map((e) => s.entityIds[e]!), edges: [...edges], score: sc });
      } else {
        onPath.add(v);
        walk(v, left - 1, sc);
        onPath.delete(v);
      }
      stack.pop();
      edges.pop();
    }
  };
  walk(a, maxDepth, 1);
  found.sort((x, y) => y.score - x.score || x.edges.length - y.edges.length);
  return { paths: found.slice(0, topK), truncated: examined >= MAX_PATHS_EXAMINED };
}
