// open() and quickstart(): the entry points of kb-core ('@evident/kb' wraps them to add extraction).
import { KbValidationError } from '../errors.js';
import { builtinVocabularies } from '../vocab/index.js';
import { KbDB } from './kb.js';
import { openOptionsOf, quickstartOptionsOf } from './options.js';
import type { Backend, Curator, OpenOptions, QuickstartOptions } from './options.js';

/** Opens (creating if needed) the base at `path`: `open(path, backend?, options?)` or `open(path, options)`. */
export function open(path: string, backend?: Backend | null, options?: OpenOptions): Promise<KbDB>;
export function open(path: string, options?: OpenOptions): Promise<KbDB>;
export async function open(path: string, ...rest: unknown[]): Promise<KbDB> {
  return KbDB.open(path, openOptionsOf(rest));
}

/**
 * Opens (creating if needed) a base and registers the named shipped vocabularies not registered yet. Seed
 * form: `quickstart(path, vocabs, curator)`, optionally followed by an options object; or
 * `quickstart(path, options)`.
 */
export function quickstart(
  path: string,
  vocabs?: string[] | null,
  curator?: Curator | null,
  options?: QuickstartOptions,
): Promise<KbDB>;
export function quickstart(path: string, vocabs: string[] | null, options?: QuickstartOptions): Promise<KbDB>;
export function quickstart(path: string, options?: QuickstartOptions): Promise<KbDB>;
export async function quickstart(path: string, ...rest: unknown[]): Promise<KbDB> {
  const options = quickstartOptionsOf(rest);
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
