// The embedding providers: where their keys and base URLs come from, their default models and the vector
// lengths of the models we know, and how much one request may carry. The SDK packages are imported on first
// use (as for the language models), so configuring a provider loads none of them.
import type { EmbeddingModel } from 'ai';
import { PROVIDERS } from '../providers/index.js';

export type EmbeddingProviderName = 'openai' | 'google' | 'mistral' | 'cohere' | 'ollama' | 'openai-compatible';

type ProviderOptions = Record<string, Record<string, string | number>>;

export interface EmbeddingProviderInfo {
  /** Environment variables holding the API key, first found wins. */
  env: string[];
  /** Whether a call without a key is refused at construction (Ollama and OpenAI-compatible servers need none). */
  key_required: boolean;
  /** Environment variable that may override the base URL. */
  base_url_env: string;
  /** The SDK's default (informative); undefined: base_url must be given. */
  default_base_url: string | undefined;
  /** Undefined: model must be given. */
  default_model: string | undefined;
  /** The API's limit of inputs per request. */
  max_batch: number;
  /** Inputs per request unless batch_size says otherwise. */
  default_batch: number;
  /**
   * Characters per request, so that a batch stays under the API's token limit per request (OpenAI 300k tokens,
   * Mistral 16k) even when texts are long; at least one character a token, usually four.
   */
  max_batch_chars: number;
  /** Native vector lengths of known models (a fact about the model, so it is checked from the first answer). */
  dims: Record<string, number>;
  /** Provider options asking the API for `dim` entries, where the API can shorten its vectors. */
  dimensionOptions?: (model: string, dim: number) => ProviderOptions | undefined;
  /** Provider options sent with every call. */
  callOptions?: ProviderOptions;
}

export const EMBEDDING_PROVIDERS: Record<EmbeddingProviderName, EmbeddingProviderInfo> = {
  openai: {
    env: PROVIDERS.openai.env,
    key_required: true,
    base_url_env: PROVIDERS.openai.base_url_env,
    default_base_url: 'https://api.openai.com/v1',
    default_model: 'text-embedding-3-small',
    max_batch: 2048,
    default_batch: 512,
    max_batch_chars: 250_000,
    dims: { 'text-embedding-3-small': 1536, 'text-embedding-3-large': 3072, 'text-embedding-ada-002': 1536 },
    // Only the text-embedding-3 models take `dimensions`; ada-002 refuses it.
    dimensionOptions: (model, dim) =>
      model.startsWith('text-embedding-3') ? { openai: { dimensions: dim } } : undefined,
  },
  google: {
    env: PROVIDERS.google.env,
    key_required: true,
    base_url_env: PROVIDERS.google.base_url_env,
    default_base_url: 'https://generativelanguage.googleapis.com/v1beta',
    default_model: 'gemini-embedding-001',
    // batchEmbedContents takes at most 100 requests.
    max_batch: 100,
    default_batch: 100,
    max_batch_chars: 200_000,
    dims: { 'gemini-embedding-001': 3072, 'text-embedding-004': 768, 'embedding-001': 768 },
    dimensionOptions: (_model, dim) => ({ google: { outputDimensionality: dim } }),
  },
  mistral: {
    env: PROVIDERS.mistral.env,
    key_required: true,
    base_url_env: PROVIDERS.mistral.base_url_env,
    default_base_url: 'https://api.mistral.ai/v1',
    default_model: 'mistral-embed',
    max_batch: 32,
    default_batch: 32,
    max_batch_chars: 32_000,
    dims: { 'mistral-embed': 1024, 'codestral-embed': 1536 },
  },
  cohere: {
    env: ['COHERE_API_KEY'],
    key_required: true,
    base_url_env: 'COHERE_BASE_URL',
    default_base_url: 'https://api.cohere.com/v2',
    default_model: 'embed-v4.0',
    max_batch: 96,
    default_batch: 96,
    max_batch_chars: 400_000,
    dims: {
      'embed-v4.0': 1536,
      'embed-english-v3.0': 1024,
      'embed-multilingual-v3.0': 1024,
      'embed-english-light-v3.0': 384,
      'embed-multilingual-light-v3.0': 384,
    },
    // One port embeds both claims and queries; claims are what is stored, so they get the document type. A
    // text over the model's context is cut at its end rather than refused.
    callOptions: { cohere: { inputType: 'search_document', truncate: 'END' } },
  },
  ollama: {
    env: ['OLLAMA_API_KEY'],
    key_required: false,
    base_url_env: 'OLLAMA_BASE_URL',
    default_base_url: 'http://127.0.0.1:11434/v1',
    default_model: 'nomic-embed-text',
    max_batch: 2048,
    default_batch: 64,
    max_batch_chars: 200_000,
    dims: {
      'nomic-embed-text': 768,
      'mxbai-embed-large': 1024,
      'all-minilm': 384,
      'snowflake-arctic-embed': 1024,
      'bge-m3': 1024,
    },
  },
  'openai-compatible': {
    env: ['OPENAI_COMPATIBLE_API_KEY'],
    key_required: false,
    base_url_env: 'OPENAI_COMPATIBLE_BASE_URL',
    default_base_url: undefined,
    default_model: undefined,
    max_batch: 2048,
    default_batch: 64,
    max_batch_chars: 200_000,
    dims: {},
  },
};

export const EMBEDDING_PROVIDER_NAMES = Object.keys(EMBEDDING_PROVIDERS) as EmbeddingProviderName[];

/** The native length of a known model (Ollama's `name:latest` is `name`), or undefined. */
export function knownDim(provider: EmbeddingProviderName, model: string): number | undefined {
  const dims = EMBEDDING_PROVIDERS[provider].dims;
  return dims[model] ?? (model.endsWith(':latest') ? dims[model.slice(0, -':latest'.length)] : undefined);
}

export interface ModelSettings {
  apiKey: string | undefined;
  baseURL: string | undefined;
}

/**
 * Each provider's embedding model from its SDK package. Ollama is reached through its OpenAI-compatible
 * /v1/embeddings API with @ai-sdk/openai-compatible: Ollama documents that API as stable, and it spares a
 * community provider package that tracks the SDK's majors on its own schedule.
 */
export const MODEL_FACTORIES: Record<
  EmbeddingProviderName,
  () => Promise<(settings: ModelSettings, model: string) => EmbeddingModel<string>>
> = {
  // Deliberate likeness: one loader per provider, each importing its own SDK only when it is used.
  openai: async () => {
    const { createOpenAI } = await import('@ai-sdk/openai');
    return (s, model) => createOpenAI(settingsOf(s)).textEmbeddingModel(model);
  },
  google: async () => {
    const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
    return (s, model) => createGoogleGenerativeAI(settingsOf(s)).textEmbeddingModel(model);
  },
  mistral: async () => {
    const { createMistral } = await import('@ai-sdk/mistral');
    return (s, model) => createMistral(settingsOf(s)).textEmbeddingModel(model);
  },
  cohere: async () => {
    const { createCohere } = await import('@ai-sdk/cohere');
    return (s, model) => createCohere(settingsOf(s)).textEmbeddingModel(model);
  },
  ollama: async () => {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    return (s, model) =>
      createOpenAICompatible({ name: 'ollama', baseURL: s.baseURL ?? '', ...keyOf(s) }).textEmbeddingModel(model);
  },
  'openai-compatible': async () => {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    return (s, model) =>
      createOpenAICompatible({ name: 'openai-compatible', baseURL: s.baseURL ?? '', ...keyOf(s) }).textEmbeddingModel(
        model,
      );
  },
};

const keyOf = (s: ModelSettings) => (s.apiKey ? { apiKey: s.apiKey } : {});
const settingsOf = (s: ModelSettings) => ({ ...keyOf(s), ...(s.baseURL ? { baseURL: s.baseURL } : {}) });
