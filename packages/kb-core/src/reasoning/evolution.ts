// evolution(entity): the entity's timeline from the claim log: claims added, retracted and degraded, and each
// of its relationships' confidence and source count after every change.
import { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';
import { type FactRef, entityArg, factRef, factStrength, iso } from './common.js';

export interface TimelineEvent {
  at: string;
  event: 'added' | 'retracted' | 'degraded';
  claim_id: string;
  content_id: string;
}

export interface Evolution {
  entity: EntitySummary;
  events: TimelineEvent[];
  relationships: (FactRef & { series: { at: string; confidence: number; source_count: number }[] })[];
}

export function evolution(rc: ReadContext, entity: unknown): Evolution {
  const s = rc.s;
  const e = entityArg(rc, entity, 'entity', true);
  const raw: { t: number; event: TimelineEvent['event']; c: number }[] = [];
  const relationships: Evolution['relationships'] = [];
  for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
    const times = new Set<number>();
    for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) {
      if (!rc.exists(c)) continue;
      const marks = [
        [s.claimTs[c]!, 'added'],
        [s.claimRetractTs[c]!, 'retracted'],
        [s.claimDegradeTs[c]!, 'degraded'],
      ] as const;
      for (const [t, event] of marks) {
        if (t > rc.cutoff || t === Infinity) continue;
        raw.push({ t, event, c });
        times.add(t);
      }
    }
    if (times.size === 0) continue;
    const series = [...times]
      .sort((a, b) => a - b)
      .map((t) => ({ at: iso(t), ...factStrength(new ReadContext(s, t), f) }));
    relationships.push({ ...factRef(rc, f), series });
  }
  raw.sort((a, b) => a.t - b.t || a.c - b.c);
  return {
    entity: rc.summary(e),
    events: raw.map((r) => ({
      at: iso(r.t),
      event: r.event,
      claim_id: s.claimIdOf(r.c),
      content_id: s.contentIdOfFact(s.claimFact[r.c]!),
    })),
    relationships,
  };
}
