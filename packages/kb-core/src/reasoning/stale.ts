// stale({ days }): active relationships whose newest active supporting claim is older than `days`.
import { KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import { liveAt, scanColumns } from './columns.js';
import { type FactRef, factRef, intArg, iso, nowOf, optionsArg, smallestThreshold } from './common.js';

const DAY = 86_400_000;

export interface StaleFact extends FactRef {
  newest_claim_at: string;
  age_days: number;
  source_count: number;
}

export function stale(rc: ReadContext, options: unknown): { days: number; count: number; facts: StaleFact[] } {
  const o = optionsArg<{ days: number; limit: number }>(options);
  const days = o.days;
  if (days === undefined) throw new KbValidationError('missing_field', 'days', 'is required');
  if (typeof days !== 'number' || !Number.isFinite(days) || days < 0)
    throw new KbValidationError('out_of_range', 'days', 'must be a number of days, 0 or more');
  const limit = intArg(o.limit, 'limit', 100, 0, 100_000);
  const s = rc.s;
  const now = nowOf(rc);
  const before = now - days * DAY;
  const staleFacts: number[] = [];
  // Columns fetched once: the loop visits every claim of every fact.
  const k = scanColumns(rc);
  const { factFirst, claimNext, claimTs } = k;
  const cutoff = rc.cutoff;
  const newestOf = new Float64Array(k.factCount);
  for (let f = 0; f < k.factCount; f++) {
    let newest = -Infinity;
    for (let c = factFirst[f]!; c >= 0; c = claimNext[c]!)
      if (claimTs[c]! > newest && liveAt(k, c, cutoff)) newest = claimTs[c]!;
    newestOf[f] = newest;
    if (newest !== -Infinity && newest < before) staleFacts.push(f);
  }
  // Only the `limit` oldest are listed: rank those, not every stale fact.
  const keys = Float64Array.from(staleFacts, (f) => newestOf[f]!);
  const threshold = smallestThreshold(keys, limit);
  const found = staleFacts
    .filter((f) => newestOf[f]! <= threshold)
    .map((f) => ({ f, newest: newestOf[f]! }))
    .sort((a, b) => a.newest - b.newest || a.f - b.f);
  const facts = found.slice(0, limit).map(({ f, newest }) => {
    const sources = new Set<number>();
    for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) if (rc.isLive(c)) sources.add(s.claimSource[c]!);
    return {
      ...factRef(rc, f),
      newest_claim_at: iso(newest),
      age_days: (now - newest) / DAY,
      source_count: sources.size,
    };
  });
  return { days, count: staleFacts.length, facts };
}
