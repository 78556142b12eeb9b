// Checks an embedding configuration once, at construction: the provider exists, its key is there, the base URL
// passes the URL check, every number is in range. Every refusal is a KbEmbeddingError('embedding_config')
// naming the option (or the environment variable) at fault; the key itself never appears in one.
import { EMBEDDING_PROVIDER_NAMES, EMBEDDING_PROVIDERS, knownDim, type EmbeddingProviderName } from './catalog.js';
import { KbEmbeddingError } from './errors.js';
import { baseUrlProblem } from './url.js';

export interface EmbeddingConfig {
  provider: EmbeddingProviderName;
  /** Default per provider (see EMBEDDING_PROVIDERS); required for 'openai-compatible'. */
  model?: string;
  /**
   * Vector length. Given: every vector must have it (and where the API can shorten vectors, it is asked to).
   * Not given: the model's known length, or learned from the first answer and then fixed.
   */
  dim?: number;
  /** Overrides `<PROVIDER>_BASE_URL`; required for 'openai-compatible'. */
  base_url?: string;
  /** Overrides the environment; never logged, never stored. */
  api_key?: string;
  /** Per attempt. Default 30 s. */
  timeout_ms?: number;
  /** Retries after the first attempt on 429, 5xx and timeouts. Default 3. */
  max_retries?: number;
  /** First backoff delay, doubled per retry, capped at 30 s (a Retry-After answer wins). Default 500 ms. */
  backoff_ms?: number;
  /** Texts per request, up to the provider's limit. Default per provider. */
  batch_size?: number;
  /** Characters of one text sent; longer texts are cut. Default 8000. */
  max_input_chars?: number;
}

export const EMBEDDING_CONFIG_KEYS = [
  'provider',
  'model',
  'dim',
  'base_url',
  'api_key',
  'timeout_ms',
  'max_retries',
  'backoff_ms',
  'batch_size',
  'max_input_chars',
] as const;

export const EMBEDDING_DEFAULTS = { timeout_ms: 30_000, max_retries: 3, backoff_ms: 500, max_input_chars: 8000 };
export const MAX_DIM = 65_536;
const MAX_MODEL_LENGTH = 256;

export interface ResolvedEmbeddingConfig {
  provider: EmbeddingProviderName;
  model: string;
  /** The length every vector must have; undefined until learned. */
  dim: number | undefined;
  /** Whether `dim` was given (then the API is asked for it where it can shorten vectors). */
  dim_given: boolean;
  base_url: string | undefined;
  api_key: string | undefined;
  timeout_ms: number;
  max_retries: number;
  backoff_ms: number;
  batch_size: number;
  max_batch_chars: number;
  max_input_chars: number;
}

export function resolveEmbeddingConfig(
  config: EmbeddingConfig,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedEmbeddingConfig {
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    throw new KbEmbeddingError('embedding_config', '?', 'must be an object { provider, model?, dim?, base_url? }');
  const name = config.provider;
  if (typeof name !== 'string' || !(EMBEDDING_PROVIDER_NAMES as string[]).includes(name)) {
    throw new KbEmbeddingError(
      'embedding_config',
      String(name),
      `unknown provider '${String(name)}'; use one of ${EMBEDDING_PROVIDER_NAMES.join(', ')}`,
      { field: 'provider' },
    );
  }
  const provider = name as EmbeddingProviderName;
  const info = EMBEDDING_PROVIDERS[provider];
  const refuse = (field: string, message: string) =>
    new KbEmbeddingError('embedding_config', provider, message, { field });
  for (const key of Object.keys(config))
    if (!(EMBEDDING_CONFIG_KEYS as readonly string[]).includes(key))
      throw refuse(key, `unknown option; use ${EMBEDDING_CONFIG_KEYS.join(', ')}`);

  const model = config.model ?? info.default_model;
  if (model === undefined) throw refuse('model', `${provider} has no default model; name one`);
  if (typeof model !== 'string' || model === '' || model.length > MAX_MODEL_LENGTH || /[\s\p{Cc}]/u.test(model))
    throw refuse('model', `must be a model name (1..${MAX_MODEL_LENGTH} characters, no spaces)`);
  // Google puts the model in the request's path; the others send it in the body.
  if (provider === 'google' && /[/?#%]/.test(model)) throw refuse('model', "must not contain '/', '?', '#' or '%'");

  if (config.api_key !== undefined && (typeof config.api_key !== 'string' || config.api_key.trim() === ''))
    throw refuse('api_key', 'must be a non-empty string');
  const apiKey = config.api_key ?? info.env.map((k) => env[k]).find((v) => v !== undefined && v.trim() !== '');
  if (!apiKey && info.key_required)
    throw refuse('api_key', `no API key: set ${info.env.join(' or ')} in the environment (or pass api_key)`);

  const fromEnv = config.base_url === undefined ? env[info.base_url_env] : undefined;
  const baseUrl = config.base_url ?? (fromEnv?.trim() ? fromEnv : undefined) ?? info.default_base_url;
  const urlField = config.base_url === undefined && fromEnv?.trim() ? info.base_url_env : 'base_url';
  if (baseUrl === undefined)
    throw refuse('base_url', `${provider} needs the server's base URL (or ${info.base_url_env} in the environment)`);
  const problem = baseUrlProblem(baseUrl, Boolean(apiKey));
  if (problem) throw refuse(urlField, problem);

  const int = (field: keyof EmbeddingConfig, fallback: number, min: number, max: number): number => {
    const v = config[field] ?? fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      throw refuse(field, `must be an integer from ${min} to ${max}`);
    return v;
  };
  const given = config.dim !== undefined;
  const dim = given ? int('dim', 0, 1, MAX_DIM) : knownDim(provider, model);
  return {
    provider,
    model,
    dim,
    dim_given: given,
    // The SDK defaults apply when nothing was given; the URL is kept only to be reported.
    base_url: baseUrl,
    api_key: apiKey || undefined,
    timeout_ms: int('timeout_ms', EMBEDDING_DEFAULTS.timeout_ms, 1, 600_000),
    max_retries: int('max_retries', EMBEDDING_DEFAULTS.max_retries, 0, 10),
    backoff_ms: int('backoff_ms', EMBEDDING_DEFAULTS.backoff_ms, 0, 60_000),
    batch_size: int('batch_size', info.default_batch, 1, info.max_batch),
    max_batch_chars: info.max_batch_chars,
    max_input_chars: int('max_input_chars', EMBEDDING_DEFAULTS.max_input_chars, 1, 1_000_000),
  };
}
