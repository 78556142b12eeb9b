// open() and quickstart(): the entry points of kb-core ('@evident/kb' wraps them to add extraction).
import { KbValidationError } from '../errors.js';
import { builtinVocabularies } from '../vocab/index.js';
import { KbDB } from './kb.js';
import { optionsOf } from './call-forms.js';
import { QUICKSTART_OPTION_KEYS, type OpenOptions, type QuickstartOptions } from './options.js';

export function open(path: string, options?: OpenOptions): Promise<KbDB> {
  return KbDB.open(path, options);
}

/** Opens (creating if needed) a base and registers the named shipped vocabularies not registered yet. */
export async function quickstart(path: string, o?: QuickstartOptions): Promise<KbDB> {
  const options = optionsOf<QuickstartOptions>(o, 'options', QUICKSTART_OPTION_KEYS);
  const vocabs = options.vocabs ?? ['bio'];
  if (!Array.isArray(vocabs))
    throw new KbValidationError('invalid_type', 'vocabs', 'must be an array of vocabulary names');
  for (const [i, v] of vocabs.entries()) {
    if (!(v in builtinVocabularies))
      throw new KbValidationError(
        'unknown_vocabulary',
        `vocabs[${i}]`,
        `no shipped vocabulary '${v}' (available: ${Object.keys(builtinVocabularies).join(', ')})`,
      );
  }
  const { vocabs: _v, ...openOptions } = options;
  const db = await KbDB.open(path, { ...openOptions, curator: options.curator ?? 'heuristic' });
  try {
    const have = (await db.schema()).registered.vocabularies;
    for (const v of vocabs) if (!have.includes(v)) await db.registerVocabulary(v);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}
