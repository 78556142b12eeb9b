// predict(entity, { top_k }): two-hop inferences by the base's predicate compositions (rules.ts: those of the
// default vocabularies and of the registered ones), each scored and with the claims it rests on.
import type { ReadContext } from '../graph/read.js';
import type { EntitySummary } from '../types.js';
import type { PredicateComposition } from '../model/registry.js';
import { entityArg, intArg, noisyOr, optionsArg } from './common.js';
import { reasoningRules } from './rules.js';

export interface InferencePath {
  via: string;
  /** The two relationships: `entity first via`, `via second target`. */
  first: string;
  second: string;
  /** Product of the two relationships' confidences. */
  score: number;
  claim_ids: string[];
}

export interface Prediction {
  predicate: string;
  target: EntitySummary;
  /** Noisy-OR over the paths' scores: 1 - prod(1 - score). */
  score: number;
  paths: InferencePath[];
}

/** Every two-hop inference from entity x (to `only`, when given), stated ones included, keyed predicate|target. */
export function inferences(
  rc: ReadContext,
  x: number,
  only = -1,
): Map<string, Prediction & { rule: PredicateComposition; y: number }> {
  const s = rc.s;
  const out = new Map<string, Prediction & { rule: PredicateComposition; y: number }>();
  const byFirst = reasoningRules(s.registry).byFirst;
  for (let f1 = s.firstFact(x); f1 >= 0; f1 = s.nextFact(f1, x)) {
    if (s.factS[f1] !== x) continue;
    const rules = byFirst.get(s.predName[s.factP[f1]!]!);
    if (!rules || !rc.factHasLive(f1)) continue;
    const m = s.factO[f1]!;
    // A hop between one target's gene and protein kept apart (ReadContext.sameTarget) infers nothing.
    if (m === x || rc.sameTarget(x, m)) continue;
    const c1 = rc.relationship(f1, x)!;
    for (let f2 = s.firstFact(m); f2 >= 0; f2 = s.nextFact(f2, m)) {
      if (s.factS[f2] !== m) continue;
      const y = s.factO[f2]!;
      if (y === x || y === m || (only >= 0 && y !== only) || rc.sameTarget(x, y) || rc.sameTarget(m, y)) continue;
      const p2 = s.predName[s.factP[f2]!]!;
      for (const rule of rules) {
        if (rule.second !== p2 || !rc.factHasLive(f2)) continue;
        const c2 = rc.relationship(f2, m)!;
        const key = `${rule.infers}|${y}`;
        let pred = out.get(key);
        if (!pred) {
          pred = { predicate: rule.infers, target: rc.summary(y), score: 0, paths: [], rule, y };
          out.set(key, pred);
        }
        pred.paths.push({
          via: s.entityIds[m]!,
          first: c1.predicate,
          second: c2.predicate,
          score: c1.confidence * c2.confidence,
          claim_ids: [...c1.claim_ids, ...c2.claim_ids],
        });
      }
    }
  }
  for (const p of out.values()) {
    p.score = noisyOr(p.paths.map((q) => q.score));
    p.paths.sort((a, b) => b.score - a.score);
  }
  return out;
}

/** Whether x already states (actively) a relationship to y with one of the predicates. */
export function stated(rc: ReadContext, x: number, y: number, predicates: readonly string[]): boolean {
  const s = rc.s;
  for (let f = s.firstFact(x); f >= 0; f = s.nextFact(f, x))
    if (s.factS[f] === x && s.factO[f] === y && predicates.includes(s.predName[s.factP[f]!]!) && rc.factHasLive(f))
      return true;
  return false;
}

export function predict(rc: ReadContext, entity: unknown, options: unknown): Prediction[] {
  const o = optionsArg<{ top_k: number }>(options);
  const topK = intArg(o.top_k, 'top_k', 10, 1, 1000);
  const x = entityArg(rc, entity, 'entity');
  const out: Prediction[] = [];
  for (const p of inferences(rc, x).values()) {
    if (stated(rc, x, p.y, p.rule.stated_by)) continue;
    out.push({ predicate: p.predicate, target: p.target, score: p.score, paths: p.paths });
  }
  out.sort((a, b) => b.score - a.score || (a.target.id < b.target.id ? -1 : 1));
  return out.slice(0, topK);
}
