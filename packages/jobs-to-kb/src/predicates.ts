// The predicates the export writes, as the `bio` vocabulary defines them. A base that lacks any of them (a base
// without `bio`, or one that registered an older `bio`) gets that predicate registered, so its type constraints
// hold; a base that has them all gets no new log entry, which keeps a repeated export a no-op.
import { bio, type KbDB } from '@evident/kb';

export const EXPORT_PREDICATES = ['upregulated_in', 'downregulated_in', 'designed_for', 'predicted_to_bind'] as const;

export async function ensurePredicates(db: KbDB): Promise<string[]> {
  const have = (await db.schema()).registered.predicates;
  const added: string[] = [];
  for (const name of EXPORT_PREDICATES) {
    if (have[name] !== undefined) continue;
    const spec = bio.predicates?.[name];
    if (!spec) throw new Error(`the bio vocabulary has no predicate ${name}`); // a packaging fault, not the caller's
    await db.registerPredicate(name, spec);
    added.push(name);
  }
  return added;
}
