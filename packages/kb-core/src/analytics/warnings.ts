// Vocabulary warnings across the active graph (qualityReport's `vocabulary_warnings`): active claims that break
// a registered vocabulary's predicate class or type constraints, or use an entity type no vocabulary has, as
// judged by the vocabularies registered now (a non-strict base stores such claims; a strict one refuses the
// first two kinds).
import type { ReadContext } from '../graph/read.js';
import { normalizeToken } from '../model/normalize.js';

export interface VocabularyWarnings {
  /** Active claims with at least one warning. */
  claims: number;
  /** Warnings by code ('predicate_class', 'type_constraint', 'unknown_type'). */
  by_code: Record<string, number>;
  /** Up to 20 claim ids with warnings, oldest first. */
  examples: string[];
}

export function vocabularyWarnings(rc: ReadContext): VocabularyWarnings {
  const s = rc.s;
  const r = s.registry;
  const out: VocabularyWarnings = { claims: 0, by_code: {}, examples: [] };
  if (!r.constrainsClaims) return out;
  // A fact's warnings depend on its types and predicate, and on the claim's own class only when the
  // predicate's rule names one: facts are judged once, claims' classes read only where they matter.
  // The same holds for the claim's own types when an end of the fact was stated with a type other than its
  // entity's (unified types: a protein claim about an entity first stated as a gene).
  const factWarnings = new Map<number, string[]>();
  const others = s.entityOtherTypes;
  for (let c = 0; c < s.claimCount; c++) {
    if (!rc.isLive(c)) continue;
    const f = s.claimFact[c]!;
    const predicate = s.predName[s.factP[f]!]!;
    const perClaim =
      r.requiredClass(predicate) !== undefined ||
      (others.size !== 0 && (others.has(s.factS[f]!) || others.has(s.factO[f]!)));
    let codes = perClaim ? undefined : factWarnings.get(f);
    if (codes === undefined) {
      let subjectType = s.entityType[s.factS[f]!]!;
      let objectType = s.entityType[s.factO[f]!]!;
      let cls = s.predClass[s.factP[f]!]!;
      if (perClaim) {
        const e = s.claimEntryOf(c);
        subjectType = normalizeToken(e.subject[1]);
        objectType = normalizeToken(e.object[1]);
        cls = normalizeToken(e.predicate[1]);
      }
      codes = r.violations(subjectType, predicate, cls, objectType).map((w) => w.code);
      if (!perClaim) factWarnings.set(f, codes);
    }
    if (codes.length === 0) continue;
    out.claims++;
    for (const code of codes) out.by_code[code] = (out.by_code[code] ?? 0) + 1;
    if (out.examples.length < 20) out.examples.push(s.claimIdOf(c));
  }
  return out;
}
