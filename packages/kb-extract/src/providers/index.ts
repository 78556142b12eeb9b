// Hosted language-model providers through the Vercel AI SDK. A provider is selected by lower-case name
// ('anthropic' or 'anthropic:claude-...'); its key comes from the environment and is checked when the
// provider is configured, so a missing key fails early instead of in the middle of an ingest. Calls are
// structured (the SDK validates the model's JSON against a zod schema) and bounded: a timeout per attempt,
// our own retries with exponential backoff on 429/5xx/timeouts (honouring retry-after), a cap on output
// tokens per call and a cap on prompt characters.
// The SDK ('ai') and the provider packages are loaded on first use (dynamic import), so that importing the
// library, or configuring a provider, loads none of them.
import type { LanguageModel } from 'ai';
import type { z } from 'zod';
import { KbError, type ProviderName, type ProviderOptions } from '@evident/kb-core';
import { extractStatus } from '../error-codes.js';
import { backoffMs, isTimeout, retryAfterMs, sleep } from './retry.js';

export type { ProviderName, ProviderOptions };

export interface ProviderInfo {
  /** Environment variables holding the API key, first found wins. */
  env: string[];
  /** Environment variable that may override the API base URL. */
  base_url_env: string;
  default_model: string;
}

export const PROVIDERS: Record<ProviderName, ProviderInfo> = {
  openai: { env: ['OPENAI_API_KEY'], base_url_env: 'OPENAI_BASE_URL', default_model: 'gpt-4o-mini' },
  anthropic: {
    env: ['ANTHROPIC_API_KEY'],
    base_url_env: 'ANTHROPIC_BASE_URL',
    default_model: 'claude-3-5-haiku-latest',
  },
  google: {
    env: ['GOOGLE_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    base_url_env: 'GOOGLE_BASE_URL',
    default_model: 'gemini-2.0-flash',
  },
  mistral: { env: ['MISTRAL_API_KEY'], base_url_env: 'MISTRAL_BASE_URL', default_model: 'mistral-small-latest' },
  groq: { env: ['GROQ_API_KEY'], base_url_env: 'GROQ_BASE_URL', default_model: 'llama-3.3-70b-versatile' },
  deepseek: { env: ['DEEPSEEK_API_KEY'], base_url_env: 'DEEPSEEK_BASE_URL', default_model: 'deepseek-chat' },
  xai: { env: ['XAI_API_KEY'], base_url_env: 'XAI_BASE_URL', default_model: 'grok-3-mini' },
};

export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

/** Provider configuration problems and failed provider calls. `provider` names which one. */
export class KbProviderError extends KbError {
  readonly provider: string;
  /**
   * `status`: the provider's own HTTP status when it answered 429 or 5xx (passed on as it is); otherwise
   * KB_EXTRACT_ERRORS' for the code: a configuration mistake (unknown_provider, invalid_model, missing_api_key,
   * invalid_option, no_provider, token_budget) is the caller's, 400; a refused key or unusable output is a bad
   * gateway, 502; a timeout, 504.
   */
  constructor(
    code: ProviderErrorCode,
    provider: string,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(code, `${provider}: ${message}`, { status: extractStatus(code, options.status), cause: options.cause });
    this.provider = provider;
  }
}

export type ProviderErrorCode =
  | 'no_provider'
  | 'unknown_provider'
  | 'invalid_model'
  | 'missing_api_key'
  | 'invalid_option'
  | 'token_budget'
  | 'provider_rate_limited'
  | 'provider_auth'
  | 'provider_error'
  | 'invalid_output'
  | 'provider_timeout';

export interface ResolvedProvider extends Required<Omit<ProviderOptions, 'api_key' | 'base_url'>> {
  base_url: string | undefined;
  /** The SDK model object, built on first use (it holds the key; never serialised). */
  languageModel: () => Promise<LanguageModel>;
}

const DEFAULTS = {
  timeout_ms: 60_000,
  max_retries: 3,
  backoff_ms: 1000,
  max_output_tokens: 2048,
  max_input_chars: 24_000,
  max_total_tokens: 200_000,
};

/** Parses 'anthropic' or 'anthropic:claude-3-5-haiku-latest' (also an options object). */
export function parseProviderSpec(spec: string | ProviderOptions): ProviderOptions {
  if (typeof spec === 'object' && spec !== null) return spec;
  if (typeof spec !== 'string' || spec.trim() === '')
    throw new KbProviderError(
      'unknown_provider',
      String(spec),
      `a provider must be named: ${PROVIDER_NAMES.join(', ')}`,
    );
  const i = spec.indexOf(':');
  const name = (i < 0 ? spec : spec.slice(0, i)).trim().toLowerCase();
  const model = i < 0 ? undefined : spec.slice(i + 1).trim();
  if (!(name in PROVIDERS))
    throw new KbProviderError(
      'unknown_provider',
      name,
      `unknown provider; use one of ${PROVIDER_NAMES.join(', ')} (optionally 'name:model')`,
    );
  if (model === '') throw new KbProviderError('invalid_model', name, "empty model name after ':'");
  return { provider: name as ProviderName, ...(model ? { model } : {}) };
}

/** Checks the key and builds the SDK model. Throws KbProviderError('missing_api_key') naming the variable. */
export function resolveProvider(
  spec: string | ProviderOptions,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedProvider {
  const o = parseProviderSpec(spec);
  const info = PROVIDERS[o.provider];
  if (!info)
    throw new KbProviderError(
      'unknown_provider',
      String(o.provider),
      `unknown provider; use one of ${PROVIDER_NAMES.join(', ')}`,
    );
  const apiKey = o.api_key ?? info.env.map((k) => env[k]).find((v) => v !== undefined && v.trim() !== '');
  if (!apiKey) {
    throw new KbProviderError(
      'missing_api_key',
      o.provider,
      `no API key: set ${info.env.join(' or ')} in the environment (or pass api_key)`,
    );
  }
  const baseURL = o.base_url ?? env[info.base_url_env] ?? undefined;
  const model = o.model ?? info.default_model;
  const numbers: Record<string, number> = {};
  for (const k of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    const v = o[k] ?? DEFAULTS[k];
    if (
      typeof v !== 'number' ||
      !Number.isFinite(v) ||
      v < 0 ||
      (k !== 'max_retries' && k !== 'backoff_ms' && v === 0)
    ) {
      throw new KbProviderError('invalid_option', o.provider, `${k} must be a positive number`);
    }
    numbers[k] = v;
  }
  const settings = { apiKey, ...(baseURL ? { baseURL } : {}) };
  const load = FACTORIES[o.provider];
  let built: Promise<LanguageModel> | undefined;
  const languageModel = () => (built ??= load().then((create) => create(settings)(model)));
  return { provider: o.provider, model, base_url: baseURL, languageModel, ...(numbers as typeof DEFAULTS) };
}

type ModelFactory = (settings: { apiKey: string; baseURL?: string }) => (model: string) => LanguageModel;

/** Each provider's SDK package, imported when a model of it is first called. */
const FACTORIES: Record<ProviderName, () => Promise<ModelFactory>> = {
  openai: async () => (await import('@ai-sdk/openai')).createOpenAI,
  anthropic: async () => (await import('@ai-sdk/anthropic')).createAnthropic,
  google: async () => (await import('@ai-sdk/google')).createGoogleGenerativeAI,
  mistral: async () => (await import('@ai-sdk/mistral')).createMistral,
  groq: async () => (await import('@ai-sdk/groq')).createGroq,
  deepseek: async () => (await import('@ai-sdk/deepseek')).createDeepSeek,
  xai: async () => (await import('@ai-sdk/xai')).createXai,
};

type Sdk = typeof import('ai');
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= import('ai'));

/** Tokens spent so far by one ingest/curate call; calls stop once the budget is spent. */
export class TokenBudget {
  used = 0;
  constructor(readonly limit: number) {}
  get exhausted(): boolean {
    return this.used >= this.limit;
  }
}

// generateObject's generic inference over zod schemas is too deep for the compiler here; the schema
// still validates at run time, and callers get the inferred type back from callStructured.
type Usage = { inputTokens?: number | undefined; outputTokens?: number | undefined };
type Generate = (o: Record<string, unknown>) => Promise<{ object: unknown; usage: Usage }>;

/**
 * One structured call: the model's output must parse and validate against `schema`. Retries transient
 * failures with backoff; anything else becomes a KbProviderError with a stable code.
 */
export async function callStructured<S extends z.ZodType>(
  p: ResolvedProvider,
  request: { system: string; prompt: string; schema: S; budget?: TokenBudget },
): Promise<z.infer<S>> {
  if (request.prompt.length > p.max_input_chars) {
    throw new KbProviderError(
      'token_budget',
      p.provider,
      `prompt of ${request.prompt.length} characters exceeds max_input_chars ${p.max_input_chars}`,
    );
  }
  if (request.budget?.exhausted)
    throw new KbProviderError('token_budget', p.provider, `token budget of ${request.budget.limit} spent`);
  const ai = await loadSdk();
  const { APICallError, NoObjectGeneratedError } = ai;
  const generate = ai.generateObject as unknown as Generate;
  const languageModel = await p.languageModel();
  let last: unknown;
  for (let attempt = 0; attempt <= p.max_retries; attempt++) {
    if (attempt > 0) {
      const headers = APICallError.isInstance(last) ? last.responseHeaders : undefined;
      await sleep(backoffMs(p.backoff_ms, attempt, retryAfterMs(headers)));
    }
    try {
      const result = await generate({
        model: languageModel,
        schema: request.schema,
        system: request.system,
        prompt: request.prompt,
        maxRetries: 0,
        maxOutputTokens: p.max_output_tokens,
        temperature: 0,
        abortSignal: AbortSignal.timeout(p.timeout_ms),
      });
      if (request.budget) request.budget.used += (result.usage.inputTokens ?? 0) + (result.usage.outputTokens ?? 0);
      return result.object as z.infer<S>;
    } catch (e) {
      last = e;
      if (NoObjectGeneratedError.isInstance(e)) {
        if (request.budget && e.usage) request.budget.used += (e.usage.inputTokens ?? 0) + (e.usage.outputTokens ?? 0);
        continue;
      }
      if (isTimeout(e)) continue;
      if (APICallError.isInstance(e) && e.isRetryable) continue;
      throw toProviderError(ai, p.provider, e);
    }
  }
  throw toProviderError(ai, p.provider, last, p.max_retries + 1);
}

function toProviderError(ai: Sdk, provider: string, e: unknown, attempts?: number): KbProviderError {
  const { APICallError, NoObjectGeneratedError } = ai;
  const after = attempts ? ` after ${attempts} attempts` : '';
  if (NoObjectGeneratedError.isInstance(e)) {
    return new KbProviderError(
      'invalid_output',
      provider,
      `model output did not match the schema${after}: ${e.message}`,
      { cause: e },
    );
  }
  if (isTimeout(e)) return new KbProviderError('provider_timeout', provider, `request timed out${after}`, { cause: e });
  if (APICallError.isInstance(e)) {
    const status = e.statusCode;
    const code =
      status === 429 ? 'provider_rate_limited' : status === 401 || status === 403 ? 'provider_auth' : 'provider_error';
    return new KbProviderError(code, provider, `HTTP ${status ?? '?'}${after}: ${e.message}`, {
      ...(status ? { status } : {}),
      cause: e,
    });
  }
  return new KbProviderError('provider_error', provider, `${e instanceof Error ? e.message : String(e)}${after}`, {
    cause: e,
  });
}
