// sourceReliability({ by }): per source (or per source type), how its claims fared against the rest of the base.
import { KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import { intArg, optionsArg } from './common.js';
import { contradictingFacts, contradictingPredicates } from './contradictions.js';

export interface SourceReliability {
  /** The source id, or the source type with by: 'source_type'. */
  key: string;
  source_type?: string;
  claims: number;
  /** Fraction of its claims whose relationship also has an active claim from another source (source_id). */
  corroborated: number;
  retracted: number;
  /** Fraction of its claims contradicted by an active claim of another source (opposite predicate, negation). */
  contradicted: number;
  mean_confidence: number;
  /** (1 + corroborated claims) / (2 + corroborated + retracted + contradicted claims): see the README. */
  reliability: number;
}

export function sourceReliability(rc: ReadContext, options: unknown): SourceReliability[] {
  const o = optionsArg<{ by: string; limit: number }>(options);
  const by = o.by ?? 'source';
  if (by !== 'source' && by !== 'source_type')
    throw new KbValidationError('invalid_value', 'by', "must be 'source' or 'source_type'");
  const limit = intArg(o.limit, 'limit', 1000, 1, 1_000_000);
  const s = rc.s;
  const table = contradictingPredicates(rc);
  type Acc = { claims: number; corr: number; retr: number; contra: number; conf: number; type: number };
  const acc = new Map<number, Acc>();
  for (let c = 0; c < s.claimCount; c++) {
    if (!rc.exists(c)) continue;
    const src = s.claimSource[c]!;
    const key = by === 'source' ? src : s.claimSourceType[c]!;
    const a = acc.get(key) ?? { claims: 0, corr: 0, retr: 0, contra: 0, conf: 0, type: s.claimSourceType[c]! };
    if (a.claims === 0) acc.set(key, a);
    a.claims++;
    a.conf += s.claimConf[c]!;
    if (rc.statusOf(c) === 'retracted') a.retr++;
    const f = s.claimFact[c]!;
    if (otherSourceLive(rc, f, src)) a.corr++;
    if (table.size && contradictingFacts(rc, f, table).some((g) => otherSourceLive(rc, g, src))) a.contra++;
  }
  const out: SourceReliability[] = [];
  for (const [key, a] of acc) {
    const r: SourceReliability = {
      key: by === 'source' ? s.sourceIds[key]! : s.sourceTypeName[key]!,
      claims: a.claims,
      corroborated: a.corr / a.claims,
      retracted: a.retr / a.claims,
      contradicted: a.contra / a.claims,
      mean_confidence: a.conf / a.claims,
      reliability: (1 + a.corr) / (2 + a.corr + a.retr + a.contra),
    };
    if (by === 'source') r.source_type = s.sourceTypeName[a.type]!;
    out.push(r);
  }
  out.sort((x, y) => y.claims - x.claims || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  return out.slice(0, limit);
}

function otherSourceLive(rc: ReadContext, f: number, src: number): boolean {
  const s = rc.s;
  for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!)
    if (s.claimSource[c] !== src && rc.isLive(c)) return true;
  return false;
}
