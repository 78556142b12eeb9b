// The reasoning tables of a base: the opposite predicates and two-hop compositions declared by the library's
// default vocabularies (vocab/index.ts: bio's, which every base has always reasoned with) and by every
// vocabulary the base registers, read from its registry. Predicate names are normalised as claims' are.
import { normalizeToken } from '../model/normalize.js';
import type { PredicateComposition, Registry, Vocabulary } from '../model/registry.js';
import { defaultReasoningVocabularies } from '../vocab/index.js';

export interface ReasoningRules {
  /** Predicate -> the predicates opposite to it (both directions of every declared pair). */
  opposites: Map<string, Set<string>>;
  /** First predicate -> the compositions that start with it, defaults first, then in registration order. */
  byFirst: Map<string, PredicateComposition[]>;
}

function build(docs: readonly Vocabulary[]): ReasoningRules {
  const opposites = new Map<string, Set<string>>();
  const oppose = (x: string, y: string): void => {
    const set = opposites.get(x) ?? new Set<string>();
    opposites.set(x, set);
    set.add(y);
  };
  const byFirst = new Map<string, PredicateComposition[]>();
  // One rule per (first, second, infers): a vocabulary registered again, or bio registered on top of the
  // defaults, adds no second path; two vocabularies declaring one rule share their stated_by.
  const byKey = new Map<string, PredicateComposition>();
  for (const doc of docs) {
    for (const [a, b] of doc.opposite_predicates ?? []) {
      oppose(normalizeToken(a), normalizeToken(b));
      oppose(normalizeToken(b), normalizeToken(a));
    }
    for (const r of doc.predicate_compositions ?? []) {
      const rule = {
        first: normalizeToken(r.first),
        second: normalizeToken(r.second),
        infers: normalizeToken(r.infers),
        stated_by: r.stated_by.map(normalizeToken),
      };
      const key = `${rule.first}|${rule.second}|${rule.infers}`;
      const had = byKey.get(key);
      if (had) {
        had.stated_by = [...new Set([...had.stated_by, ...rule.stated_by])];
        continue;
      }
      byKey.set(key, rule);
      const l = byFirst.get(rule.first);
      if (l) l.push(rule);
      else byFirst.set(rule.first, [rule]);
    }
  }
  return { opposites, byFirst };
}

/** Built once per set of registered vocabularies (a registration replaces or adds a document). */
const cache = new WeakMap<Registry, { docs: Vocabulary[]; rules: ReasoningRules }>();

export function reasoningRules(registry: Registry): ReasoningRules {
  const docs = [...registry.vocabularies.values()];
  const hit = cache.get(registry);
  if (hit && hit.docs.length === docs.length && hit.docs.every((d, i) => d === docs[i])) return hit.rules;
  const rules = build([...defaultReasoningVocabularies, ...docs]);
  cache.set(registry, { docs, rules });
  return rules;
}
