// What heuristic extraction reads from a base (its seed, plain data), the extraction context built from it, and
// where the process runs ingestText's heuristic extraction (on this thread, or through a TextExtractor).
import { builtinVocabularies, bio, type KbDB, type Vocabulary } from '@evident/kb-core';
import {
  contextFrom,
  extractHeuristic,
  type ExtractContext,
  type ExtractOutput,
  type PredicateRule,
} from './heuristic.js';

/**
 * What heuristic extraction reads from a base, as plain data (it crosses to another thread or process): the
 * vocabularies registered in the base (those shipped with the library) and `extra`, the registered predicates'
 * type constraints (none when no predicate is registered), and the base's entity names with their types.
 */
export interface ExtractSeed {
  vocabularies: Vocabulary[];
  predicates?: Record<string, PredicateRule>;
  entities: [name: string, type: string][];
}

export async function extractSeed(db: KbDB, extra: Vocabulary[] = []): Promise<ExtractSeed> {
  const schema = await db.schema();
  const vocabularies = schema.registered.vocabularies
    .map((n) => builtinVocabularies[n])
    .filter((v): v is Vocabulary => v !== undefined);
  vocabularies.push(...extra);
  const registered = schema.registered.predicates;
  // Without registered predicates nothing constrains types; the bio table still guides the choice among
  // a trigger's candidate predicates ('induces' -> causes | activates | upregulates).
  let predicates: Record<string, PredicateRule> | undefined;
  if (Object.keys(registered).length) {
    predicates = {};
    for (const [k, r] of Object.entries(registered))
      predicates[k] = {
        ...(r.predicate_class ? { predicate_class: r.predicate_class } : {}),
        subject_types: r.subject_types,
        object_types: r.object_types,
      };
  }
  const entities = (await db.listEntities({ limit: 200_000 })).map((e): [string, string] => [e.name, e.type]);
  return { vocabularies, ...(predicates ? { predicates } : {}), entities };
}

/** The extraction context of a seed: the lexicon (vocabularies, then the base's names) and the predicate rules. */
export function contextOfSeed(seed: ExtractSeed): ExtractContext {
  const ctx = contextFrom(seed.vocabularies.length ? seed.vocabularies : [bio], seed.predicates);
  for (const [name, type] of seed.entities) ctx.lexicon.add(name, name, type);
  return ctx;
}

/** Vocabularies registered in the base (those shipped with the library), plus the base's own entity names. */
export async function extractContext(db: KbDB, extra: Vocabulary[] = []): Promise<ExtractContext> {
  return contextOfSeed(await extractSeed(db, extra));
}

/**
 * What ingestText's 'heuristic' extraction finds in `text` over a base's seed: pure and synchronous, so that a
 * server can run it on another thread or process (see TextExtractor).
 */
export function extractTextHeuristic(text: string, seed: ExtractSeed): ExtractOutput {
  return extractHeuristic(text, contextOfSeed(seed));
}

/**
 * Where ingestText's 'heuristic' extraction runs: by default on the caller's thread (extractTextHeuristic); a
 * server sets one that runs it elsewhere (kb-console: a child process with a heap cap and a time budget) with
 * useTextExtractor, for every base of the process. It answers what extractTextHeuristic answers, or rejects.
 */
export type TextExtractor = (text: string, seed: ExtractSeed) => Promise<ExtractOutput>;

let textExtractor: TextExtractor | undefined;

/** The process's TextExtractor, if one is set. */
export const textExtractorInUse = (): TextExtractor | undefined => textExtractor;

/** Sets (or, with undefined, clears) the process's TextExtractor. */
export function useTextExtractor(extractor: TextExtractor | undefined): void {
  textExtractor = extractor;
}
