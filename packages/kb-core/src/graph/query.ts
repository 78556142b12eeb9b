// Query frames: the focal entity's direct relationships plus a breadth-first expansion to `depth` hops
// over active facts, and a narrative written from the claims.
import { performance } from 'node:perf_hooks';
import type { ExplainFrame, QueryFrame, ReachedEntity, Relationship } from '../types.js';
import type { ReadContext } from './read.js';

export interface QueryOptions {
  depth?: number;
  /** Stop the expansion after this many entities (default 10,000); `truncated` says when it did. */
  max_entities?: number;
}

const fmt = (x: number) => (Math.round(x * 100) / 100).toString();

export function buildFrame(
  rc: ReadContext,
  e: number,
  options: QueryOptions,
  explain: boolean,
): ExplainFrame | QueryFrame {
  const t0 = performance.now();
  const depth = options.depth ?? 2;
  const maxEntities = options.max_entities ?? 10_000;
  const s = rc.s;
  let factsExamined = 0;
  let claimsExamined = 0;

  const t1 = performance.now();
  const direct: Relationship[] = [];
  for (let f = s.firstFact(e); f >= 0; f = s.nextFact(f, e)) {
    factsExamined++;
    claimsExamined += s.factClaimCount[f]!;
    const r = rc.relationship(f, e);
    if (r) direct.push(r);
  }
  direct.sort(
    (a, b) => b.confidence - a.confidence || b.source_count - a.source_count || (a.target.id < b.target.id ? -1 : 1),
  );

  const t2 = performance.now();
  const reached: ReachedEntity[] = [];
  // Visited marks in the index's scratch array (a fresh epoch per expansion) rather than a Map per query.
  const seen = s.visitMarks();
  const epoch = s.nextVisitEpoch();
  seen[e] = epoch;
  let seenCount = 1;
  let frontier = [e];
  let truncated = false;
  for (let d = 1; d <= depth && frontier.length && !truncated; d++) {
    const next: number[] = [];
    for (const u of frontier) {
      for (let f = s.firstFact(u); f >= 0; f = s.nextFact(f, u)) {
        factsExamined++;
        const v = s.factS[f] === u ? s.factO[f]! : s.factS[f]!;
        if (seen[v] === epoch || !rc.factHasLive(f)) continue;
        seen[v] = epoch;
        seenCount++;
        next.push(v);
        reached.push({
          id: s.entityIds[v]!,
          name: s.entityName[v]!,
          type: s.entityType[v]!,
          claim_count: rc.entityClaimCount(v),
          distance: d,
          via: s.entityIds[u]!,
        });
        if (reached.length >= maxEntities) {
          truncated = true;
          break;
        }
      }
      if (truncated) break;
    }
    frontier = next;
  }

  const t3 = performance.now();
  const focal = rc.summary(e);
  const narrative = writeNarrative(rc, e, focal.name, focal.type, focal.claim_count, direct, reached, depth);
  const t4 = performance.now();
  const frame: QueryFrame & { truncated?: boolean } = {
    focal_entity: focal,
    claim_count: focal.claim_count,
    direct_relationships: direct,
    depth,
    entities: reached,
    narrative,
  };
  if (truncated) frame.truncated = true;
  if (!explain) return frame;
  return {
    ...frame,
    timing: { resolve_ms: t1 - t0, direct_ms: t2 - t1, expand_ms: t3 - t2, narrative_ms: t4 - t3, total_ms: t4 - t0 },
    candidates: { facts_examined: factsExamined, claims_examined: claimsExamined, entities_examined: seenCount },
  };
}

function writeNarrative(
  rc: ReadContext,
  focal: number,
  name: string,
  type: string,
  claimCount: number,
  direct: Relationship[],
  reached: ReachedEntity[],
  depth: number,
): string {
  if (direct.length === 0) return `${name} (${type}) has no active claims.`;
  const s = rc.s;
  const sources = new Set<number>();
  for (let f = s.firstFact(focal); f >= 0; f = s.nextFact(f, focal)) {
    for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) if (rc.isLive(c)) sources.add(s.claimSource[c]!);
  }
  const parts: string[] = [];
  parts.push(
    `${name} (${type}) appears in ${claimCount} active claim${claimCount === 1 ? '' : 's'} from ${sources.size} source${sources.size === 1 ? '' : 's'}.`,
  );
  const shown = direct.slice(0, 5).map((r) => {
    const verb = phrase(r.predicate);
    const support = `${r.source_count} source${r.source_count === 1 ? '' : 's'}, confidence ${fmt(r.confidence)}`;
    return r.direction === 'outgoing'
      ? `${name} ${verb} ${r.target.name} (${support})`
      : `${r.target.name} ${verb} ${name} (${support})`;
  });
  parts.push(
    `${shown.join('; ')}${direct.length > 5 ? `; and ${direct.length - 5} more relationship${direct.length - 5 === 1 ? '' : 's'}` : ''}.`,
  );
  const corroborated = direct.filter((r) => r.source_count > 1).length;
  if (corroborated)
    parts.push(`${corroborated} of ${direct.length} relationships are corroborated by more than one source.`);
  else parts.push('No relationship is corroborated by a second source yet.');
  if (depth > 1 && reached.length) {
    const byType = new Map<string, number>();
    for (const r of reached) byType.set(r.type, (byType.get(r.type) ?? 0) + 1);
    const mix = [...byType]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([t, n]) => `${n} ${t}`)
      .join(', ');
    parts.push(`Within ${depth} hops it reaches ${reached.length} entities (${mix}).`);
  }
  return parts.join(' ');
}

/**
 * Predicate as a verb phrase: 'associated_with' -> 'is associated with', 'part_of' -> 'is part of',
 * 'interacts_with' and 'treats' stay as they are (already finite verbs).
 */
function phrase(predicate: string): string {
  const words = predicate.replace(/_/g, ' ');
  const first = words.split(' ')[0]!;
  if (/^(is|are|was|has|have|can|may)$/.test(first)) return words;
  if (/(ed|en)$/.test(first)) return `is ${words}`;
  if (/s$/.test(first)) return words;
  return / (of|for|to|in|by|with|on|from)$/.test(words) ? `is ${words}` : words;
}
