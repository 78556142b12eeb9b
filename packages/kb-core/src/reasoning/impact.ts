// impact(source_id, { cascade }): what retractCascade(source_id) (or retract, cascade: false) would do, computed without doing it. The claim sets follow
// the apply's rules (graph/apply.ts): every claim of the source not yet retracted is retracted; every active
// claim reachable through derived_from dependants of those is degraded, transitively.
import { KbNotFoundError, KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';
import { type FactRef, factRef, liveSources, optionsArg } from './common.js';

export interface Impact {
  source_id: string;
  retracted_claim_ids: string[];
  degraded_claim_ids: string[];
  /** Entities with an active claim now and none after. */
  orphaned_entities: EntitySummary[];
  /** Relationships whose count of distinct active sources drops, to 0 (gone) or 1 (single-source). */
  weakened_relationships: (FactRef & { sources_before: number; sources_after: number })[];
}

/** The claims a cascade retraction of the source would retract and degrade, at the context's moment. */
export function retractionSets(
  rc: ReadContext,
  sourceId: unknown,
  cascade = true,
): { retracted: number[]; degraded: number[] } {
  if (typeof sourceId !== 'string' || sourceId.trim() === '')
    throw new KbValidationError('invalid_type', 'source_id', 'must be a non-empty string');
  const s = rc.s;
  const src = s.sourceIndex.get(sourceId);
  const retracted: number[] = [];
  if (src !== undefined) {
    for (let c = 0; c < s.claimCount; c++)
      if (s.claimSource[c] === src && rc.exists(c) && rc.statusOf(c) !== 'retracted') retracted.push(c);
  }
  if (src === undefined || (retracted.length === 0 && !sourceSeen(rc, src)))
    throw new KbNotFoundError('source', sourceId);
  const degraded: number[] = [];
  const seen = new Set<number>(retracted);
  const queue = cascade ? [...retracted] : [];
  for (let i = 0; i < queue.length; i++) {
    for (const d of s.dependents.get(queue[i]!) ?? []) {
      if (seen.has(d) || !rc.exists(d)) continue;
      seen.add(d);
      queue.push(d);
      if (rc.isLive(d)) degraded.push(d);
    }
  }
  return { retracted, degraded };
}

function sourceSeen(rc: ReadContext, src: number): boolean {
  const s = rc.s;
  for (let c = 0; c < s.claimCount; c++) if (s.claimSource[c] === src && rc.exists(c)) return true;
  return false;
}

/** `cascade: false` answers for retract() instead: nothing is degraded. */
export function impact(rc: ReadContext, sourceId: unknown, options: unknown = {}): Impact {
  const s = rc.s;
  const { cascade = true } = optionsArg<{ cascade: boolean }>(options);
  if (typeof cascade !== 'boolean') throw new KbValidationError('invalid_type', 'cascade', 'must be true or false');
  const { retracted, degraded } = retractionSets(rc, sourceId, cascade);
  // Only claims active now change anything: an already degraded claim of the source is retracted, but it
  // counted for no entity or relationship before either.
  const lost = new Set<number>();
  for (const c of retracted) if (rc.isLive(c)) lost.add(c);
  for (const c of degraded) lost.add(c);
  const lostPerEntity = new Map<number, number>();
  const facts = new Set<number>();
  for (const c of lost) {
    const f = s.claimFact[c]!;
    facts.add(f);
    const a = s.factS[f]!;
    const b = s.factO[f]!;
    lostPerEntity.set(a, (lostPerEntity.get(a) ?? 0) + 1);
    if (b !== a) lostPerEntity.set(b, (lostPerEntity.get(b) ?? 0) + 1);
  }
  const orphaned: EntitySummary[] = [];
  for (const [e, n] of lostPerEntity) if (rc.entityClaimCount(e) - n === 0) orphaned.push(rc.summary(e, 0));
  const weakened: Impact['weakened_relationships'] = [];
  for (const f of facts) {
    const before = liveSources(rc, f).size;
    const after = liveSources(rc, f, lost).size;
    if (after < before && after <= 1)
      weakened.push({ ...factRef(rc, f), sources_before: before, sources_after: after });
  }
  orphaned.sort((x, y) => (x.id < y.id ? -1 : 1));
  weakened.sort((x, y) => x.sources_after - y.sources_after || (x.content_id < y.content_id ? -1 : 1));
  return {
    source_id: sourceId as string,
    retracted_claim_ids: retracted.map((c) => s.claimIdOf(c)),
    degraded_claim_ids: degraded.map((c) => s.claimIdOf(c)),
    orphaned_entities: orphaned,
    weakened_relationships: weakened,
  };
}
