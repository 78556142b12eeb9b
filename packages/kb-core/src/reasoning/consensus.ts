// consensus(a, b?): what sources assert about an entity (or between two), how many agree, and where they
// contradict each other.
import type { ReadContext } from '../graph/read.js';
import { type FactRef, contradictionKind, entityArg, factRef, liveSources } from './common.js';
import { reasoningRules } from './rules.js';

export interface Assertion extends FactRef {
  /** Distinct sources with an active claim of this relationship: how many agree. */
  source_count: number;
  source_ids: string[];
  confidence: number;
  claim_ids: string[];
}

export interface Contradiction {
  kind: 'opposite' | 'negation';
  /** content_ids of the two relationships. */
  a: string;
  b: string;
  sources_a: number;
  sources_b: number;
}

export interface Consensus {
  entity: string;
  other?: string;
  assertions: Assertion[];
  contradictions: Contradiction[];
}

export function consensus(rc: ReadContext, a: unknown, b?: unknown): Consensus {
  const s = rc.s;
  const ea = entityArg(rc, a, 'a');
  const eb = b === undefined ? -1 : entityArg(rc, b, 'b');
  const facts: number[] = [];
  for (let f = s.firstFact(ea); f >= 0; f = s.nextFact(f, ea)) {
    if (eb >= 0 && !(s.factS[f] === eb || s.factO[f] === eb)) continue;
    if (rc.factHasLive(f)) facts.push(f);
  }
  const assertions: Assertion[] = facts.map((f) => {
    const r = rc.relationship(f, s.factS[f]!)!;
    return {
      ...factRef(rc, f),
      source_count: r.source_count,
      source_ids: [...liveSources(rc, f)].map((x) => s.sourceIds[x]!).sort(),
      confidence: r.confidence,
      claim_ids: r.claim_ids,
    };
  });
  const contradictions: Contradiction[] = [];
  const rules = reasoningRules(s.registry);
  for (let i = 0; i < facts.length; i++)
    for (let j = i + 1; j < facts.length; j++) {
      const f = facts[i]!;
      const g = facts[j]!;
      if (s.factS[f] !== s.factS[g] || s.factO[f] !== s.factO[g]) continue;
      const kind = contradictionKind(rules, s.predName[s.factP[f]!]!, s.predName[s.factP[g]!]!);
      if (kind)
        contradictions.push({
          kind,
          a: assertions[i]!.content_id,
          b: assertions[j]!.content_id,
          sources_a: assertions[i]!.source_count,
          sources_b: assertions[j]!.source_count,
        });
    }
  assertions.sort((x, y) => y.source_count - x.source_count || y.confidence - x.confidence);
  const out: Consensus = { entity: s.entityIds[ea]!, assertions, contradictions };
  if (eb >= 0) out.other = s.entityIds[eb]!;
  return out;
}
