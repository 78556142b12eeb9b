// Which facts contradict which: same subject and object, same direction, predicates opposite in the
// base's tables (rules.ts) or one the negation (not_p) of the other (common.ts: contradictionKind).
import type { ReadContext } from '../graph/read.js';
import { contradictionKind } from './common.js';
import { reasoningRules } from './rules.js';

/** Predicate index -> indices of the predicates that contradict it (only predicates the base has seen). */
export function contradictingPredicates(rc: ReadContext): Map<number, number[]> {
  const names = rc.s.predName;
  const rules = reasoningRules(rc.s.registry);
  const out = new Map<number, number[]>();
  for (let p = 0; p < names.length; p++)
    for (let q = 0; q < names.length; q++) {
      if (p === q || contradictionKind(rules, names[p]!, names[q]!) === null) continue;
      const l = out.get(p) ?? [];
      out.set(p, l);
      l.push(q);
    }
  return out;
}

/** Facts with an active claim that contradict fact f. */
export function contradictingFacts(rc: ReadContext, f: number, table: Map<number, number[]>): number[] {
  const s = rc.s;
  const qs = table.get(s.factP[f]!);
  if (!qs) return [];
  const a = s.factS[f]!;
  const b = s.factO[f]!;
  const out: number[] = [];
  for (let g = s.firstFact(a); g >= 0; g = s.nextFact(g, a))
    if (s.factS[g] === a && s.factO[g] === b && qs.includes(s.factP[g]!) && rc.factHasLive(g)) out.push(g);
  return out;
}
