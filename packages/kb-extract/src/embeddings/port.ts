// createEmbeddingPort: kb-core's EmbeddingPort over a hosted or local provider, through the AI SDK's embedMany.
// Texts go out in batches, one request at a time and in order (a provider's rate limit is per key, so parallel
// requests would mostly buy 429s); each request has its own timeout and retries on 429, 5xx and timeouts with
// exponential backoff, honouring Retry-After. Every vector is checked against the dimension before anything is
// returned, so a call gives all its vectors or a typed error, never part of them.
import type { EmbeddingModel } from 'ai';
import type { EmbeddingPort } from '@evident/kb-core';
import { backoffMs, isTimeout, retryAfterMs, sleep } from '../providers/retry.js';
import { batchRanges } from './batches.js';
import { EMBEDDING_PROVIDERS, MODEL_FACTORIES } from './catalog.js';
import { resolveEmbeddingConfig, type EmbeddingConfig, type ResolvedEmbeddingConfig } from './config.js';
import { KbEmbeddingError } from './errors.js';

export type { EmbeddingPort };

/** Texts one embed() call may carry (kb-core hands its pending work over in chunks well under this). */
export const MAX_TEXTS_PER_CALL = 100_000;

/** What a provider port says about itself (toJSON): never its key. */
export interface EmbeddingPortInfo {
  provider: string;
  model: string;
  dim: number;
  base_url: string | undefined;
}

export interface ProviderEmbeddingPort extends EmbeddingPort {
  /** 0 until the first answer when neither `dim` was given nor the model's length is known. */
  readonly dim: number;
  readonly base_url: string | undefined;
  toJSON(): EmbeddingPortInfo;
}

type Sdk = typeof import('ai');
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= import('ai'));

/**
 * Checks the configuration (KbEmbeddingError 'embedding_config' naming the option or environment variable)
 * and returns the port. Nothing is loaded or requested until the first embed().
 */
export function createEmbeddingPort(
  config: EmbeddingConfig,
  env: NodeJS.ProcessEnv = process.env,
): ProviderEmbeddingPort {
  const c = resolveEmbeddingConfig(config, env);
  const info = EMBEDDING_PROVIDERS[c.provider];
  // The key lives in this closure and in the SDK model object only; the port's properties never hold it.
  const settings = { apiKey: c.api_key, baseURL: c.base_url };
  let built: Promise<EmbeddingModel<string>> | undefined;
  const model = () => {
    if (!built) {
      built = MODEL_FACTORIES[c.provider]().then((create) => create(settings, c.model));
      // A failed load is tried again on the next call.
      built.catch(() => (built = undefined));
    }
    return built;
  };
  const providerOptions = {
    ...info.callOptions,
    ...(c.dim_given && c.dim !== undefined ? info.dimensionOptions?.(c.model, c.dim) : undefined),
  };
  let dim = c.dim;

  const embed = async (texts: string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> => {
    checkTexts(c, texts);
    const signal = options.signal;
    if (signal?.aborted) throw aborted(c, signal.reason);
    if (texts.length === 0) return [];
    const sent = texts.map((t) => cut(t, c.max_input_chars));
    const out = new Array<Float32Array>(sent.length);
    const m = await model().catch((e: unknown) => {
      throw new KbEmbeddingError('embedding_provider_error', c.provider, `the SDK did not load: ${String(e)}`, {
        cause: e,
      });
    });
    for (const [start, end] of batchRanges(sent, c.batch_size, c.max_batch_chars)) {
      const vectors = await embedBatch(c, m, sent.slice(start, end), providerOptions, signal);
      if (vectors.length !== end - start) {
        throw new KbEmbeddingError(
          'embedding_invalid_output',
          c.provider,
          `${vectors.length} vectors answered for ${end - start} texts`,
        );
      }
      // The first answer fixes an unknown dimension, once every vector of it agrees.
      const expected = dim ?? vectors[0]!.length;
      for (const [i, v] of vectors.entries()) {
        if (v.length !== expected) {
          throw new KbEmbeddingError(
            'embedding_dimension_mismatch',
            c.provider,
            `model ${c.model} answered a vector of ${v.length} entries for texts[${start + i}]; expected ${expected}` +
              (dim === undefined
                ? ' (the length of the first vector)'
                : c.dim_given
                  ? ' (dim)'
                  : ` (${c.model}'s length)`),
          );
        }
        if (!v.every(Number.isFinite))
          throw new KbEmbeddingError('embedding_invalid_output', c.provider, `texts[${start + i}]: a non-finite entry`);
        out[start + i] = Float32Array.from(v);
      }
      if (expected === 0)
        throw new KbEmbeddingError('embedding_invalid_output', c.provider, 'the provider answered empty vectors');
      dim ??= expected;
    }
    return out;
  };

  const port: ProviderEmbeddingPort = {
    provider: c.provider,
    model: c.model,
    get dim() {
      return dim ?? 0;
    },
    base_url: c.base_url,
    embed,
    toJSON: () => ({ provider: c.provider, model: c.model, dim: dim ?? 0, base_url: c.base_url }),
  };
  return port;
}

function checkTexts(c: ResolvedEmbeddingConfig, texts: unknown): asserts texts is string[] {
  const bad = (field: string, message: string) =>
    new KbEmbeddingError('embedding_invalid_input', c.provider, message, { field });
  if (!Array.isArray(texts)) throw bad('texts', 'must be an array of strings');
  if (texts.length > MAX_TEXTS_PER_CALL) throw bad('texts', `at most ${MAX_TEXTS_PER_CALL} texts a call`);
  for (const [i, t] of texts.entries()) {
    if (typeof t !== 'string') throw bad(`texts[${i}]`, 'must be a string');
    // Providers refuse empty inputs (OpenAI answers 400 for the whole batch).
    if (t.trim() === '') throw bad(`texts[${i}]`, 'must not be empty');
  }
}

/**
 * A text over max_input_chars is cut, not refused: its first part still places it near its topic, and a
 * refusal would leave a claim unembedded for good. The cut never splits a surrogate pair.
 */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

async function embedBatch(
  c: ResolvedEmbeddingConfig,
  model: EmbeddingModel<string>,
  values: string[],
  providerOptions: Record<string, Record<string, string | number>>,
  signal: AbortSignal | undefined,
): Promise<number[][]> {
  const ai = await loadSdk();
  let last: unknown;
  for (let attempt = 0; attempt <= c.max_retries; attempt++) {
    if (attempt > 0) {
      const headers = ai.APICallError.isInstance(last) ? last.responseHeaders : undefined;
      try {
        await sleep(backoffMs(c.backoff_ms, attempt, retryAfterMs(headers)), signal);
      } catch (e) {
        throw aborted(c, e);
      }
    }
    const timeout = AbortSignal.timeout(c.timeout_ms);
    try {
      const { embeddings } = await ai.embedMany({
        model,
        values,
        maxRetries: 0,
        maxParallelCalls: 1,
        abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        providerOptions,
      });
      return embeddings;
    } catch (e) {
      if (signal?.aborted) throw aborted(c, e);
      last = e;
      if (isTimeout(e) || (ai.APICallError.isInstance(e) && e.isRetryable)) continue;
      throw toEmbeddingError(ai, c, e);
    }
  }
  throw toEmbeddingError(ai, c, last, c.max_retries + 1);
}

function aborted(c: ResolvedEmbeddingConfig, cause: unknown): KbEmbeddingError {
  return new KbEmbeddingError('embedding_aborted', c.provider, 'the call was aborted', { cause });
}

function toEmbeddingError(ai: Sdk, c: ResolvedEmbeddingConfig, e: unknown, attempts?: number): KbEmbeddingError {
  const after = attempts ? ` after ${attempts} attempts` : '';
  if (isTimeout(e))
    return new KbEmbeddingError('embedding_timeout', c.provider, `no answer within ${c.timeout_ms} ms${after}`, {
      cause: e,
    });
  if (ai.APICallError.isInstance(e)) {
    const status = e.statusCode;
    // A 2xx whose body did not parse as the provider's answer.
    if (status !== undefined && status < 300)
      return new KbEmbeddingError('embedding_invalid_output', c.provider, e.message, { cause: e });
    const code =
      status === 429
        ? 'embedding_rate_limited'
        : status === 401 || status === 403
          ? 'embedding_auth'
          : 'embedding_provider_error';
    return new KbEmbeddingError(code, c.provider, `HTTP ${status ?? '?'}${after}: ${e.message}`, {
      ...(status ? { status } : {}),
      cause: e,
    });
  }
  if (ai.TypeValidationError.isInstance(e) || ai.JSONParseError.isInstance(e))
    return new KbEmbeddingError('embedding_invalid_output', c.provider, e.message, { cause: e });
  return new KbEmbeddingError(
    'embedding_provider_error',
    c.provider,
    `${e instanceof Error ? e.message : String(e)}${after}`,
    { cause: e },
  );
}
