// stale({ days }): active relationships whose newest active supporting claim is older than `days`.
import { KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import { liveAt, type ScanColumns, scanColumns } from './columns.js';
import { TopK } from './top-k.js';
import { type FactRef, factRef, intArg, iso, nowOf, optionsArg } from './common.js';

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
  // Columns fetched once: the loop visits every claim of every fact. Only the `limit` oldest are listed:
  // they are kept as found (ties to the relationship stated first), the rest only counted.
  const k = scanColumns(rc);
  const cutoff = rc.cutoff;
  const oldest = new TopK(limit);
  let count = 0;
  for (let f = 0; f < k.factCount; f++) {
    const newest = newestClaimTs(k, f, cutoff);
    if (newest !== -Infinity && newest < before) {
      count++;
      oldest.offer(newest, f);
    }
  }
  const found = oldest.sorted().map((f) => ({ f, newest: newestClaimTs(k, f, cutoff) }));
  const facts = found.map(({ f, newest }) => {
    const sources = new Set<number>();
    for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!) if (rc.isLive(c)) sources.add(s.claimSource[c]!);
    return {
      ...factRef(rc, f),
      newest_claim_at: iso(newest),
      age_days: (now - newest) / DAY,
      source_count: sources.size,
    };
  });
  return { days, count, facts };
}

function newestClaimTs(k: ScanColumns, f: number, cutoff: number): number {
  let newest = -Infinity;
  for (let c = k.factFirst[f]!; c >= 0; c = k.claimNext[c]!)
    if (k.claimTs[c]! > newest && liveAt(k, c, cutoff)) newest = k.claimTs[c]!;
  return newest;
}
