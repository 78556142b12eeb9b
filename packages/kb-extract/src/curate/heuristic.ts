// The offline curator. Each candidate claim gets a verdict with reasons:
//   skip  - malformed, breaks a registered type constraint, below the confidence floor, or a duplicate
//           (the same fact from the same source, already stored or earlier in the same input);
//   flag  - stored, but worth a look: hedged, low confidence, or contradicting an active claim
//           (inhibits vs activates, upregulates vs downregulates, treats vs contraindicated_for);
//   store - everything else.
import type { Claim, ClaimInput, HeuristicCuratorOptions, KbDB } from '@evident/kb-core';

export type Decision = 'store' | 'skip' | 'flag';
export interface Verdict {
  decision: Decision;
  reasons: string[];
}

export type { HeuristicCuratorOptions };

const OPPOSITES: Record<string, string[]> = {
  inhibits: ['activates'],
  activates: ['inhibits'],
  upregulates: ['downregulates'],
  downregulates: ['upregulates'],
  treats: ['contraindicated_for'],
  contraindicated_for: ['treats'],
};

const norm = (s: string) => s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
const predOf = (c: ClaimInput) => norm(c.predicate[0]).replace(/[\s-]+/g, '_');

/** Shape problems the engine would refuse; returns the first, naming the field. */
export function shapeProblem(c: unknown): string | null {
  if (c === null || typeof c !== 'object') return 'claim: must be an object';
  const x = c as Record<string, unknown>;
  for (const f of ['subject', 'predicate', 'object']) {
    const t = x[f];
    if (!Array.isArray(t) || t.length !== 2 || t.some((v) => typeof v !== 'string' || v.trim() === ''))
      return `${f}: must be a [name, type] pair of non-empty strings`;
  }
  const p = x.provenance as Record<string, unknown> | undefined;
  if (!p || typeof p !== 'object') return 'provenance: is required';
  if (typeof p.source_type !== 'string' || p.source_type.trim() === '')
    return 'provenance.source_type: must be a non-empty string';
  if (typeof p.source_id !== 'string' || p.source_id.trim() === '')
    return 'provenance.source_id: must be a non-empty string';
  if (x.confidence !== undefined && (typeof x.confidence !== 'number' || !(x.confidence >= 0 && x.confidence <= 1)))
    return 'confidence: must be a number from 0 to 1';
  return null;
}

export async function reviewHeuristic(
  db: KbDB,
  claims: ClaimInput[],
  options: HeuristicCuratorOptions = {},
): Promise<Verdict[]> {
  const minConf = options.min_confidence ?? 0.3;
  const flagBelow = options.flag_below ?? 0.5;
  const rules = (await db.schema()).registered.predicates;
  const existing = new Map<string, Claim[]>();
  const claimsOf = async (name: string, type: string): Promise<{ id: string | null; claims: Claim[] }> => {
    const id = await db.resolve(name, norm(type).replace(/[\s-]+/g, '_'));
    if (id === null) return { id, claims: [] };
    let list = existing.get(id);
    if (!list) {
      list = await db.claimsFor(id);
      existing.set(id, list);
    }
    return { id, claims: list };
  };
  const seen = new Map<string, number>();
  const batchFacts = new Map<string, { predicate: string; index: number }[]>();
  const verdicts: Verdict[] = [];
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]!;
    const skip = (reason: string) => verdicts.push({ decision: 'skip', reasons: [reason] });
    const shape = shapeProblem(c);
    if (shape) {
      skip(`invalid: ${shape}`);
      continue;
    }
    const pred = predOf(c);
    const st = norm(c.subject[1]).replace(/[\s-]+/g, '_');
    const ot = norm(c.object[1]).replace(/[\s-]+/g, '_');
    const rule = rules[pred];
    if (rule) {
      if (rule.subject_types.length && !rule.subject_types.includes(st)) {
        skip(`type_constraint: '${pred}' needs a subject of type ${rule.subject_types.join(' | ')}, got '${st}'`);
        continue;
      }
      if (rule.object_types.length && !rule.object_types.includes(ot)) {
        skip(`type_constraint: '${pred}' needs an object of type ${rule.object_types.join(' | ')}, got '${ot}'`);
        continue;
      }
      if (rule.predicate_class && norm(c.predicate[1]).replace(/[\s-]+/g, '_') !== rule.predicate_class) {
        skip(`type_constraint: '${pred}' belongs to class '${rule.predicate_class}'`);
        continue;
      }
    }
    const conf = c.confidence;
    if (conf !== undefined && conf < minConf) {
      skip(`low_confidence: ${conf} is below the floor ${minConf}`);
      continue;
    }
    const pairKey = `${norm(c.subject[0])}|${st}\u0000${norm(c.object[0])}|${ot}`;
    const factKey = `${pairKey}\u0000${pred}\u0000${c.provenance.source_id}`;
    const earlier = seen.get(factKey);
    if (earlier !== undefined) {
      skip(`duplicate: the same fact from the same source as claims[${earlier}]`);
      continue;
    }
    const subj = await claimsOf(c.subject[0], st);
    const objId = await db.resolve(c.object[0], ot);
    const linking = objId === null ? [] : subj.claims.filter((x) => x.subject_id === subj.id && x.object_id === objId);
    const dup = linking.find((x) => x.predicate[0] === pred && x.provenance.source_id === c.provenance.source_id);
    if (dup) {
      skip(`duplicate: already stored as ${dup.claim_id}`);
      continue;
    }
    seen.set(factKey, i);
    const reasons: string[] = [];
    const hedged = (c.payload as { hedged?: unknown } | undefined)?.hedged === true;
    if (hedged) reasons.push('hedged: the source only suggests this relationship');
    else if (conf !== undefined && conf < flagBelow) reasons.push(`low_confidence: ${conf} is below ${flagBelow}`);
    for (const opp of OPPOSITES[pred] ?? []) {
      const clash = linking.find((x) => x.predicate[0] === opp);
      if (clash) reasons.push(`contradiction: claim ${clash.claim_id} states '${opp}' for the same subject and object`);
      const inBatch = batchFacts.get(pairKey)?.find((x) => x.predicate === opp);
      if (inBatch)
        reasons.push(`contradiction: claims[${inBatch.index}] states '${opp}' for the same subject and object`);
    }
    const list = batchFacts.get(pairKey) ?? [];
    list.push({ predicate: pred, index: i });
    batchFacts.set(pairKey, list);
    verdicts.push(reasons.length ? { decision: 'flag', reasons } : { decision: 'store', reasons: [] });
  }
  return verdicts;
}
