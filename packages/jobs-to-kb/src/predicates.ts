// The predicates the export writes, as the `bio` vocabulary defines them. A base that lacks any of them (a base
// without `bio`) gets that predicate registered, so its type constraints hold; a base that has them all gets no
// new log entry, which keeps a repeated export a no-op. A base that registered an older `bio` (before the
// `condition` type: upregulated_in took disease | phenotype only) gets the current definitions, with the entity
// types they name, in one vocabulary of the export's own: its constraints would otherwise refuse (strict base) or
// flag every condition the export writes.
import { bio, type KbDB, type PredicateSpec } from '@evident/kb';

export const EXPORT_PREDICATES = ['upregulated_in', 'downregulated_in', 'designed_for', 'predicted_to_bind'] as const;

/** The vocabulary that brings an older `bio`'s export predicates up to date. */
export const EXPORT_VOCABULARY = 'evident-jobs';

type Registered = { subject_types: string[]; object_types: string[]; namespace: string };

/** Whether a registered rule accepts every type the shipped one does (an empty list constrains nothing). */
const covers = (have: string[], want: string[] | undefined) =>
  have.length === 0 || (want ?? []).every((t) => have.includes(t));

export async function ensurePredicates(db: KbDB): Promise<string[]> {
  const have = (await db.schema()).registered.predicates as Record<string, Registered | undefined>;
  const specs: Record<string, PredicateSpec> = {};
  const missing: string[] = [];
  const outdated: string[] = [];
  for (const name of EXPORT_PREDICATES) {
    const spec = bio.predicates?.[name];
    if (!spec) throw new Error(`the bio vocabulary has no predicate ${name}`); // a packaging fault, not the caller's
    specs[name] = spec;
    const h = have[name];
    if (h === undefined) missing.push(name);
    // Only an older shipped `bio` is brought up to date: a rule the user registered is theirs.
    else if (
      h.namespace === 'bio' &&
      !(covers(h.subject_types, spec.subject_types) && covers(h.object_types, spec.object_types))
    )
      outdated.push(name);
  }
  if (outdated.length) {
    const registering = [...outdated, ...missing];
    const types = new Set(
      registering.flatMap((n) => [...(specs[n]!.subject_types ?? []), ...(specs[n]!.object_types ?? [])]),
    );
    await db.registerVocabulary(EXPORT_VOCABULARY, {
      description: 'the predicates evident-export writes, as the current bio vocabulary defines them',
      entity_types: [...types],
      predicates: Object.fromEntries(registering.map((n) => [n, specs[n]!])),
    });
    return registering;
  }
  for (const name of missing) await db.registerPredicate(name, specs[name]!);
  return missing;
}
