// testHypothesis(subject, predicate, object): the evidence for and against one statement, and a verdict.
import { KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import { normalizeToken } from '../model/normalize.js';
import type { Claim } from '../types.js';
import { contradictionKind, entityArg, noisyOr } from './common.js';
import { reasoningRules } from './rules.js';
import { type InferencePath, inferences } from './predict.js';

/** Weight of two-hop evidence against direct claims. */
export const INDIRECT_WEIGHT = 0.5;
/** Below this much evidence either way the verdict is 'unknown'. */
// Deliberate likeness: constants and an interface, alike in shape only to graph-algorithms' svd/dense-svd.ts.
export const EVIDENCE_FLOOR = 0.2;
/** |support - opposition| at or above which the verdict is 'supported' / 'contradicted' (else 'mixed'). */
export const VERDICT_MARGIN = 0.3;

export interface HypothesisTest {
  subject_id: string;
  predicate: string;
  object_id: string;
  verdict: 'supported' | 'contradicted' | 'mixed' | 'unknown';
  /** support - opposition, in [-1, 1]. */
  score: number;
  support: number;
  opposition: number;
  direct: Claim[];
  contradicting: (Claim & { contradiction: 'opposite' | 'negation' })[];
  indirect_support: (InferencePath & { infers: string })[];
  indirect_opposition: (InferencePath & { infers: string })[];
}

export function testHypothesis(rc: ReadContext, subject: unknown, predicate: unknown, object: unknown): HypothesisTest {
  if (typeof predicate !== 'string' || predicate.trim() === '')
    throw new KbValidationError('invalid_type', 'predicate', 'must be a non-empty predicate name');
  const s = rc.s;
  const rules = reasoningRules(s.registry);
  const x = entityArg(rc, subject, 'subject');
  const y = entityArg(rc, object, 'object');
  const p = normalizeToken(predicate);
  const direct: Claim[] = [];
  const against: HypothesisTest['contradicting'] = [];
  const directConf: number[] = [];
  const againstConf: number[] = [];
  for (let f = s.firstFact(x); f >= 0; f = s.nextFact(f, x)) {
    if (s.factS[f] !== x || s.factO[f] !== y) continue;
    const r = rc.relationship(f, x);
    if (!r) continue;
    const q = r.predicate;
    const live = rc.factLiveClaims(f).map((c) => rc.toClaim(c));
    if (q === p) {
      direct.push(...live);
      directConf.push(r.confidence);
      continue;
    }
    const kind = contradictionKind(rules, p, q);
    if (kind) {
      for (const c of live) against.push({ ...c, contradiction: kind });
      againstConf.push(r.confidence);
    }
  }
  const indFor: HypothesisTest['indirect_support'] = [];
  const indAgainst: HypothesisTest['indirect_opposition'] = [];
  for (const inf of inferences(rc, x, y).values()) {
    const says = [inf.rule.infers, ...inf.rule.stated_by];
    const paths = inf.paths.map((q) => ({ ...q, infers: inf.predicate }));
    if (says.includes(p)) indFor.push(...paths);
    else if (says.some((q) => contradictionKind(rules, p, q) !== null)) indAgainst.push(...paths);
  }
  const support = 1 - (1 - noisyOr(directConf)) * (1 - INDIRECT_WEIGHT * noisyOr(indFor.map((q) => q.score)));
  const opposition = 1 - (1 - noisyOr(againstConf)) * (1 - INDIRECT_WEIGHT * noisyOr(indAgainst.map((q) => q.score)));
  const score = support - opposition;
  const verdict =
    Math.max(support, opposition) < EVIDENCE_FLOOR
      ? 'unknown'
      : score >= VERDICT_MARGIN
        ? 'supported'
        : score <= -VERDICT_MARGIN
          ? 'contradicted'
          : 'mixed';
  return {
    subject_id: s.entityIds[x]!,
    predicate: p,
    object_id: s.entityIds[y]!,
    verdict,
    score,
    support,
    opposition,
    direct,
    contradicting: against,
    indirect_support: indFor,
    indirect_opposition: indAgainst,
  };
}
