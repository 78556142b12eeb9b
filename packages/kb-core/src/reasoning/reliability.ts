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
  // Dense accumulators per key (source or source type index): a million claims, no per-claim objects.
  const keys = by === 'source' ? s.sourceIds.length : s.sourceTypeName.length;
  const claims = new Int32Array(keys);
  const corr = new Int32Array(keys);
  const retr = new Int32Array(keys);
  const contra = new Int32Array(keys);
  const conf = new Float64Array(keys);
  const typeOf = new Int32Array(keys);
  for (let c = 0; c < s.claimCount; c++) {
    if (!rc.exists(c)) continue;
    const src = s.claimSource[c]!;
    const k = by === 'source' ? src : s.claimSourceType[c]!;
    claims[k]!++;
    typeOf[k] = s.claimSourceType[c]!;
    conf[k]! += s.claimConf[c]!;
    if (rc.statusOf(c) === 'retracted') retr[k]!++;
    const f = s.claimFact[c]!;
    if (s.factClaimCount[f]! > 1 && otherSourceLive(rc, f, src)) corr[k]!++;
    if (table.size && contradictingFacts(rc, f, table).some((g) => otherSourceLive(rc, g, src))) contra[k]!++;
  }
  const out: SourceReliability[] = [];
  for (let k = 0; k < keys; k++) {
    const n = claims[k]!;
    if (n === 0) continue;
    const r: SourceReliability = {
      key: by === 'source' ? s.sourceIds[k]! : s.sourceTypeName[k]!,
      claims: n,
      corroborated: corr[k]! / n,
      retracted: retr[k]! / n,
      contradicted: contra[k]! / n,
      mean_confidence: conf[k]! / n,
      reliability: (1 + corr[k]!) / (2 + corr[k]! + retr[k]! + contra[k]!),
    };
    if (by === 'source') r.source_type = s.sourceTypeName[typeOf[k]!]!;
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
