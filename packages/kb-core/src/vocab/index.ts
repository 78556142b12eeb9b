// The vocabularies that ship with the library, by namespace: registerVocabulary(name) and
// quickstart(path, { vocabs: [...] }) take these names.
import type { Vocabulary } from '../model/registry.js';
import { bio } from './bio.js';
import { devops } from './devops.js';
import { ml } from './ml.js';

export { bio, devops, ml };

export const builtinVocabularies: Record<string, Vocabulary> = { bio, devops, ml };

/**
 * The vocabularies whose reasoning tables (opposite_predicates, predicate_compositions) every base uses, whether
 * or not it registers them: before vocabularies declared their own tables, every base reasoned with bio's, and
 * a base that registers none (KbDB.open) still does. The vocabularies a base registers add theirs.
 */
export const defaultReasoningVocabularies: readonly Vocabulary[] = [bio];
