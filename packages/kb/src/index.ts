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

// The options object the call forms come to (kb-core's openOptionsOf / quickstartOptionsOf, which refuse
// anything else naming the argument) gets an extraction (unless it has one) and its `embedding` translated
// (embedding.ts); `embedding_dim` goes on as it is.
async function prepare<O extends object>(options: object): Promise<O> {
  const { embedding, ...rest } = options as EmbeddingOpenOptions & Extracting;
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
 * Opens (creating if needed) the base at `path`: a file path or a postgres:// URL. The seed's form
 * `open(path, backend)` (optionally followed by an options object) works beside `open(path, options)`. A bad
 * `embedding` configuration (unknown provider, missing key, bad base URL) fails here with KbEmbeddingError.
 */
export function open(path: string, backend?: core.Backend | null, options?: OpenOptions): Promise<core.KbDB>;
export function open(path: string, options?: OpenOptions): Promise<core.KbDB>;
export async function open(path: string, ...rest: unknown[]): Promise<core.KbDB> {
  return core.KbDB.open(path, await prepare<core.OpenOptions>(core.openOptionsOf(rest)));
}

/**
 * Opens (creating if needed) a base and registers the named shipped vocabularies not registered yet. The
 * seed's form `quickstart(path, vocabs, curator)` (optionally followed by an options object) works beside
 * `quickstart(path, options)`.
 */
export function quickstart(
  path: string,
  vocabs?: string[] | null,
  curator?: core.Curator | null,
  options?: QuickstartOptions,
): Promise<core.KbDB>;
export function quickstart(path: string, vocabs: string[] | null, options?: QuickstartOptions): Promise<core.KbDB>;
export function quickstart(path: string, options?: QuickstartOptions): Promise<core.KbDB>;
export async function quickstart(path: string, ...rest: unknown[]): Promise<core.KbDB> {
  return core.quickstart(path, await prepare<core.QuickstartOptions>(core.quickstartOptionsOf(rest)));
}

const statics = {
  open,
  restore: async (src: string, dest: string, ...rest: unknown[]) =>
    core.KbDB.restore(src, dest, await prepare<core.OpenOptions>(core.openOptionsOf(rest))),
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
