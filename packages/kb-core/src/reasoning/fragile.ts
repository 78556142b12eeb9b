// fragile({ limit }): active relationships that rest on one source while other knowledge rests on them.
import type { ReadContext } from '../graph/read.js';
import { TopK } from './top-k.js';
import { liveAt, type ScanColumns, scanColumns, sourcesUpTo2 } from './columns.js';
import { type FactRef, factRef, intArg, liveSources, optionsArg } from './common.js';

export interface FragileFact extends FactRef {
  source_id: string;
  /** Active claims that derive from the fact's claims (derived_from), transitively: lost with its source. */
  dependants: number;
  /** (deg(subject) - 1) x (deg(object) - 1), deg = active relationships of the entity: the paths of three
   * entities x - subject - object - y that use this relationship as their middle link. */
  paths_through: number;
}

export function fragile(rc: ReadContext, options: unknown): FragileFact[] {
  const o = optionsArg<{ limit: number }>(options);
  const limit = intArg(o.limit, 'limit', 20, 1, 10_000);
  const s = rc.s;
  // Columns fetched once: both loops visit every fact.
  const k = scanColumns(rc);
  const { factS, factO, factSources } = k;
  const cutoff = rc.cutoff;
  const deg = new Int32Array(s.entityIds.length);
  const live = new Uint8Array(k.factCount);
  for (let f = 0; f < k.factCount; f++) {
    if (!(rc.live ? factSources[f]! > 0 : sourcesUpTo2(k, f, cutoff) > 0)) continue;
    live[f] = 1;
    const a = factS[f]!;
    const b = factO[f]!;
    deg[a]!++;
    if (b !== a) deg[b]!++;
  }
  // Facts with dependants are few and ranked first; the rest compete on paths_through alone, and only the
  // `limit` best of those are ranked (a typed-array threshold, not a sort of every single-source fact).
  const found: { f: number; dependants: number; paths: number }[] = [];
  // At most `limit` path-only facts can be listed: the best kept as found (most paths, then stated first).
  const pathOnly = new TopK(limit);
  const dependents = s.dependents;
  for (let f = 0; f < k.factCount; f++) {
    if (!live[f]) continue;
    if (rc.live ? factSources[f] !== 1 : sourcesUpTo2(k, f, cutoff) !== 1) continue;
    const paths = (deg[factS[f]!]! - 1) * (deg[factO[f]!]! - 1);
    const dependants = dependents.size === 0 ? 0 : dependantsOf(rc, k, dependents, f);
    if (dependants > 0) found.push({ f, dependants, paths });
    else if (paths > 0) pathOnly.offer(-paths, f);
  }
  const room = limit - found.length;
  for (const f of pathOnly.sorted().slice(0, Math.max(0, room)))
    found.push({ f, dependants: 0, paths: (deg[factS[f]!]! - 1) * (deg[factO[f]!]! - 1) });
  // Ties go to the relationship stated first (the log's order).
  found.sort((x, y) => y.dependants - x.dependants || y.paths - x.paths || x.f - y.f);
  return found.slice(0, limit).map(({ f, dependants, paths }) => ({
    ...factRef(rc, f),
    source_id: s.sourceIds[[...liveSources(rc, f)][0]!]!,
    dependants,
    paths_through: paths,
  }));
}

/** Active claims reachable through derived_from dependants from the fact's active claims. */
function dependantsOf(
  rc: ReadContext,
  k: ScanColumns,
  dependents: ReadonlyMap<number, readonly number[]>,
  f: number,
): number {
  const queue: number[] = [];
  for (let c = k.factFirst[f]!; c >= 0; c = k.claimNext[c]!)
    if (dependents.has(c) && liveAt(k, c, rc.cutoff)) queue.push(c);
  if (queue.length === 0) return 0;
  const seen = new Set<number>(queue);
  let n = 0;
  for (let i = 0; i < queue.length; i++) {
    for (const d of dependents.get(queue[i]!) ?? []) {
      if (seen.has(d)) continue;
      seen.add(d);
      queue.push(d);
      if (rc.isLive(d)) n++;
    }
  }
  return n;
}
