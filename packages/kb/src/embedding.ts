// The `embedding` option of open/quickstart/restore as users write it, translated into kb-core's: a provider
// configuration becomes a port (createEmbeddingPort, which checks the provider, its key and its base URL right
// here, so a bad configuration fails at open), 'local' leaves the port out (kb-core's own embedder), false
// turns embeddings off. The upstream's `embedding_dim` goes on to kb-core as it is (the local embedder's length,
// or null for off); with a provider it is also the port's `dim`, so the two agree.
import type { EmbeddingPort } from '@evident/kb-core';
import {
  createEmbeddingPort,
  EMBEDDING_PROVIDER_NAMES,
  KbEmbeddingError,
  type EmbeddingConfig,
  type EmbeddingProviderName,
} from '@evident/kb-extract';

/** A hosted or local provider (see kb-extract's README), or 'local', kb-core's offline embedder. */
export type EmbeddingSpec =
  | { provider: 'local' }
  | (Omit<EmbeddingConfig, 'provider'> & { provider: EmbeddingProviderName })
  /** An embedder of one's own, handed to kb-core as it is. */
  | { port: EmbeddingPort };

export interface EmbeddingOpenOptions {
  /** Default: 'local'. false: no embeddings (search is lexical only). */
  embedding?: EmbeddingSpec | false;
  /** The upstream's option: a vector length (embeddings on), or null (off). */
  embedding_dim?: number | null;
}

/** What kb-core's open takes (kb-core's OpenOptions.embedding). */
export type CoreEmbedding = { port?: EmbeddingPort } | false;

const MAX_DIM = 65_536;

function configError(field: string, message: string, provider = 'local'): KbEmbeddingError {
  return new KbEmbeddingError('embedding_config', provider, message, { field });
}

/**
 * kb-core's `embedding` for these options, or undefined when `embedding` is not given (kb-core's default,
 * shaped by `embedding_dim`). Throws KbEmbeddingError('embedding_config') naming `embedding.<field>`,
 * `embedding_dim`, or the environment variable.
 */
export function coreEmbedding(
  options: EmbeddingOpenOptions,
  env: NodeJS.ProcessEnv = process.env,
): CoreEmbedding | undefined {
  const { embedding, embedding_dim: dim } = options;
  if (
    dim !== undefined &&
    dim !== null &&
    (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 1 || dim > MAX_DIM)
  )
    throw configError('embedding_dim', `must be an integer from 1 to ${MAX_DIM}, or null for no embeddings`);
  if (embedding === undefined) return undefined;
  if (embedding === false) {
    if (typeof dim === 'number') throw configError('embedding_dim', 'turns embeddings on, but embedding is false');
    return false;
  }
  if (embedding === null || typeof embedding !== 'object' || Array.isArray(embedding))
    throw configError('embedding', "must be { provider: 'local' | a provider name, model?, dim?, base_url? } or false");
  if (dim === null) throw configError('embedding_dim', 'is null (no embeddings), but embedding configures them');
  if ('port' in embedding) {
    const extra = Object.keys(embedding).filter((k) => k !== 'port');
    if (extra.length) throw configError(`embedding.${extra[0]}`, 'a port comes alone');
    if (!isPort(embedding.port))
      throw configError('embedding.port', 'must have provider, model, dim and embed(texts, { signal })');
    return { port: embedding.port };
  }
  const provider = (embedding as { provider?: unknown }).provider ?? 'local';
  if (provider === 'local') {
    const extra = Object.keys(embedding).filter((k) => k !== 'provider');
    if (extra.length)
      throw configError(`embedding.${extra[0]}`, 'the local embedder takes no options (embedding_dim sets its length)');
    return {};
  }
  if (typeof provider !== 'string' || !(EMBEDDING_PROVIDER_NAMES as string[]).includes(provider)) {
    throw configError(
      'embedding.provider',
      `unknown provider '${String(provider)}'; use local, ${EMBEDDING_PROVIDER_NAMES.join(', ')}`,
      String(provider),
    );
  }
  const config = { ...embedding } as EmbeddingConfig;
  if (typeof dim === 'number') {
    if (config.dim !== undefined && config.dim !== dim)
      throw configError('embedding_dim', `is ${dim}, but embedding.dim is ${String(config.dim)}`, provider);
    config.dim = dim;
  }
  try {
    return { port: createEmbeddingPort(config, env) };
  } catch (e) {
    throw e instanceof KbEmbeddingError && e.field && !/^[A-Z_]+$/.test(e.field) ? e.under('embedding') : e;
  }
}

/**
 * coreEmbedding, and when the port's vector length is not known yet (a model outside the known table, no
 * `dim`), one short request learns it: kb-core sizes its index when the base opens. A failed request fails
 * the open with embedding_config, saying that `dim` opens without asking.
 */
export async function openEmbedding(
  options: EmbeddingOpenOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CoreEmbedding | undefined> {
  const choice = coreEmbedding(options, env);
  if (choice === undefined || choice === false || !choice.port) return choice;
  if (choice.port.dim > 0 || 'port' in (options.embedding as object)) return choice;
  const port = choice.port;
  try {
    await port.embed(['dimension probe']);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new KbEmbeddingError(
      'embedding_config',
      port.provider,
      `the length of ${port.model}'s vectors is not known, and asking for one failed (${why}); give dim to open without asking`,
      { field: 'embedding.dim', cause: e },
    );
  }
  return choice;
}

function isPort(p: unknown): p is EmbeddingPort {
  const o = p as EmbeddingPort | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.provider === 'string' &&
    typeof o.model === 'string' &&
    typeof o.dim === 'number' &&
    typeof o.embed === 'function'
  );
}
