// The vocabularies that ship with the library, by namespace: registerVocabulary(name) and
// quickstart(path, { vocabs: [...] }) take these names.
import type { Vocabulary } from '../model/registry.js';
import { bio } from './bio.js';
import { devops } from './devops.js';
import { ml } from './ml.js';

export { bio, devops, ml };

export const builtinVocabularies: Record<string, Vocabulary> = { bio, devops, ml };
