// How a job's entities are named in the KB so that its claims read well: the target by its gene symbol (the
// accession an alias), a designed molecule by a label within its job (its InChIKey the entity's id). Aliases are
// the KB's vocabulary synonyms: a name that resolves to the entity another name made, registered before the
// claims are written, so that the claims' own spellings are the readable ones.
import type { KbDB, Vocabulary } from '@evident/kb';
import { geneIndex } from '@evident/target-discovery';

/** type -> canonical name -> its aliases (Vocabulary.synonyms). */
export type Names = Record<string, Record<string, string[]>>;

/**
 * The gene symbol of a UniProt accession, from the human gene table target discovery ships (HGNC symbols with
 * their Swiss-Prot accessions; an isoform suffix such as P00533-2 is ignored); null for an accession it lacks.
 */
export function geneSymbolOf(accession: string): string | null {
  return geneIndex().resolveAs('uniprot', accession)?.symbol ?? null;
}

/** The readable name of a job's molecule: its job and its rank there (`cg_… #1`). */
export const moleculeLabel = (jobId: string, rank: number) => `${jobId} #${rank}`;

/** Adds `alias` as another name of [canonical, type]. */
export function addName(names: Names, type: string, canonical: string, alias: string): void {
  names[type] ??= {};
  const table = names[type];
  table[canonical] ??= [];
  const list = table[canonical];
  if (!list.includes(alias)) list.push(alias);
}

/** The vocabulary namespace holding one job's names. */
export const namesNamespace = (jobId: string) => `evident-job.${jobId}`;

/**
 * Registers the job's names as a vocabulary of its own (synonyms only: no entity types, which would switch on
 * type checks in a base that has none), once: an export repeated finds the namespace and appends nothing.
 * Returns the aliases registered now.
 */
export async function registerNames(db: KbDB, jobId: string, names: Names): Promise<string[]> {
  const aliases = Object.values(names).flatMap((t) => Object.values(t).flat());
  if (aliases.length === 0) return [];
  const namespace = namesNamespace(jobId);
  if ((await db.schema()).registered.vocabularies.includes(namespace)) return [];
  const vocab: Vocabulary = { description: `names of the entities of evident job ${jobId}`, synonyms: names };
  await db.registerVocabulary(namespace, vocab);
  return aliases;
}
