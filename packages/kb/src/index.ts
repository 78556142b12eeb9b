// @evident/kb: the user's entry point. See README.md.
// The library is @evident/kb-core; extraction and review are @evident/kb-extract. Every base opened from here
// (open, quickstart, KbDB.open, KbDB.restore) gets an extraction of its own, so ingestText, ingestChat,
// ingestChatFile, ingestTeamChat, curate and configureCurator work on it. Nothing here loads a language-model
// SDK: a provider's package is imported when a model of it is first called.
import * as core from '@evident/kb-core';
import { createExtraction } from '@evident/kb-extract';
import { openEmbedding, type EmbeddingOpenOptions } from './embedding.js';

export * from '@evident/kb-core';
export * from '@evident/kb-extract';
// Named here so that no other module's export of the same name can make it ambiguous (and drop it).
export { KbEmbeddingError } from '@evident/kb-extract';

// Anything but an options object is handed on as it is, for kb-core to refuse naming the argument. An options
// object gets an extraction (unless it has one) and its `embedding` translated (embedding.ts); `embedding_dim`
// goes on as it is.
async function prepare<O extends object>(options: unknown): Promise<O> {
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options)))
    return options as O;
  const { embedding, ...rest } = (options ?? {}) as EmbeddingOpenOptions & Extracting;
  const translated = await openEmbedding({
    ...(embedding !== undefined ? { embedding } : {}),
    ...(rest.embedding_dim !== undefined ? { embedding_dim: rest.embedding_dim } : {}),
  });
  return {
    ...rest,
    extraction: rest.extraction ?? createExtraction(),
    ...(translated !== undefined ? { embedding: translated } : {}),
  } as unknown as O;
}
type Extracting = { extraction?: core.ExtractionPort };

/** kb-core's options, with `embedding` as users write it (a provider configuration, 'local' or false). */
export type OpenOptions = Omit<core.OpenOptions, 'embedding'> & EmbeddingOpenOptions;
export type QuickstartOptions = Omit<core.QuickstartOptions, 'embedding'> & EmbeddingOpenOptions;
export {
  coreEmbedding,
  openEmbedding,
  type CoreEmbedding,
  type EmbeddingOpenOptions,
  type EmbeddingSpec,
} from './embedding.js';

/**
 * Opens (creating if needed) the base at `path`: a file path or a postgres:// URL. A bad `embedding`
 * configuration (unknown provider, missing key, bad base URL) fails here with KbEmbeddingError.
 */
export async function open(path: string, options?: OpenOptions): Promise<core.KbDB> {
  return core.KbDB.open(path, await prepare<core.OpenOptions>(options));
}

/** Opens (creating if needed) a base and registers the named shipped vocabularies not registered yet. */
export async function quickstart(path: string, options?: QuickstartOptions): Promise<core.KbDB> {
  return core.quickstart(path, await prepare<core.QuickstartOptions>(options));
}

const statics = {
  open,
  restore: async (src: string, dest: string, options?: OpenOptions) =>
    core.KbDB.restore(src, dest, await prepare<core.OpenOptions>(options)),
};

/**
 * The KbDB class (instanceof and every static work as on kb-core's), whose `open` and `restore` open with
 * extraction like `open` above.
 */
export const KbDB: typeof core.KbDB = new Proxy(core.KbDB, {
  get: (target, key, receiver) =>
    key in statics ? statics[key as keyof typeof statics] : Reflect.get(target, key, receiver),
});
export type KbDB = core.KbDB;

// The db-first functions the package exported before the split, kept for callers of them: each is the method.
export const ingestText = (db: core.KbDB, text: string, options?: core.IngestTextOptions) =>
  db.ingestText(text, options);
export const ingestChat = (db: core.KbDB, messages: unknown[], options?: core.IngestChatOptions) =>
  db.ingestChat(messages, options);
export const ingestChatFile = (db: core.KbDB, path: string, options?: core.IngestChatFileOptions) =>
  db.ingestChatFile(path, options);
export const ingestTeamChat = (db: core.KbDB, path: string, options?: core.IngestTeamChatOptions) =>
  db.ingestTeamChat(path, options);
export const curate = (db: core.KbDB, claims: core.ClaimInput[]) => db.curate(claims);
/** Sets the reviewer at once (as before); the promise reports the outcome (a missing key rejects it). */
export const configureCurator = (db: core.KbDB, spec: core.CuratorSpec) => db.configureCurator(spec);
